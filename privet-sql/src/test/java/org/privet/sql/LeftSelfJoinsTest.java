package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.Estimate;
import org.privet.engine.Result;

/**
 * LEFT joins inside private self-join queries (issue 25; {@code docs/proofs/r2t-truncation.md},
 * "Self-joins", "LEFT joins"), on DuckDB: two copies of orders LEFT-joined on the unit, a LEFT
 * join along a reference inside a copy, a copy of the unit table LEFT-joined to a copy, a public
 * table LEFT-joined after the copies. Each expected value is an independent plain-SQL reference
 * computed here on the same DuckDB tables of D: the same LEFT join written as SQL, its rows per
 * customer counted and truncated by hand ({@code SUM(LEAST(n, L∞))}); the fixture's caps do not
 * bind (the heavy customer's 40 orders stay under every cap m ≥ L∞ used here, and a side capped at
 * m ≥ L∞ leaves min(n, L∞) unchanged anyway), and where a SUM or COUNT(column) reads the padded
 * side, L∞ is above every customer's joined rows, so nothing is truncated and the reference is the
 * plain aggregate (NULLs of the padded side ignored, as SQL does).
 *
 * <p>False-failure probability: ε = 10^12 (noise scales below 10^-6 on integer counts, compared
 * with tolerance 10^-3); deterministic with the fixed seeds.
 */
class LeftSelfJoinsTest extends JoinNeighbours {
  private static final String HEAD = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, ";

  private static double released(String sql, String column) {
    DpStatement st = DpSql.parse(sql, d.catalog);
    Result r = session().run(st.query());
    return r.rows().get(0).values().get(column).value();
  }

  @Test
  void ordersLeftJoinedWithTheirOwnFilteredCopy_onTheUnit_countsEqualThePlainLeftJoin() {
    // customers with at most two orders have none above 2: their rows are padded
    String plainFrom = "FROM d_orders o1 LEFT JOIN (SELECT * FROM d_orders WHERE totalprice > 2)"
        + " o2 ON o2.custkey = o1.custkey";
    double padded = plain("SELECT COUNT(*) " + plainFrom + " WHERE o2.orderkey IS NULL");
    assertTrue(padded > 0, "the fixture has padded rows: " + padded);
    for (String from : List.of(
        "FROM orders o1 LEFT JOIN (SELECT * FROM orders WHERE totalprice > 2) o2 ON o2.custkey ="
            + " o1.custkey",
        "FROM orders o1 LEFT JOIN (SELECT * FROM orders WHERE totalprice > 2) o2 USING (custkey)")) {
      for (long linf : new long[] {2000, 5}) {
        assertEquals(truncatedCount(plainFrom, "o1.custkey", linf), released(HEAD
            + "max_rows_per_group = " + linf + ") COUNT(*) AS n " + from, "n"), 1e-3, from + " "
            + linf);
      }
    }
  }

  /**
   * A filter on the LEFT-joined table written in its ON filters that table before the join: the
   * same rows as the plain LEFT join with the filter in its ON, and as a derived table; in a
   * self-join (on the unit) and in a join along a reference without a self-join.
   */
  @Test
  void filterInTheLeftJoinsOn_filtersTheRightTableBeforeTheJoin_asThePlainLeftJoin() {
    String plainFrom = "FROM d_orders o1 LEFT JOIN d_orders o2 ON o2.custkey = o1.custkey AND"
        + " o2.totalprice > 2 AND o2.totalprice BETWEEN 1 AND 30";
    assertEquals(truncatedCount(plainFrom, "o1.custkey", 2000), released(HEAD
        + "max_rows_per_group = 2000) COUNT(*) AS n FROM orders o1 LEFT JOIN orders o2 ON"
        + " o1.custkey = o2.custkey AND o2.totalprice > 2 AND o2.totalprice BETWEEN 1 AND 30", "n"),
        1e-3);
    assertEquals(truncatedCount(plainFrom, "o1.custkey", 5), released(HEAD
        + "max_rows_per_group = 5) COUNT(*) AS n FROM orders o1 LEFT JOIN orders o2 ON"
        + " (o2.totalprice > 2 OR o2.totalprice < -1) AND o1.custkey = o2.custkey WHERE"
        + " o1.totalprice > 0", "n"), 1e-3);
    // the same filter split between a derived table and the ON
    assertEquals(truncatedCount(plainFrom, "o1.custkey", 2000), released(HEAD
        + "max_rows_per_group = 2000) COUNT(*) AS n FROM orders o1 LEFT JOIN (SELECT * FROM orders"
        + " WHERE totalprice > 2) o2 ON o1.custkey = o2.custkey AND o2.totalprice BETWEEN 1 AND 30",
        "n"), 1e-3);
    String chain = "FROM d_customer c LEFT JOIN d_orders o ON o.custkey = c.custkey AND"
        + " o.totalprice > 3";
    assertTrue(plain("SELECT COUNT(*) " + chain + " WHERE o.orderkey IS NULL") > 0);
    assertEquals(truncatedCount(chain, "c.custkey", 50), released(HEAD
        + "max_rows_per_group = 50) COUNT(*) AS n FROM customer c LEFT JOIN orders o ON o.custkey ="
        + " c.custkey AND o.totalprice > 3", "n"), 1e-3);
  }

  @Test
  void paddedColumns_countColumnAndSumIgnoreTheirNulls_asThePlainLeftJoin() {
    String plainFrom = "FROM d_orders o1 LEFT JOIN (SELECT * FROM d_orders WHERE totalprice > 2)"
        + " o2 ON o2.custkey = o1.custkey";
    DpStatement st = DpSql.parse(HEAD + "max_rows_per_group = 2000) COUNT(*) AS n,"
        + " COUNT(o2.orderkey) AS matched, SUM(o2.totalprice, contribution_bounds_per_row => (0,"
        + " 30)) AS s FROM orders o1 LEFT JOIN (SELECT * FROM orders WHERE totalprice > 2) o2 ON"
        + " o2.custkey = o1.custkey", d.catalog);
    Result r = session().run(st.query());
    var row = r.rows().get(0).values();
    assertEquals(plain("SELECT COUNT(*) " + plainFrom), row.get("n").value(), 1e-3);
    double matched = plain("SELECT COUNT(o2.orderkey) " + plainFrom);
    assertTrue(matched < plain("SELECT COUNT(*) " + plainFrom));
    assertEquals(matched, row.get("matched").value(), 1e-3);
    assertEquals(plain("SELECT SUM(LEAST(GREATEST(o2.totalprice, 0), 30)) " + plainFrom),
        row.get("s").value(), 1e-2);
  }

  @Test
  void leftJoinAlongAReferenceInsideACopy_joinedWithACopy_equalsThePlainJoin() {
    // line items of quantity 1 only (orders o with o % 3 = 0) leave their order padded
    String plainFrom = "FROM d_orders o1 LEFT JOIN (SELECT * FROM d_lineitem WHERE quantity > 1) l"
        + " ON l.orderkey = o1.orderkey JOIN d_orders o2 ON o2.custkey = o1.custkey";
    assertTrue(plain("SELECT COUNT(*) " + plainFrom + " WHERE l.orderkey IS NULL") > 0);
    assertEquals(truncatedCount(plainFrom, "o1.custkey", 4096), released(HEAD
        + "max_rows_per_group = 4096) COUNT(*) AS n FROM orders o1 LEFT JOIN (SELECT * FROM"
        + " lineitem WHERE quantity > 1) l ON l.orderkey = o1.orderkey JOIN orders o2 ON"
        + " o2.custkey = o1.custkey", "n"), 1e-3);
    // a LEFT-joined copy's own chain, LEFT-joined too
    String chain = "FROM d_orders o1 LEFT JOIN (SELECT * FROM d_orders WHERE totalprice > 2) o2 ON"
        + " o2.custkey = o1.custkey LEFT JOIN (SELECT * FROM d_lineitem WHERE quantity > 1) l ON"
        + " l.orderkey = o2.orderkey";
    assertEquals(truncatedCount(chain, "o1.custkey", 4096), released(HEAD
        + "max_rows_per_group = 4096) COUNT(*) AS n FROM orders o1 LEFT JOIN (SELECT * FROM orders"
        + " WHERE totalprice > 2) o2 ON o2.custkey = o1.custkey LEFT JOIN (SELECT * FROM lineitem"
        + " WHERE quantity > 1) l ON l.orderkey = o2.orderkey", "n"), 1e-3);
  }

  @Test
  void unitTableLeftJoinedWithOrders_andACopy_threeCopies_equalsThePlainJoin() {
    // customers with at most three orders have none above 3; three copies: at most 256 per unit
    String plainFrom = "FROM d_customer c LEFT JOIN (SELECT * FROM d_orders WHERE totalprice > 3) o"
        + " ON o.custkey = c.custkey JOIN d_orders o2 ON o2.custkey = c.custkey";
    assertTrue(plain("SELECT COUNT(*) " + plainFrom + " WHERE o.orderkey IS NULL") > 0);
    assertEquals(truncatedCount(plainFrom, "c.custkey", 256), released(HEAD
        + "max_rows_per_group = 256) COUNT(*) AS n FROM customer c LEFT JOIN (SELECT * FROM orders"
        + " WHERE totalprice > 3) o ON o.custkey = c.custkey JOIN orders o2 ON o2.custkey ="
        + " c.custkey", "n"), 1e-3);
    // orders LEFT JOIN customer: the copy of the unit table is the padded side, the unit is o's
    String upward = "FROM d_orders o LEFT JOIN (SELECT * FROM d_customer WHERE acctbal > 50) c ON"
        + " c.custkey = o.custkey JOIN d_orders o2 ON o2.custkey = o.custkey";
    assertEquals(truncatedCount(upward, "o.custkey", 256), released(HEAD
        + "max_rows_per_group = 256) COUNT(*) AS n FROM orders o LEFT JOIN (SELECT * FROM customer"
        + " WHERE acctbal > 50) c ON c.custkey = o.custkey JOIN orders o2 ON o2.custkey ="
        + " o.custkey", "n"), 1e-3);
  }

  @Test
  void publicTableLeftJoinedAfterTheCopies_countAndCountColumn_equalThePlainJoin() {
    String plainFrom = "FROM d_customer c JOIN d_orders o1 ON o1.custkey = c.custkey JOIN d_orders"
        + " o2 ON o2.custkey = c.custkey LEFT JOIN (SELECT * FROM d_nation WHERE name = 'B') n ON"
        + " n.nationkey = c.nationkey";
    String from = "FROM customer c JOIN orders o1 ON o1.custkey = c.custkey JOIN orders o2 ON"
        + " o2.custkey = c.custkey LEFT JOIN (SELECT * FROM nation WHERE name = 'B') n ON"
        + " n.nationkey = c.nationkey";
    assertEquals(truncatedCount(plainFrom, "c.custkey", 256), released(HEAD
        + "max_rows_per_group = 256) COUNT(*) AS n " + from, "n"), 1e-3);
    // the public table written between the copies (joined after them: the same rows)
    assertEquals(truncatedCount(plainFrom, "c.custkey", 256), released(HEAD
        + "max_rows_per_group = 256) COUNT(*) AS n FROM customer c LEFT JOIN (SELECT * FROM nation"
        + " WHERE name = 'B') n ON n.nationkey = c.nationkey JOIN orders o1 ON o1.custkey ="
        + " c.custkey JOIN orders o2 ON o2.custkey = c.custkey", "n"), 1e-3);
    // COUNT of the padded public column: a customer's rows all have its nation's name or all
    // NULL, so the truncated count is Σ over customers of nation B of min(n_u, 256)
    assertEquals(truncatedCount(plainFrom + " WHERE n.name IS NOT NULL", "c.custkey", 256),
        released(HEAD + "max_rows_per_group = 256) COUNT(n.name) AS named " + from, "named"), 1e-3);
    assertTrue(truncatedCount(plainFrom + " WHERE n.name IS NOT NULL", "c.custkey", 256)
        < truncatedCount(plainFrom, "c.custkey", 256));
  }

  @Test
  void explain_showsTheLeftJoinOnTheUnitAndTheCaps_alikeOnNeighbours() {
    String explain = explainAlikeOnNeighbours(HEAD + "max_rows_per_group = 5) COUNT(*) AS n FROM"
        + " orders o1 LEFT JOIN orders o2 USING (custkey)");
    assertTrue(explain.contains("LEFT JOIN"), explain);
    assertTrue(explain.contains("(on the privacy unit)"), explain);
    assertTrue(explain.contains("at most 5 row(s)"), explain);
  }

  /** Each refused LEFT join in a self-join, the text whose position is named, and a reason. */
  static final List<String[]> REFUSALS = List.of(
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " RIGHT JOIN orders b USING (custkey)", "orders b", "only INNER and LEFT joins"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " FULL JOIN orders b USING (custkey)", "orders b", "only INNER and LEFT joins"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " LEFT JOIN orders b ON a.orderkey = b.orderkey", "orders b", "two privacy units"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM nation"
          + " LEFT JOIN customer c ON c.nationkey = nation.nationkey JOIN orders o1 ON o1.custkey ="
          + " c.custkey JOIN orders o2 ON o2.custkey = c.custkey", "customer c",
          "public tables only"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM lineitem"
          + " l LEFT JOIN orders o1 ON o1.orderkey = l.orderkey JOIN orders o2 ON o2.custkey ="
          + " o1.custkey", "orders o1", "toward the privacy unit"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " LEFT JOIN orders b USING (custkey) JOIN lineitem l ON l.orderkey = b.orderkey",
          "lineitem l", "write LEFT JOIN here too"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM customer c"
          + " JOIN nation n ON n.nationkey = c.nationkey LEFT JOIN orders a ON a.custkey = c.custkey"
          + " AND a.orderkey = n.nationkey JOIN orders b ON b.custkey = c.custkey",
          "a.orderkey = n.nationkey", "is public"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM customer c"
          + " LEFT JOIN nation n ON n.nationkey = c.nationkey JOIN orders a ON a.custkey ="
          + " c.custkey AND a.orderkey = n.nationkey JOIN orders b ON b.custkey = c.custkey",
          "a.orderkey = n.nationkey", "LEFT-joined public"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " LEFT JOIN orders b USING (custkey) JOIN lineitem l ON l.orderkey = a.orderkey AND"
          + " l.quantity = b.totalprice", "l.quantity = b.totalprice", "not in the chain"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " LEFT JOIN orders b USING (custkey) WHERE a.orderkey = b.orderkey",
          "a.orderkey = b.orderkey", "LEFT-joined table 'b'"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " LEFT JOIN orders b ON a.custkey = b.custkey AND a.totalprice > 2", "a.totalprice > 2",
          "may name only the LEFT-joined table 'b', not 'a'"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " LEFT JOIN orders b ON a.custkey = b.custkey AND b.totalprice > a.totalprice",
          "a.totalprice", "may name only the LEFT-joined table 'b', not 'a'"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " JOIN orders b ON a.custkey = b.custkey AND b.totalprice > 2", "b.totalprice > 2",
          "filter rows in WHERE"});

  @Test
  void refusals_nameTheirPosition_alikeOnNeighbours() {
    for (String[] c : REFUSALS) {
      DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(c[0], d.catalog),
          c[0]);
      assertEquals(c[0].indexOf(c[1]) + 1, e.column(), c[0] + " -> " + e.getMessage());
      assertTrue(e.reason().contains(c[2]), e.getMessage());
      assertEquals(e.getMessage(), assertThrows(DpSqlException.class,
          () -> DpSql.parse(c[0], dPrime.catalog)).getMessage());
    }
  }

  @Test
  void releasedOnBothNeighbours_theHeavyCustomerTruncated() {
    // D' lacks the heavy customer (40 orders): with L∞ = 5 the releases differ by at most 5
    String sql = HEAD + "max_rows_per_group = 5) COUNT(*) AS n FROM orders o1 LEFT JOIN (SELECT *"
        + " FROM orders WHERE totalprice > 2) o2 USING (custkey)";
    Estimate a = value(sql, d);
    Estimate b = value(sql, dPrime);
    assertEquals(5, a.value() - b.value(), 1e-3);
  }
}
