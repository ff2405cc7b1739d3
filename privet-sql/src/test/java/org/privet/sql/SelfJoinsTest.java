package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.privet.engine.Estimate;
import org.privet.engine.Result;

/**
 * Private self-joins whose results each have one unit (issue 25; {@code
 * docs/proofs/r2t-truncation.md}, "Self-joins"), on DuckDB: two copies of orders, or a chain
 * lineitem–orders and a copy of orders, joined on the privacy unit. Each expected value is computed
 * here from the fixture's Java lists ({@link JoinFixture}): a unit with a orders of one copy and b
 * rows of the other has a·b joined rows, of which the cap m per unit and side keeps
 * min(a, m)·min(b, m), and the truncation min(·, L∞).
 *
 * <p>False-failure probability: ε = 10^12 (noise scales below 10^-6 on integer counts, compared
 * with tolerance 1e-3); deterministic with the fixed seeds.
 */
class SelfJoinsTest extends JoinNeighbours {
  private static final String HEAD = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, ";

  /** Orders per customer (every customer has at least one). */
  private static Map<Long, Integer> ordersPerCustomer(JoinFixture f) {
    Map<Long, Integer> m = new TreeMap<>();
    f.orders.forEach(o -> m.merge((Long) o.get(1), 1, Integer::sum));
    return m;
  }

  /** Σ_u min(a_u·b_u, linf) with a_u, b_u capped at m. */
  private static double expected(Map<Long, Integer> a, Map<Long, Integer> b, long m, long linf) {
    double s = 0;
    for (Map.Entry<Long, Integer> e : a.entrySet()) {
      long x = Math.min(e.getValue(), m);
      long y = Math.min(b.getOrDefault(e.getKey(), 0), m);
      s += Math.min(x * y, linf);
    }
    return s;
  }

  private static double count(String sql, JoinFixture f) {
    return value(sql, f).value();
  }

  @Test
  void ordersWithThemselves_onUsingWhere_equalSumOfSquares_withTheAnalystsBound() {
    Map<Long, Integer> o = ordersPerCustomer(d);
    for (String from : List.of(
        "FROM orders o1 JOIN orders o2 ON o1.custkey = o2.custkey",
        "FROM orders o1 JOIN orders o2 USING (custkey)",
        "FROM orders o1, orders o2 WHERE o2.custkey = o1.custkey")) {
      // L∞ = 2000 ≥ 40² (the heavy customer): nothing truncated, the cap m = 2000 keeps all
      assertEquals(expected(o, o, 2000, 2000), count(HEAD + "max_rows_per_group = 2000) COUNT(*)"
          + " AS n " + from, d), 1e-3, from);
      // L∞ = 5: Σ min(n², 5); the cap m = 5 ≥ L∞ changes no min(n², 5)
      assertEquals(expected(o, o, Long.MAX_VALUE, 5), count(HEAD + "max_rows_per_group = 5)"
          + " COUNT(*) AS n " + from, d), 1e-3, from);
    }
  }

  @Test
  void chainJoinedWithACopy_onTheUnit_equalsSumOfProducts() {
    Map<Long, Integer> o = ordersPerCustomer(d);
    Map<Long, Integer> l = d.lineitemsPerCustomer();
    String sql = HEAD + "max_rows_per_group = 100000) COUNT(*) AS n FROM lineitem l JOIN orders o1"
        + " ON l.orderkey = o1.orderkey JOIN orders o2 ON o2.custkey = o1.custkey";
    assertEquals(expected(l, o, Long.MAX_VALUE, Long.MAX_VALUE), count(sql, d), 1e-3);
    // with the unit table as a third copy (customer's rows: one per unit)
    String three = HEAD + "max_rows_per_group = 100000) COUNT(*) AS n FROM customer c JOIN orders o1"
        + " ON o1.custkey = c.custkey JOIN orders o2 ON o2.custkey = c.custkey";
    assertEquals(expected(o, o, Long.MAX_VALUE, Long.MAX_VALUE), count(three, d), 1e-3);
  }

  /**
   * Public groups from the public nation table, written first: every customer's n² joined rows
   * counted in its nation (nation 2 has no customer: 0).
   */
  @Test
  void publicTableWrittenFirst_groupsPerNation_equalTheReference() {
    Map<Long, Integer> o = ordersPerCustomer(d);
    Map<String, Double> expected = new TreeMap<>(Map.of("A", 0.0, "B", 0.0, "C", 0.0));
    o.forEach((c, k) -> expected.merge(d.nationOf(c) == 0 ? "A" : "B", (double) k * k, Double::sum));
    DpStatement st = DpSql.parse(HEAD + "delta = 1e-6, max_rows_per_group = 2000) name, COUNT(*) AS n"
        + " FROM nation JOIN customer c ON c.nationkey = nation.nationkey JOIN orders o1 ON"
        + " o1.custkey = c.custkey JOIN orders o2 ON o2.custkey = o1.custkey GROUP BY name",
        d.catalog);
    Map<String, Double> got = new TreeMap<>();
    st.present(session().run(st.query())).rows().forEach(r -> got.put(String.valueOf(r.get(0)),
        ((Estimate) r.get(1)).value()));
    assertEquals(expected.keySet(), got.keySet());
    expected.forEach((k, v) -> assertEquals(v, got.get(k), 1e-3, k));
  }

  @Test
  void maxRowsContributed_capIsTheTotal_countsExact() {
    Map<Long, Integer> o = ordersPerCustomer(d);
    assertEquals(expected(o, o, Long.MAX_VALUE, 7), count(HEAD + "max_rows_contributed = 7)"
        + " COUNT(*) AS n FROM orders o1 JOIN orders o2 USING (custkey)", d), 1e-3);
  }

  @Test
  void noBoundGiven_estimatedLinf_andR2T_equalTheirTruncatedCounts() {
    Map<Long, Integer> o = ordersPerCustomer(d);
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12)"
        + " COUNT(*) AS n FROM orders o1 JOIN orders o2 USING (custkey)", d.catalog);
    Result r = session().run(st.query());
    int linf = r.estimatedMaxRowsPerGroup();
    assertTrue(linf >= 1 && Integer.bitCount(linf) == 1, "a power of two: " + linf);
    assertEquals(expected(o, o, Long.MAX_VALUE, linf),
        ((Estimate) st.present(r).rows().get(0).get(0)).value(), 1e-3);
    // R2T with GS = 2048 ≥ 40²: at ε = 10^12 it releases Q(I, 2048) = Σ n² (every n² ≤ 1600)
    assertEquals(expected(o, o, Long.MAX_VALUE, Long.MAX_VALUE), count("SELECT WITH"
        + " DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, truncation = 'R2T', truncation_bound ="
        + " 2048) COUNT(*) AS n FROM orders o1 JOIN orders o2 USING (custkey)", d), 1.0);
  }

  @Test
  void explain_showsTheCapsAndTheJoinOnTheUnit_alikeOnNeighbours() {
    String explain = explainAlikeOnNeighbours(HEAD + "max_rows_per_group = 5) COUNT(*) AS n FROM"
        + " lineitem l JOIN orders o1 ON l.orderkey = o1.orderkey JOIN orders o2 ON o2.custkey ="
        + " o1.custkey");
    assertTrue(explain.contains("Cap per unit"), explain);
    assertTrue(explain.contains("at most 5 row(s)"), explain);
    assertTrue(explain.contains("(on the privacy unit)"), explain);
  }

  /** Each refused self-join, the text whose position must be named, and a fragment of the reason. */
  static final List<String[]> REFUSALS = List.of(
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " JOIN orders b ON a.totalprice = b.totalprice", "orders b",
          "on the privacy unit (b.custkey = a.custkey)"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " JOIN orders b ON a.orderkey = b.orderkey", "orders b", "two privacy units"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " LEFT JOIN orders b USING (custkey)", "orders b", "INNER joins only"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " JOIN lineitem l ON l.orderkey = a.orderkey JOIN orders b ON b.orderkey = l.orderkey",
          "orders b ON b.orderkey", "appears twice in one chain"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, truncation = 'R2T')"
          + " SUM(a.totalprice, contribution_bounds_per_row => (0, 1)) FROM orders a JOIN orders b"
          + " USING (custkey)", "SUM(", "COUNT(*) only"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM lineitem a"
          + " JOIN lineitem b ON a.orderkey = b.orderkey", "lineitem b", "two privacy units"});

  @Test
  void refusals_nameTheirPosition_alikeOnNeighbours() {
    for (String[] c : REFUSALS) {
      DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(c[0], d.catalog));
      assertEquals(c[0].indexOf(c[1]) + 1, e.column(), c[0] + " -> " + e.getMessage());
      assertTrue(e.reason().contains(c[2]), e.getMessage());
      assertEquals(e.getMessage(), assertThrows(DpSqlException.class,
          () -> DpSql.parse(c[0], dPrime.catalog)).getMessage());
    }
  }
}
