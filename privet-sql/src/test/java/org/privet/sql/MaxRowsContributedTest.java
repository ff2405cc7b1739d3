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
 * ZetaSQL's {@code max_rows_contributed = m} (issue 24): at most m rows per privacy unit in total,
 * over all groups, as ZetaSQL's rewriter bounds them (a sample of m rows per unit before
 * aggregation; {@code docs/proofs/rows-contributed.md}). Table: 30 units with 3 rows each, one in
 * each of the groups a, b, c, every row of unit u valued x_u = u mod 5 + 1; 10 more units with
 * one row in a (x = 2). The expected answers are computed here from those lists: with m = 2 a
 * 3-row unit keeps exactly 2 rows, so COUNT(*) over all groups is 30·2 + 10 = 70 (ZetaSQL's
 * answer: every unit's sampled rows, whichever they are); with m ≥ 3 nothing is cut and each
 * group's count is exact.
 *
 * <p>At ε = 10^12 the discrete noise is 0 with probability 1 − 10^-100 or so per value (scale
 * ≤ 10·m/ε); public groups release every listed group; private groups of ≥ 10 units are released
 * with probability ≥ 1 − 10^-6 (δ = 10^-6). Fixed seeds.
 */
class MaxRowsContributedTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static final List<List<?>> ROWS = new ArrayList<>();

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    for (long u = 0; u < 30; u++) {
      for (String g : List.of("a", "b", "c")) {
        ROWS.add(Arrays.asList(u, g, (double) (u % 5 + 1)));
      }
    }
    for (long u = 100; u < 110; u++) {
      ROWS.add(Arrays.asList(u, "a", 2.0));
    }
    catalog = SqlTestTables.catalog(db, "t", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), ROWS, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Session session(long seed) {
    return Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).build();
  }

  /** Per group (or "" without GROUP BY), the value of the first aggregate. */
  private static Map<String, Double> run(String options, String select, boolean grouped,
      long seed) {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
        + " delta = 1e-6, " + options + ") " + (grouped ? "g, " : "") + select + " FROM t"
        + (grouped ? " GROUP BY g" : ""), catalog);
    SqlResult r = st.present(session(seed).run(st.query()));
    Map<String, Double> out = new TreeMap<>();
    for (List<Object> row : r.rows()) {
      out.put(grouped ? (String) row.get(0) : "", ((Estimate) row.get(grouped ? 1 : 0)).value());
    }
    return out;
  }

  /** Σ over units of min(rows, m) · value, from the fixture's lists (value 1: a count). */
  private static double reference(int m, boolean values) {
    Map<Object, List<Double>> byUnit = new TreeMap<>();
    for (List<?> r : ROWS) {
      byUnit.computeIfAbsent(r.get(0), u -> new ArrayList<>()).add((Double) r.get(2));
    }
    double total = 0;
    for (List<Double> xs : byUnit.values()) {
      total += Math.min(xs.size(), m) * (values ? xs.get(0) : 1); // a unit's rows share x
    }
    return total;
  }

  private static double sum(Map<String, Double> m) {
    return m.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  @Test
  void spreadOverGroups_unitKeepsExactlyMRowsInTotal_asZetaSql() {
    assertEquals(70, reference(2, false));
    for (long seed = 1; seed <= 4; seed++) {
      Map<String, Double> n = run("max_rows_contributed = 2, public_groups = ('a', 'b', 'c')",
          "COUNT(*) AS n", true, seed);
      assertEquals(3, n.size());
      assertEquals(reference(2, false), sum(n), "each 3-row unit keeps 2 rows: " + n);
      assertTrue(n.get("a") >= 10 && n.get("a") <= 40 && n.get("b") <= 30 && n.get("c") <= 30,
          n.toString());
      // Private groups and ZetaSQL's max_groups_contributed = NULL give the same total.
      Map<String, Double> p = run("max_groups_contributed = NULL, max_rows_contributed = 2",
          "COUNT(*) AS n", true, seed);
      assertEquals(reference(2, false), sum(p), p.toString());
    }
    // Without GROUP BY: the unit's one group holds all its rows, m of them kept.
    assertEquals(reference(2, false), run("max_rows_contributed = 2", "COUNT(*) AS n", false, 5)
        .get(""));
    assertEquals(reference(1, false), run("max_rows_contributed = 1", "COUNT(*) AS n", false, 5)
        .get(""));
    // SUM per row: each unit's m kept rows, of its value x_u (clamped to [0, 10]: unchanged).
    assertEquals(reference(2, true), run("max_rows_contributed = 2",
        "SUM(x, contribution_bounds_per_row => (0, 10)) AS s", false, 6).get(""), 1e-6);
    assertEquals(reference(2, true), sum(run("max_rows_contributed = 2, public_groups = ('a',"
        + " 'b', 'c')", "SUM(x, contribution_bounds_per_row => (0, 10)) AS s", true, 7)), 1e-6);
  }

  @Test
  void capAtOrAboveEveryUnitsRows_exactCountsPerGroup() {
    Map<String, Double> expected = new TreeMap<>();
    for (List<?> r : ROWS) {
      expected.merge((String) r.get(1), 1.0, Double::sum);
    }
    for (int m : new int[] {3, 7}) {
      assertEquals(expected, run("max_rows_contributed = " + m + ", public_groups = ('a', 'b',"
          + " 'c')", "COUNT(*) AS n", true, m));
    }
    // A COUNT bound (0, k) with k ≥ m never binds: the same answer.
    assertEquals(reference(2, false), sum(run("max_rows_contributed = 2, public_groups = ('a',"
        + " 'b', 'c')", "COUNT(*, contribution_bounds_per_group => (0, 5)) AS n", true, 8)));
  }

  @Test
  void explain_statesZetaSqlsBound_noDifferenceLine() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " delta = 1e-6, max_rows_contributed = 4) g, COUNT(*) AS n FROM t GROUP BY g", catalog);
    assertTrue(st.differences().stream().noneMatch(d -> d.contains("max_rows_contributed")),
        st.differences().toString());
    String plan = session(1).explain(st.query()).render();
    assertTrue(plan.contains("max rows contributed = 4 (ZetaSQL's max_rows_contributed): each"
        + " unit keeps at most 4 rows in total over all groups"), plan);
    assertTrue(plan.contains("Δ₁=4") || plan.contains("Δ₂=4"), "count noise for 4 rows: " + plan);
  }

  @Test
  void interplay_autoBoundsMinUnitsAndRefusals() {
    // AUTO bounds: the bounds pass reads each unit's (at most m) rows; the main pass the same m.
    double s = run("max_rows_contributed = 2", "SUM(x, contribution_bounds_per_row => AUTO) AS s",
        false, 9).get("");
    assertTrue(Math.abs(s - reference(2, true)) <= 0.2 * reference(2, true), "AUTO: " + s);
    // min_privacy_units_per_group: group a (40 units) stays, all units counted once at most twice.
    Map<String, Double> n = run("max_rows_contributed = 2, min_privacy_units_per_group = 5",
        "COUNT(*) AS n", true, 10);
    assertEquals(reference(2, false), sum(n), n.toString());
    assertRefused("COUNT bounds (0, 1) below max_rows_contributed = 2",
        "max_rows_contributed = 2) g, COUNT(*, contribution_bounds_per_group => (0, 1)) AS n",
        "COUNT(*, contribution");
    assertRefused("needs max_rows_contributed = 1",
        "max_rows_contributed = 2) g, AVG(x, contribution_bounds_per_group => (0, 5)) AS m",
        "AVG(");
    assertRefused("conflicts with max_rows_per_group",
        "max_rows_contributed = 2, max_rows_per_group = 2) g, COUNT(*) AS n",
        "max_rows_contributed = 2");
  }

  @Test
  void joins_capBoundsEachCustomersJoinedRows() {
    // The cap bounds the joined rows of each unit (a customer's line items over their orders):
    // Σ_c min(line items of c, m), from JoinFixture's lists; grouped by quantity (1..3), a
    // customer's line items spread over the groups and the total is the same.
    try (DuckDbBackend jdb = DuckDbBackend.inMemory()) {
      JoinFixture d = new JoinFixture(jdb, 0, "");
      Session s = Session.builder().backend(jdb).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(3)).build();
      for (int m : new int[] {1, 5}) {
        double expected = d.lineitemsPerCustomer().values().stream()
            .mapToInt(n -> Math.min(n, m)).sum();
        DpStatement scalar = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon ="
            + " 1e12, max_rows_contributed = " + m + ") COUNT(*) AS n FROM lineitem JOIN orders"
            + " USING (orderkey)", d.catalog);
        assertEquals(expected, ((Estimate) scalar.present(s.run(scalar.query())).rows().get(0)
            .get(0)).value(), "m = " + m);
        DpStatement grouped = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon ="
            + " 1e12, delta = 1e-6, max_rows_contributed = " + m + ") quantity, COUNT(*) AS n"
            + " FROM lineitem JOIN orders USING (orderkey) GROUP BY quantity", d.catalog);
        double total = 0;
        for (List<Object> row : grouped.present(s.run(grouped.query())).rows()) {
          total += ((Estimate) row.get(1)).value();
        }
        assertEquals(expected, total, "m = " + m + ", over the quantity groups");
      }
    }
  }

  private static void assertRefused(String reason, String tail, String at) {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, " + tail
        + " FROM t GROUP BY g";
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, catalog));
    assertTrue(e.reason().contains(reason), e.getMessage());
    assertEquals(1, e.line());
    assertTrue(e.column() >= sql.indexOf(at) && e.column() <= sql.indexOf(at) + at.length() + 1,
        e.getMessage() + " at column " + e.column() + " vs " + sql.indexOf(at));
  }
}
