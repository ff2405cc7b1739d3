package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.Result;

/**
 * A LEFT join toward the privacy unit without a self-join (issue 25; {@code
 * docs/proofs/engine-joins.md}, "LEFT joins toward the unit"): {@code orders LEFT JOIN customer}
 * keeps every order, an order whose customer key matches no customer (an orphan) padded with
 * NULL customer columns and its unit read from its own reference ({@code o_custkey}), exactly as
 * {@code SELECT COUNT(*) FROM orders} attributes it. On DuckDB, over {@link JoinFixture} with
 * orphan orders (units 21, 22 and 23 have orders and no customer row; one order has a NULL
 * customer key, which has no unit), D and D′ without the orphan unit 23 (30 orders).
 *
 * <p>Each expected value is an independent plain-SQL reference on the same DuckDB tables: the same
 * LEFT join written as SQL, its rows per unit (the preserved side's reference chain, computed in
 * SQL) counted and truncated by hand ({@code SUM(LEAST(n, L∞))}); the power: the INNER join's
 * reference (what the engine released before, dropping the padded rows) is asserted to differ.
 *
 * <p>False-failure probability: ε = 10^12 (noise scales below 10^-6 on integer counts, compared
 * with tolerance 10^-3); deterministic with the fixed seed.
 */
class LeftJoinsTowardTheUnitTest extends JoinNeighbours {
  private static final String HEAD = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, ";
  /** D with orphan orders (tables "o_…") and D′ without the orphan unit 23 ("p_…"). */
  static JoinFixture o;
  static JoinFixture oPrime;

  @BeforeAll
  static void orphans() {
    o = new JoinFixture(db, 0, "o_", true);
    oPrime = new JoinFixture(db, JoinFixture.ORPHAN_HEAVY, "p_", true);
  }

  private static double released(String sql, String column, JoinFixture f) {
    DpStatement st = DpSql.parse(sql, f.catalog);
    Result r = session().run(st.query());
    return r.rows().get(0).values().get(column).value();
  }

  private static double released(String sql, String column) {
    return released(sql, column, o);
  }

  @Test
  void ordersLeftJoinCustomer_orphanOrdersKeepTheirUnit_asThePlainLeftJoinTruncated() {
    String plainFrom = "FROM o_orders o LEFT JOIN o_customer c ON c.custkey = o.custkey";
    assertTrue(plain("SELECT COUNT(*) " + plainFrom + " WHERE c.custkey IS NULL") >= 34,
        "the fixture has orphan orders");
    for (long linf : new long[] {2000, 5}) {
      double expected = truncatedCount(plainFrom, "o.custkey", linf);
      double inner = truncatedCount("FROM o_orders o JOIN o_customer c ON c.custkey = o.custkey",
          "c.custkey", linf);
      assertTrue(expected - inner >= Math.min(linf, 30) + 3, "power: " + expected + " vs " + inner);
      for (String from : List.of(
          "FROM orders o LEFT JOIN customer c ON c.custkey = o.custkey",
          "FROM orders o LEFT JOIN customer c ON o.custkey = c.custkey",
          "FROM orders LEFT JOIN customer USING (custkey)")) {
        assertEquals(expected, released(HEAD + "max_rows_per_group = " + linf + ") COUNT(*) AS n "
            + from, "n"), 1e-3, from + " at " + linf);
      }
      // the orders alone: the same rows per unit (the NULL-keyed order has no unit in both)
      assertEquals(truncatedCount("FROM o_orders o", "o.custkey", linf), expected, 1e-9);
    }
  }

  @Test
  void filterInTheOnAndPaddedColumns_countColumnAndSumIgnoreTheirNulls_asThePlainLeftJoin() {
    // customers with acctbal ≤ 50 (1..5) leave their orders padded too
    String plainFrom = "FROM o_orders o LEFT JOIN o_customer c ON c.custkey = o.custkey AND"
        + " c.acctbal > 50";
    DpStatement st = DpSql.parse(HEAD + "max_rows_per_group = 2000) COUNT(*) AS n,"
        + " COUNT(c.nationkey) AS matched, SUM(c.acctbal, contribution_bounds_per_row => (0, 300))"
        + " AS s, SUM(o.totalprice, contribution_bounds_per_row => (0, 50)) AS t FROM orders o LEFT"
        + " JOIN customer c ON c.custkey = o.custkey AND c.acctbal > 50", o.catalog);
    var row = session().run(st.query()).rows().get(0).values();
    String counted = plainFrom + " WHERE o.custkey IS NOT NULL";
    assertEquals(plain("SELECT COUNT(*) " + counted), row.get("n").value(), 1e-3);
    double matched = plain("SELECT COUNT(c.nationkey) " + counted);
    assertTrue(matched < plain("SELECT COUNT(*) " + counted));
    assertEquals(matched, row.get("matched").value(), 1e-3);
    assertEquals(plain("SELECT SUM(LEAST(GREATEST(c.acctbal, 0), 300)) " + counted),
        row.get("s").value(), 1e-2);
    assertEquals(plain("SELECT SUM(LEAST(GREATEST(o.totalprice, 0), 50)) " + counted),
        row.get("t").value(), 1e-2);
  }

  /**
   * The deeper chain: a line item's unit is its order's customer key, read through orders (as
   * {@code SELECT COUNT(*) FROM lineitem} reads it), whether or not the customer row exists; a
   * line item whose order is missing (or NULL-keyed, or whose order has a NULL customer key) has
   * no unit and is not counted, as for the line items alone; one whose order is filtered out by
   * the ON keeps the unit of its order in the table.
   */
  @Test
  void lineitemLeftJoinOrdersLeftJoinCustomer_unitThroughTheOrder_asTheLineItemsAlone() {
    String plainFrom = "FROM o_lineitem l LEFT JOIN o_orders o ON o.orderkey = l.orderkey LEFT"
        + " JOIN o_customer c ON c.custkey = o.custkey";
    assertTrue(plain("SELECT COUNT(*) " + plainFrom + " WHERE c.custkey IS NULL AND o.custkey IS"
        + " NOT NULL") > 0, "line items of orphan orders");
    for (long linf : new long[] {4096, 7}) {
      double expected = truncatedCount(plainFrom, "o.custkey", linf);
      assertEquals(expected, released(HEAD + "max_rows_per_group = " + linf + ") COUNT(*) AS n FROM"
          + " lineitem l LEFT JOIN orders o ON o.orderkey = l.orderkey LEFT JOIN customer c ON"
          + " c.custkey = o.custkey", "n"), 1e-3, "at " + linf);
      assertEquals(expected, released(HEAD + "max_rows_per_group = " + linf + ") COUNT(*) AS n FROM"
          + " lineitem l JOIN orders o ON o.orderkey = l.orderkey LEFT JOIN customer c ON"
          + " c.custkey = o.custkey", "n"), 1e-3, "inner then left at " + linf);
      assertTrue(expected > truncatedCount(plainFrom.replace("LEFT JOIN o_customer",
          "JOIN o_customer"), "c.custkey", linf), "power at " + linf);
    }
    // orders filtered in the ON: a line item of an order of total ≤ 2 is padded, its unit is
    // still its order's customer (read from all the orders, as for the line items alone)
    String filtered = "FROM o_lineitem l LEFT JOIN (SELECT * FROM o_orders WHERE totalprice > 2) o"
        + " ON o.orderkey = l.orderkey JOIN o_orders chain ON chain.orderkey = l.orderkey";
    assertTrue(plain("SELECT COUNT(*) " + filtered + " WHERE o.orderkey IS NULL") > 0);
    assertEquals(truncatedCount(filtered, "chain.custkey", 7), released(HEAD
        + "max_rows_per_group = 7) COUNT(*) AS n FROM lineitem l LEFT JOIN orders o ON o.orderkey ="
        + " l.orderkey AND o.totalprice > 2", "n"), 1e-3);
  }

  @Test
  void neighbourWithoutAnOrphanUnit_differsByItsTruncatedRows_explainAlike() {
    // D' lacks unit 23 (30 orphan orders, no customer row): at L∞ = 5 the releases differ by 5
    String sql = HEAD + "max_rows_per_group = 5) COUNT(*) AS n FROM orders o LEFT JOIN customer c"
        + " ON c.custkey = o.custkey";
    assertEquals(5, released(sql, "n", o) - released(sql, "n", oPrime), 1e-3);
    String a = session().explain(DpSql.parse(sql, o.catalog).query()).render();
    String b = session().explain(DpSql.parse(sql, oPrime.catalog).query()).render();
    assertEquals(a.replaceAll("\"o_", "\"X_"), b.replaceAll("\"p_", "\"X_"));
    assertTrue(a.contains("read from 'o', the preserved side of the LEFT join toward the unit"), a);
  }

  /** Refused before any charge, naming the position; alike on the neighbours. */
  static final List<String[]> REFUSALS = List.of(
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM nation"
          + " LEFT JOIN customer c ON c.nationkey = nation.nationkey", "customer c",
          "public tables only"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM nation"
          + " LEFT JOIN customer c ON c.nationkey = nation.nationkey LEFT JOIN orders o ON"
          + " o.custkey = c.custkey", "customer c", "public tables only"});

  /**
   * COUNT(DISTINCT o.custkey) counts the units (orphan units too: the plain distinct count of the
   * preserved side's key); the unit's registered name names the customer's column there, NULL on
   * a padded row, so COUNT(DISTINCT custkey) of the customer is refused, naming what to write.
   */
  @Test
  void countDistinct_onThePreservedSidesKey_countsTheUnits_theCustomersColumnRefused() {
    assertEquals(plain("SELECT COUNT(DISTINCT custkey) FROM o_orders"), released(HEAD
        + "max_groups_contributed = 1) COUNT(DISTINCT o.custkey) AS u FROM orders o LEFT JOIN"
        + " customer c ON c.custkey = o.custkey", "u"), 1e-3);
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(DISTINCT c.custkey)"
        + " AS u FROM orders o LEFT JOIN customer c ON c.custkey = o.custkey";
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, o.catalog));
    assertEquals(sql.indexOf("COUNT(DISTINCT") + 1, e.column(), e.getMessage());
    assertTrue(e.reason().contains("write COUNT(DISTINCT o.custkey)"), e.getMessage());
  }

  @Test
  void everyPrivateTableLeftJoinedToAPublicOne_refusedWithItsPosition_alikeOnNeighbours() {
    for (String[] c : REFUSALS) {
      DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(c[0], o.catalog),
          c[0]);
      assertEquals(c[0].indexOf(c[1]) + 1, e.column(), c[0] + " -> " + e.getMessage());
      assertTrue(e.reason().contains(c[2]), e.getMessage());
      assertEquals(e.getMessage(), assertThrows(DpSqlException.class,
          () -> DpSql.parse(c[0], oPrime.catalog)).getMessage());
    }
    // a private table joined INNER carries the unit: released
    String sql = HEAD + "max_rows_per_group = 2000) COUNT(*) AS n FROM nation LEFT JOIN customer c"
        + " ON c.nationkey = nation.nationkey JOIN orders o ON o.custkey = c.custkey";
    assertEquals(plain("SELECT COUNT(*) FROM o_orders o JOIN o_customer c ON c.custkey ="
        + " o.custkey"), released(sql, "n"), 1e-3);
  }
}
