package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.SeededRandomSource;

/**
 * Issue 24: ZetaSQL's default per-unit contribution. Without bounds, COUNT(*), SUM, VAR_POP,
 * STDDEV_POP and PERCENTILE_CONT use every row of a unit, up to a bound L∞ computed privately
 * (a share of ε, shown in EXPLAIN); a table with 3 rows per unit counts 30, not 10. The reference
 * is the exact answer computed here in Java from the rows.
 *
 * <p>False-failure probability: ε = 10^9 (the L∞ estimate gets 10^8, tree node noise scale
 * below 10^-7; the value bounds and the main pass likewise), so every noisy count equals its
 * exact value except with probability below 10^-6 per query; the seeds are fixed.
 */
class DefaultContributionTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static double sum;
  private static final List<Double> values = new ArrayList<>();

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 10; u++) {
      for (int k = 0; k < 3; k++) {
        double x = 10 + u + k;
        sum += x;
        values.add(x);
        rows.add(Arrays.asList(u, "g" + (u % 2), x));
      }
    }
    catalog = SqlTestTables.catalog(db, "t", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static SqlResult run(String sql) {
    DpStatement st = DpSql.parse(sql, catalog);
    return st.present(Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(3)).build().run(st.query()));
  }

  private static double cell(SqlResult r, int row, int column) {
    return ((Estimate) r.rows().get(row).get(column)).value();
  }

  @Test
  void countStar_threeRowsPerUnit_countsThirty() {
    SqlResult r = run("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e9)"
        + " COUNT(*) AS n FROM t");
    assertEquals(30, cell(r, 0, 0), 1e-6);
    assertEquals(4, r.estimatedMaxRowsPerGroup());
  }

  @Test
  void sumAndVarianceWithoutBounds_useEveryRow() {
    double mean = sum / values.size();
    double var = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum() / values.size();
    SqlResult r = run("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e9)"
        + " SUM(x) AS s, VAR_POP(x) AS v, COUNT(*) AS n FROM t");
    assertEquals(sum, cell(r, 0, 0), 0.01);
    assertEquals(var, cell(r, 0, 1), 0.05);
    assertEquals(30, cell(r, 0, 2), 1e-6);
  }

  @Test
  void groupedCount_withPrivateSelection_countsEveryRowPerGroup() {
    SqlResult r = run("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e9, delta = 0.1,"
        + " max_groups_contributed = 1) g, COUNT(*) AS n FROM t GROUP BY g ORDER BY g");
    assertEquals(2, r.rows().size());
    assertEquals(15, cell(r, 0, 1), 1e-6);
    assertEquals(15, cell(r, 1, 1), 1e-6);
  }

  @Test
  void explain_namesTheEstimateAndItsShare_andNoLongerTheDifference() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)"
        + " COUNT(*) AS n FROM t", catalog);
    assertTrue(st.query().contributionBoundEstimate().isPresent());
    assertFalse(st.differences().stream().anyMatch(l -> l.contains("counts at most 1 row")),
        st.differences().toString());
    String plan = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .build().explain(st.query()).toString();
    assertTrue(plan.contains("L∞ (max rows per unit per group) estimated privately: 20.00% of"
        + " the budget"), plan);
  }

  @Test
  void autoBoundsShare_setsTheEstimatesShare() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " auto_bounds_share = 0.25) COUNT(*) AS n FROM t", catalog);
    assertEquals(0.25, st.query().contributionBoundEstimate().orElseThrow().share());
  }

  @Test
  void givenBoundsOrAvg_keepAGivenLInf() {
    DpStatement withCap = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)"
        + " COUNT(*, contribution_bounds_per_group => (0, 2)) AS n FROM t", catalog);
    assertTrue(withCap.query().contributionBoundEstimate().isEmpty());
    assertEquals(2, withCap.query().maxRowsPerGroup());
    DpStatement withAvg = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)"
        + " COUNT(*) AS n, AVG(x) AS m FROM t", catalog);
    assertTrue(withAvg.query().contributionBoundEstimate().isEmpty());
    assertTrue(withAvg.differences().stream().anyMatch(l -> l.startsWith("n: counts at most 1 row")
        && l.contains("has an AVG")), withAvg.differences().toString());
    DpStatement distinct = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)"
        + " COUNT(DISTINCT uid) AS n FROM t", catalog);
    assertTrue(distinct.query().contributionBoundEstimate().isEmpty());
  }
}
