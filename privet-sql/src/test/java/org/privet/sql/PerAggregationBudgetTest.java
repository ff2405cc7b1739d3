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
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Plan;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.SeededRandomSource;

/**
 * ZetaSQL's per-aggregation budget (issue 24): {@code epsilon => e} on aggregates and {@code
 * group_selection_epsilon}. The reference is the ZetaSQL rule itself, evaluated here: each part
 * with its own ε gets it, the others share the rest equally, and the sum never exceeds the
 * query's ε. Checked on EXPLAIN's per-mechanism losses (no data is read).
 */
class PerAggregationBudgetTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static final String P = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (";

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 10; u++) {
      rows.add(Arrays.asList(u, "g" + (u % 2), (double) u));
    }
    catalog = SqlTestTables.catalog(db, "t", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Plan explain(String sql) {
    return Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(1)).build().explain(DpSql.parse(sql, catalog).query());
  }

  private static double epsilon(PrivacyLoss l) {
    return l instanceof PureDp p ? p.epsilon() : ((ApproxDp) l).epsilon();
  }

  /** ε per output ("<groups>" for selection), summed over its mechanisms. */
  private static Map<String, Double> byOutput(Plan p) {
    Map<String, Double> out = new TreeMap<>();
    p.mechanisms().forEach(m -> out.merge(m.cost().output(), epsilon(m.cost().loss()),
        Double::sum));
    return out;
  }

  @Test
  void everyPartGiven_eachGetsItsEpsilon_andTheQueryCostsTheirSum() {
    Plan p = explain(P + "epsilon = 4, delta = 1e-6, group_selection_epsilon = 1,"
        + " max_groups_contributed = 1, group_selection_strategy = LAPLACE_THRESHOLD) g,"
        + " COUNT(*, epsilon => 0.5) AS n, SUM(x, contribution_bounds_per_group => (0, 10),"
        + " epsilon => 1.5) AS s FROM t GROUP BY g");
    Map<String, Double> e = byOutput(p);
    assertEquals(1.0, e.get("<groups>"), 1e-6, e.toString());
    assertEquals(0.5, e.get("n"), 1e-6, e.toString());
    assertEquals(1.5, e.get("s"), 1e-6, e.toString());
    assertEquals(3.0, epsilon(p.total()), 1e-6, "the sum, not the query's 4");
  }

  @Test
  void partsWithout_shareTheRestEqually() {
    Plan p = explain(P + "epsilon = 3, delta = 1e-6, max_groups_contributed = 1,"
        + " group_selection_strategy = LAPLACE_THRESHOLD) g, COUNT(*, epsilon => 1) AS n,"
        + " SUM(x, contribution_bounds_per_group => (0, 10)) AS s FROM t GROUP BY g");
    Map<String, Double> e = byOutput(p);
    assertEquals(1.0, e.get("n"), 1e-6, e.toString());
    assertEquals(1.0, e.get("s"), 1e-6, e.toString());
    assertEquals(1.0, e.get("<groups>"), 1e-6, e.toString());
    assertTrue(epsilon(p.total()) <= 3, p.total().toString());
  }

  @Test
  void overconsumption_isRefusedAtTheEpsilonOption() {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(P + "epsilon = 1.1,"
        + " delta = 1e-6, group_selection_epsilon = 1.2, max_groups_contributed = 1) g,"
        + " COUNT(*, epsilon => 1.3) FROM t GROUP BY g", catalog));
    assertTrue(e.reason().contains("epsilon overconsumption"), e.getMessage());
    assertEquals(53, e.column(), e.getMessage()); // the value of epsilon
    DpSqlException rest = assertThrows(DpSqlException.class, () -> DpSql.parse(P
        + "epsilon = 1) COUNT(*, epsilon => 1) AS n, SUM(x, contribution_bounds_per_group =>"
        + " (0, 1)) AS s FROM t", catalog));
    assertTrue(rest.reason().contains("nothing of epsilon"), rest.getMessage());
  }
}
