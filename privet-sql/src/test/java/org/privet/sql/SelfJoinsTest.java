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
    // L∞ = 4096 (two copies: the largest cap), above the heavy customer's 80·40 joined rows
    String sql = HEAD + "max_rows_per_group = 4096) COUNT(*) AS n FROM lineitem l JOIN orders o1"
        + " ON l.orderkey = o1.orderkey JOIN orders o2 ON o2.custkey = o1.custkey";
    assertEquals(expected(l, o, Long.MAX_VALUE, Long.MAX_VALUE), count(sql, d), 1e-3);
    // with the unit table as a third copy (customer's rows: one per unit); three copies keep at
    // most 256 rows per unit each, so L∞ ≤ 256 truncates the heavy customer's 40² joined rows
    String three = HEAD + "max_rows_per_group = 256) COUNT(*) AS n FROM customer c JOIN orders o1"
        + " ON o1.custkey = c.custkey JOIN orders o2 ON o2.custkey = c.custkey";
    assertEquals(expected(o, o, Long.MAX_VALUE, 256), count(three, d), 1e-3);
  }

  /**
   * The L∞ estimate over a self-join reads at most the largest bound whose cap stays within the
   * maximum (docs/proofs/contribution-bound-estimate.md, "A limited read"): three copies of orders
   * keep at most 256 rows per unit each, so L∞ ≤ 256, although the heavy customer has 40³ = 64,000
   * joined rows (at ε = 10^12 an unlimited read would give 2^16 = 65,536: the power). The release
   * is Σ_u min(n_u³, L∞), computed here; EXPLAIN shows the cap and the limit.
   */
  @Test
  void estimatedLinf_overThreeCopies_neverAboveTheLargestCap() {
    Map<Long, Integer> o = ordersPerCustomer(d);
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12) COUNT(*) AS n FROM"
        + " orders o1 JOIN orders o2 ON o2.custkey = o1.custkey JOIN orders o3 ON o3.custkey ="
        + " o1.custkey";
    DpStatement st = DpSql.parse(sql, d.catalog);
    Result r = session().run(st.query());
    assertEquals(256, r.estimatedMaxRowsPerGroup(), "the heavy unit's 64,000 rows read as 256");
    double want = 0;
    for (int n : o.values()) {
      want += Math.min((long) n * n * n, 256);
    }
    assertEquals(want, ((Estimate) st.present(r).rows().get(0).get(0)).value(), 1e-3);
    String explain = explainAlikeOnNeighbours(sql);
    assertTrue(explain.contains("at most 256 row(s)"), explain);
    assertTrue(explain.contains("read at most 256"), explain);
    // two copies: at most 4096 per copy, the read limited to 4096
    String two = explainAlikeOnNeighbours("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)"
        + " COUNT(*) AS n FROM orders o1 JOIN orders o2 USING (custkey)");
    assertTrue(two.contains("at most 4096 row(s)") && two.contains("read at most 4096"), two);
  }

  /**
   * Public groups from the public nation table, written first: every customer's n² joined rows,
   * truncated at L∞ = 256, counted in its nation (nation 2 has no customer: 0). The unit table
   * joined on the unit is a copy too: three copies, at most 256 rows per unit each.
   */
  @Test
  void publicTableWrittenFirst_groupsPerNation_equalTheReference() {
    Map<Long, Integer> o = ordersPerCustomer(d);
    Map<String, Double> expected = new TreeMap<>(Map.of("A", 0.0, "B", 0.0, "C", 0.0));
    o.forEach((c, k) -> expected.merge(d.nationOf(c) == 0 ? "A" : "B",
        (double) Math.min(k * k, 256), Double::sum));
    DpStatement st = DpSql.parse(HEAD + "delta = 1e-6, max_rows_per_group = 256) name, COUNT(*) AS n"
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
          + " LEFT JOIN orders b ON a.totalprice = b.totalprice", "orders b", "two privacy units"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " JOIN lineitem l ON l.orderkey = a.orderkey JOIN orders b ON b.orderkey = l.orderkey",
          "orders b ON b.orderkey", "appears twice in one chain"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, truncation = 'R2T')"
          + " SUM(a.totalprice, contribution_bounds_per_row => (0, 1)) FROM orders a JOIN orders b"
          + " USING (custkey)", "SUM(", "COUNT(*) only"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM lineitem a"
          + " JOIN lineitem b ON a.orderkey = b.orderkey", "lineitem b", "two privacy units"});

  /**
   * Bounds whose cap per copy would exceed the largest (m^k ≤ 2^24: 4096 for two copies, 256 for
   * three) are refused before the charge, at the option or call that gives them, naming it and the
   * largest allowed value; the statement, the SQL text to point at, and fragments of the reason.
   */
  static final List<String[]> CAP_REFUSALS = List.of(
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_rows_contributed ="
          + " 5000) COUNT(*) FROM orders a JOIN orders b USING (custkey)", "5000",
          "max_rows_contributed ≤ 4096"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_rows_per_group ="
          + " 4097) COUNT(*) FROM orders a JOIN orders b USING (custkey)", "4097",
          "max_rows_per_group gives a cap of L0·L∞ = 1·4097"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6,"
          + " max_groups_contributed = 3, max_rows_per_group = 2000) name, COUNT(*) FROM nation"
          + " JOIN customer c ON c.nationkey = nation.nationkey JOIN orders a ON a.custkey ="
          + " c.custkey JOIN orders b ON b.custkey = a.custkey GROUP BY name", "2000)",
          "3·2000 = 6000"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*,"
          + " contribution_bounds_per_group => (0, 5000)) FROM orders a JOIN orders b USING"
          + " (custkey)", "COUNT(", "COUNT bounds' (0, 5000)"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_rows_per_group ="
          + " 300) COUNT(*) FROM orders a JOIN orders b USING (custkey) JOIN orders c ON c.custkey"
          + " = a.custkey", "300", "at most 256 rows per unit"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, truncation = 'R2T',"
          + " truncation_bound = 5000) COUNT(*) FROM orders a JOIN orders b USING (custkey)",
          "5000", "truncation_bound ≤ 4096"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6,"
          + " max_groups_contributed = 5000) name, COUNT(*) FROM nation JOIN customer c ON"
          + " c.nationkey = nation.nationkey JOIN orders a ON a.custkey = c.custkey JOIN orders b"
          + " ON b.custkey = a.custkey GROUP BY name", "5000", "max_groups_contributed ≤ 256"});

  @Test
  void capRefusals_nameTheOption_alikeOnNeighbours_andTheLargestCapIsAllowed() {
    for (String[] c : CAP_REFUSALS) {
      DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(c[0], d.catalog));
      assertEquals(c[0].indexOf(c[1]) + 1, e.column(), c[0] + " -> " + e.getMessage());
      assertTrue(e.reason().contains(c[2]), e.getMessage());
      assertTrue(e.reason().contains("self-join"), e.getMessage());
      assertEquals(e.getMessage(), assertThrows(DpSqlException.class,
          () -> DpSql.parse(c[0], dPrime.catalog)).getMessage());
    }
    // at the largest cap: allowed, and EXPLAIN shows it
    for (String ok : List.of("max_rows_contributed = 4096", "max_rows_per_group = 4096",
        "truncation = 'R2T', truncation_bound = 4096")) {
      String explain = explainAlikeOnNeighbours("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon"
          + " = 1, " + ok + ") COUNT(*) AS n FROM orders a JOIN orders b USING (custkey)");
      assertTrue(explain.contains("at most 4096 row(s)"), ok + ": " + explain);
    }
    // R2T's default GS over a self-join is the largest allowed (4096), not 2^16
    String r2t = explainAlikeOnNeighbours("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " truncation = 'R2T') COUNT(*) AS n FROM orders a JOIN orders b USING (custkey)");
    assertTrue(r2t.contains("at most 4096 row(s)"), r2t);
  }

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
