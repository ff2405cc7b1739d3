package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Issue 24: ZetaSQL's implicit bounding (no contribution bounds given: SUM, AVG, VAR_POP and
 * STDDEV_POP compute them privately, as {@code contribution_bounds_per_row => AUTO}), and the
 * defaults that change an answer relative to ZetaSQL, each named in {@link
 * DpStatement#differences()} (EXPLAIN's "difference from BigQuery" lines).
 *
 * <p>False-failure probability: the answers run at ε = 2^16 on 200 units with values in [10, 20]
 * (bounds tree ε ≈ 6554: per-node Laplace scale below 1e-3, so the tree is exact with probability
 * above 1 − 1e-9; the main pass's noise on the sum has scale below 0.01); the reference is the
 * exact sum computed here in Java.
 */
class ImplicitBoundsTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static double exactSum;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 200; u++) {
      double x = 10 + (u % 11);
      exactSum += x;
      rows.add(Arrays.asList(u, "g" + (u % 2), x));
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
        .randomSource(new SeededRandomSource(9)).build().run(st.query()));
  }

  @Test
  void sumWithoutBounds_isBoundedImplicitly_andTheAnswerIsTheSum() {
    SqlResult r = run("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 65536, delta = 1e-6)"
        + " SUM(x) AS s FROM t");
    assertEquals(1, r.bounds().size());
    assertEquals(8.0, r.bounds().get(0).lower(), "lower: the cell [8, 16) holds the minimum 10");
    assertEquals(32.0, r.bounds().get(0).upper(), "upper: the cell [16, 32) holds the maximum 20");
    assertEquals(exactSum, ((Estimate) r.rows().get(0).get(0)).value(), 0.1);
  }

  @Test
  void implicitBounds_andDefaults_areNamedAsDifferences() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " delta = 1e-6) g, SUM(x) AS s, AVG(x) AS m, COUNT(*) AS n FROM t GROUP BY g", catalog);
    List<String> d = st.differences();
    assertTrue(d.stream().anyMatch(l -> l.startsWith("s: no contribution bounds given")), d.toString());
    assertTrue(d.stream().anyMatch(l -> l.startsWith("m: no contribution bounds given")), d.toString());
    assertTrue(d.stream().anyMatch(l -> l.startsWith("n: counts at most 1 row per privacy unit")),
        d.toString());
    assertTrue(d.stream().anyMatch(l -> l.startsWith("max_groups_contributed not given")),
        d.toString());
    // Explicit choices silence them.
    DpStatement explicit = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " delta = 1e-6, max_groups_contributed = 1) g, SUM(x, contribution_bounds_per_group =>"
        + " (0, 20)) AS s, COUNT(*, contribution_bounds_per_group => (0, 1)) AS n FROM t GROUP BY g",
        catalog);
    assertEquals(List.of(), explicit.differences());
  }

  @Test
  void percentileWithoutBounds_isBoundedImplicitly() {
    // Values 10..20 (u mod 11): the median is 15; the implicit bounds [8, 32) hold every value and
    // the tree over them has 1 024 cells of 0.0234, so the released median is within 0.1 of 15.
    SqlResult r = run("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 65536)"
        + " PERCENTILE_CONT(x, 0.5) AS p, PERCENTILE_CONT(x, 0.9) AS p90 FROM t");
    assertEquals(2, r.bounds().size(), "one tree, its bounds named by both outputs");
    assertEquals(8.0, r.bounds().get(1).lower());
    assertEquals(15, ((Estimate) r.rows().get(0).get(0)).value(), 0.1);
    assertEquals(19, ((Estimate) r.rows().get(0).get(1)).value(), 0.1);
  }
}
