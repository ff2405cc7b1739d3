package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
 * ZetaSQL's {@code min_privacy_units_per_group}, {@code max_rows_contributed} and {@code
 * max_groups_contributed = NULL} (issue 24). Groups a, b, c have 5, 3 and 2 privacy units (one row
 * each). With k = min_privacy_units_per_group the selection sees max(0, units − (k − 1)) units
 * (docs/proofs/min-privacy-units.md), so a group of n units is released as one of n − k + 1 units
 * would be without the option.
 *
 * <p>False-failure probability: at ε = 10^12 and δ = 10^-6, a group whose shifted count is 2 or
 * more is released with probability at least 1 − 10^-6 by every selection AUTO may choose, and one
 * whose shifted count is 1 with probability at most δ = 10^-6 (a one-unit group under any (ε,
 * δ)-DP selection); the run is deterministic with the fixed seed.
 */
class MinPrivacyUnitsTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    long u = 0;
    for (Object[] g : new Object[][] {{"a", 5}, {"b", 3}, {"c", 2}}) {
      for (int i = 0; i < (Integer) g[1]; i++) {
        rows.add(Arrays.asList(u++, g[0], 1.0));
      }
    }
    catalog = SqlTestTables.catalog(db, "t", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Map<String, Double> run(String options, String select) {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
        + " delta = 1e-6" + options + ") g, " + select + " FROM t GROUP BY g", catalog);
    SqlResult r = st.present(Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(11)).build().run(st.query()));
    Map<String, Double> out = new TreeMap<>();
    r.rows().forEach(row -> out.put((String) row.get(0), ((Estimate) row.get(1)).value()));
    return out;
  }

  @Test
  void minPrivacyUnits_releasesOnlyGroupsWithEnoughUnits() {
    assertEquals(Map.of("a", 5.0, "b", 3.0, "c", 2.0), run("", "COUNT(*) AS n"));
    assertEquals(Map.of("a", 5.0, "b", 3.0), run(", min_privacy_units_per_group = 2",
        "COUNT(*) AS n"));
    assertEquals(Map.of("a", 5.0), run(", min_privacy_units_per_group = 3", "COUNT(*) AS n"));
    assertEquals(Map.of(), run(", min_privacy_units_per_group = 5", "COUNT(*) AS n"));
  }

  @Test
  void minPrivacyUnits_postAggregationCount_isShiftedBack() {
    // The released count is the selection's own noisy count of the shifted units, plus k − 1.
    assertEquals(Map.of("a", 5.0), run(", min_privacy_units_per_group = 3,"
        + " group_selection_strategy = POST_AGGREGATION_THRESHOLD", "COUNT(DISTINCT uid) AS n"));
    assertEquals(Map.of("a", 5.0), run(", min_privacy_units_per_group = 3,"
        + " group_selection_strategy = LAPLACE_THRESHOLD", "SUM(x, contribution_bounds_per_group"
        + " => (0, 1)) AS s"));
  }

  @Test
  void minPrivacyUnits_isShownInExplain() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " delta = 1e-6, min_privacy_units_per_group = 3) g, COUNT(*) FROM t GROUP BY g", catalog);
    String plan = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(1)).build().explain(st.query()).toString();
    assertTrue(plan.contains("min_privacy_units_per_group = 3"), plan);
  }

  @Test
  void maxRowsContributed_boundsGroupsAndRows_andNullGroupsNeedIt() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " delta = 1e-6, max_groups_contributed = NULL, max_rows_contributed = 4) g, COUNT(*)"
        + " FROM t GROUP BY g", catalog);
    assertEquals(4, st.query().maxRowsContributed(), "ZetaSQL's bound: 4 rows per unit in all");
    assertTrue(st.differences().stream().noneMatch(d -> d.contains("max_rows_contributed")),
        "no longer a difference from ZetaSQL: " + st.differences());
    // L0 = 2: group c (2 units) is at the selection's threshold and may be dropped.
    Map<String, Double> got = run(", max_rows_contributed = 2", "COUNT(*) AS n");
    assertEquals(5.0, got.get("a"));
    assertEquals(3.0, got.get("b"));
    assertTrue(!got.containsKey("c") || got.get("c") == 2.0, got.toString());
  }

  @Test
  void kappa_isTheDeprecatedNameOfMaxGroupsContributed() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " delta = 1e-6, kappa = 3) g, COUNT(*) FROM t GROUP BY g", catalog);
    assertEquals(3, st.query().maxGroupsContributed());
    assertRefused("kappa = 2, max_groups_contributed = 2", "deprecated name",
        "kappa = 2, max_groups_contributed = 2) g, COUNT(*) FROM t GROUP BY g");
  }

  @Test
  void refusals_nameTheOptionAndPosition() {
    assertRefused("max_groups_contributed = NULL", "needs max_rows_contributed",
        "max_groups_contributed = NULL) g, COUNT(*) FROM t GROUP BY g");
    assertRefused("max_groups_contributed = 2, max_rows_contributed = 3", "conflicts with",
        "max_groups_contributed = 2, max_rows_contributed = 3) g, COUNT(*) FROM t GROUP BY g");
    assertRefused("min_privacy_units_per_group = 2, public_groups = ('a')", "public groups",
        "min_privacy_units_per_group = 2, public_groups = ('a')) g, COUNT(*) FROM t GROUP BY g");
    assertRefused("min_privacy_units_per_group = 0", "must be an integer",
        "min_privacy_units_per_group = 0) COUNT(*) FROM t");
    assertRefused("min_privacy_units_per_group = 2", "GROUP BY",
        "min_privacy_units_per_group = 2) COUNT(*) FROM t");
  }

  private static void assertRefused(String option, String reason, String tail) {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, " + tail;
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, catalog));
    assertTrue(e.reason().contains(reason), e.getMessage());
    assertEquals(1, e.line());
    assertTrue(e.column() > sql.indexOf(option) && e.column() <= sql.indexOf(option)
        + option.length() + 1, e.getMessage() + " vs " + option);
  }
}
