package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Result;
import org.privet.engine.Session;

/**
 * DP SQL over joins on DuckDB (issue 25): the unit of every joined row derived from the
 * references, bounds applied per unit over the joined rows, public groups from a public table, the
 * ON / USING / WHERE forms, and refusals naming positions. The references are computed here from
 * the fixture's Java lists ({@link JoinFixture}), never by the engine.
 *
 * <p>False-failure probability: ε = 10^12 (noise scales below 10^-6; compared with tolerance 1e-3
 * on integer counts); deterministic with the fixed seeds.
 */
class JoinsTest extends JoinNeighbours {
  private static Result run(DpStatement st) {
    return session(3).run(st.query());
  }

  private static Map<String, Double> byGroup(DpStatement st) {
    SqlResult r = st.present(run(st));
    Map<String, Double> m = new TreeMap<>();
    for (List<Object> row : r.rows()) {
      m.put(String.valueOf(row.get(0)), ((Estimate) row.get(1)).value());
    }
    return m;
  }

  private static final String HEAD = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
      + " delta = 1e-6, max_rows_per_group = 1000) ";

  /** Line items per nation name (customers' nations), every nation listed. */
  private static Map<String, Double> lineitemsPerNation(JoinFixture f) {
    Map<String, Double> m = new TreeMap<>(Map.of("A", 0.0, "B", 0.0, "C", 0.0));
    f.lineitemsPerCustomer().forEach((c, n) -> m.merge(f.nationOf(c) == 0 ? "A" : "B", (double) n,
        Double::sum));
    return m;
  }

  @Test
  void countPerNation_onUsingAndWhereForms_equalTheReference_withPublicGroups() {
    String on = HEAD + "name, COUNT(*) AS n FROM lineitem JOIN orders ON lineitem.orderkey ="
        + " orders.orderkey JOIN customer c ON orders.custkey = c.custkey JOIN nation ON"
        + " c.nationkey = nation.nationkey GROUP BY name";
    String using = HEAD + "name, COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) JOIN"
        + " customer USING (custkey) JOIN nation USING (nationkey) GROUP BY name";
    String where = HEAD + "name, COUNT(*) AS n FROM lineitem l, orders o, customer c, nation"
        + " WHERE l.orderkey = o.orderkey AND o.custkey = c.custkey AND c.nationkey ="
        + " nation.nationkey GROUP BY name";
    Map<String, Double> expected = lineitemsPerNation(d);
    for (String sql : List.of(on, using, where)) {
      Map<String, Double> got = byGroup(DpSql.parse(sql, d.catalog));
      assertEquals(expected.keySet(), got.keySet(), sql);
      expected.forEach((k, v) -> assertEquals(v, got.get(k), 1e-3, sql));
    }
    // nation C has no customer: listed anyway, because its key comes from the public table
    assertEquals(0.0, expected.get("C"));
  }

  @Test
  void lineitemAlone_unitDerivedThroughOrders_boundPerUnitOverItsRows() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
        + " max_rows_per_group = 2) COUNT(*) AS n FROM lineitem", d.catalog);
    double expected = d.lineitemsPerCustomer().values().stream().mapToInt(n -> Math.min(2, n)).sum();
    assertEquals(expected, ((Estimate) st.present(run(st)).rows().get(0).get(0)).value(), 1e-3);
    String explain = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited()).build()
        .explain(st.query()).render();
    assertTrue(explain.contains("privacy unit: custkey, derived: lineitem, lineitem.orderkey ->"
        + " orders.orderkey (join added), orders.custkey = customer.custkey (the unit)"), explain);
    assertTrue(explain.contains("Truncate per unit custkey: L0 = 1, Linf = 2"), explain);
  }

  @Test
  void sumOverJoinedRows_withFilterOnQualifiedColumns_equalsTheReference() {
    DpStatement st = DpSql.parse(HEAD + "SUM(quantity, contribution_bounds_per_row => (0, 10)) AS s,"
        + " SUM(o.totalprice, contribution_bounds_per_row => (0, 100)) AS t FROM lineitem l JOIN"
        + " orders o ON l.orderkey = o.orderkey WHERE l.quantity >= 2 AND o.totalprice < 3",
        d.catalog);
    double s = 0;
    double t = 0;
    for (double[] qp : quantityAndPrice(d)) {
      s += qp[0];
      t += qp[1];
    }
    List<Object> row = st.present(run(st)).rows().get(0);
    assertEquals(s, ((Estimate) row.get(0)).value(), 1e-3);
    assertEquals(t, ((Estimate) row.get(1)).value(), 1e-3);
  }

  /** (quantity, order's totalprice) of the line items with an order, quantity ≥ 2, price < 3. */
  private static List<double[]> quantityAndPrice(JoinFixture f) {
    List<double[]> out = new ArrayList<>();
    for (List<?> l : f.lineitem) {
      if (l.get(0) == null || f.customerOf(l.get(0)) == null || (Double) l.get(1) < 2) {
        continue;
      }
      double price = f.orders.stream().filter(o -> o.get(0).equals(l.get(0)))
          .mapToDouble(o -> (Double) o.get(2)).findFirst().orElseThrow();
      if (price < 3) {
        out.add(new double[] {(Double) l.get(1), price});
      }
    }
    return out;
  }

  @Test
  void leftJoinPublicTable_groupsFromIt_arePublic() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12)"
        + " name, COUNT(*) AS n FROM customer LEFT JOIN nation USING (nationkey) GROUP BY name",
        d.catalog);
    Map<String, Double> got = byGroup(st);
    assertEquals(Map.of("A", (double) d.customer.stream().filter(c -> (Long) c.get(1) == 0).count(),
        "B", (double) d.customer.stream().filter(c -> (Long) c.get(1) == 1).count(), "C", 0.0)
        .keySet(), got.keySet());
    assertEquals(0.0, got.get("C"), 1e-3);
    assertEquals(10.0, got.get("A"), 1e-3);
  }

  @Test
  void noBoundGiven_rowsPerUnitEstimatedPrivately_inTheSameCharge() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12)"
        + " COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey)", d.catalog);
    Result r = run(st);
    int linf = r.estimatedMaxRowsPerGroup();
    assertTrue(linf >= 1 && Integer.bitCount(linf) == 1, "a power of two: " + linf);
    double expected = d.lineitemsPerCustomer().values().stream().mapToInt(n -> Math.min(linf, n)).sum();
    assertEquals(expected, ((Estimate) st.present(r).rows().get(0).get(0)).value(), 1e-3);
    String explain = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited()).build()
        .explain(st.query()).render();
    assertTrue(explain.contains("Linf estimated privately"), explain);
  }

  private static DpSqlException refused(String sql, JoinFixture f) {
    return assertThrows(DpSqlException.class, () -> DpSql.parse(sql, f.catalog));
  }

  /** Each refused query, the text whose position must be named, and a fragment of the reason. */
  private static final List<String[]> REFUSALS = List.of(
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM lineitem"
          + " JOIN customer ON lineitem.orderkey = customer.custkey", "customer ON",
          "only along a registered reference"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders a"
          + " JOIN orders b ON a.totalprice = b.totalprice", "orders b", "on the privacy unit"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders"
          + " RIGHT JOIN customer USING (custkey)", "customer USING", "only INNER and LEFT"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders"
          + " JOIN customer ON orders.custkey < customer.custkey", "orders.custkey <",
          "column = column"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders,"
          + " customer", "customer", "not joined"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders"
          + " JOIN customer ON orders.custkey = customer.custkey WHERE custkey = 3", "custkey = 3",
          "is in tables"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM nation",
          "nation", "all public"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM customer"
          + " LEFT JOIN nation n ON customer.nationkey = n.nationkey, orders WHERE n.nationkey ="
          + " orders.custkey", "n.nationkey =", "LEFT-joined"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders"
          + " JOIN nation ON orders.custkey = nation.name", "orders.custkey =", "cannot be compared"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM orders"
          + " JOIN shop.lineitem x ON orders.orderkey = x.nokey", "x.nokey", "unknown column 'nokey'"});

  @Test
  void refusals_nameTheirPosition() {
    for (String[] c : REFUSALS) {
      DpSqlException e = refused(c[0], d);
      assertEquals(c[0].indexOf(c[1]) + 1, e.column(), c[0] + " -> " + e.getMessage());
      assertTrue(e.reason().contains(c[2]), e.getMessage());
    }
  }

  /**
   * The neighbouring datasets D and D' (D without customer 7, its 40 orders and their line items):
   * the same refusals, the same EXPLAIN, the same output shape (columns, groups).
   */
  @Test
  void neighbours_identicalRefusalsExplainAndShapes() {
    for (String[] c : REFUSALS) {
      assertEquals(refused(c[0], d).getMessage(), refused(c[0], dPrime).getMessage());
    }
    List<String> queries = List.of(
        HEAD + "name, COUNT(*) AS n, SUM(quantity, contribution_bounds_per_row => (0, 5)) AS q FROM"
            + " lineitem JOIN orders USING (orderkey) JOIN customer USING (custkey) JOIN nation"
            + " USING (nationkey) GROUP BY name",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM lineitem",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-5) nationkey, COUNT(*)"
            + " AS n FROM orders JOIN customer USING (custkey) GROUP BY nationkey",
        "WITH big AS (SELECT orderkey, quantity * 2 AS q2 FROM lineitem WHERE quantity >= 2)"
            + " SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) name, SUM(q2,"
            + " contribution_bounds_per_row => (0, 10)) AS s FROM big, orders o, customer c, nation"
            + " WHERE big.orderkey = o.orderkey AND o.custkey = c.custkey AND c.nationkey ="
            + " nation.nationkey GROUP BY name");
    for (String sql : queries) {
      DpStatement a = DpSql.parse(sql, d.catalog);
      DpStatement b = DpSql.parse(sql, dPrime.catalog);
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited()).build();
      assertEquals(explainWithoutTables(s.explain(a.query()).render()),
          explainWithoutTables(s.explain(b.query()).render()), sql);
      SqlResult ra = a.present(run(a));
      SqlResult rb = b.present(run(b));
      assertEquals(ra.columns(), rb.columns());
      if (sql.contains("GROUP BY name")) {
        assertEquals(groups(ra), groups(rb)); // public groups: the same keys
      }
    }
  }

  private static List<Object> groups(SqlResult r) {
    List<Object> keys = new ArrayList<>();
    r.rows().forEach(row -> keys.add(row.get(0)));
    return keys;
  }

  /** D and D' live in one database under prefixes d_ and n_: the physical names differ only so. */
  private static String explainWithoutTables(String explain) {
    return explain.replace("\"d_", "\"X_").replace("\"n_", "\"X_").replace("d_customer", "X_customer")
        .replace("n_customer", "X_customer").replaceAll("salt=-?[0-9]+", "salt");
  }

  @Test
  void docsExample_tpchNames_unqualifiedOnForm_parsesWithTheDerivedUnit() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6)"
        + " n_name, COUNT(*) AS items, SUM(l_quantity, contribution_bounds_per_row => (0, 50)) AS qty"
        + " FROM lineitem JOIN orders ON l_orderkey = o_orderkey JOIN customer ON o_custkey = c_custkey"
        + " JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name", ShopFixture.catalog());
    org.privet.engine.Source.Relational r = (org.privet.engine.Source.Relational) st.query().source();
    assertEquals("customer.c_custkey", r.unitDerivation());
    assertEquals(List.of("n_name"), st.query().groupBy());
    assertTrue(st.query().contributionBoundEstimate().isPresent(), "no bound given: estimated");
  }

  @Test
  void derivedTables_withAndSubquery_filterAndComputePerRow_equalTheReference() {
    String opts = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, max_rows_per_group = 1000)"
        + " SUM(q2, contribution_bounds_per_row => (0, 100)) AS s, COUNT(*) AS n";
    String with = "WITH big AS (SELECT orderkey, quantity * 2 + 1 AS q2 FROM lineitem WHERE quantity >= 2) "
        + opts + " FROM big JOIN orders USING (orderkey) WHERE totalprice < 3";
    String sub = opts + " FROM (SELECT l.orderkey, (l.quantity) * 2 + 1 AS q2 FROM shop.lineitem AS l"
        + " WHERE l.quantity >= 2) big JOIN orders o ON big.orderkey = o.orderkey WHERE o.totalprice < 3";
    double s = 0;
    int n = 0;
    for (double[] qp : quantityAndPrice(d)) {
      s += qp[0] * 2 + 1;
      n++;
    }
    for (String sql : List.of(with, sub)) {
      List<Object> row = DpSql.parse(sql, d.catalog).present(run(DpSql.parse(sql, d.catalog))).rows().get(0);
      assertEquals(s, ((Estimate) row.get(0)).value(), 1e-3, sql);
      assertEquals(n, ((Estimate) row.get(1)).value(), 1e-3, sql);
    }
  }

  @Test
  void derivedTableAlone_keepsItsTablesReferenceHidden_unitDerived() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
        + " max_rows_per_group = 2) COUNT(*) AS n FROM (SELECT quantity FROM lineitem) li", d.catalog);
    double expected = d.lineitemsPerCustomer().values().stream().mapToInt(k -> Math.min(2, k)).sum();
    assertEquals(expected, ((Estimate) st.present(run(st)).rows().get(0).get(0)).value(), 1e-3);
  }

  private static final String DP = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*)";

  @Test
  void derivedTables_thatAggregateDeduplicateOrLimit_refusedByNameAtTheirPosition() {
    String[][] cases = {
        {"WITH t AS (SELECT orderkey FROM lineitem GROUP BY orderkey) " + DP + " FROM t", "GROUP BY",
            "GROUP before the DP aggregate"},
        {DP + " FROM (SELECT DISTINCT orderkey FROM lineitem) t", "DISTINCT", "deduplicates"},
        {DP + " FROM (SELECT COUNT(*) AS c FROM lineitem) t", "COUNT(*) AS c", "aggregate COUNT"},
        {DP + " FROM (SELECT orderkey FROM lineitem LIMIT 5) t", "LIMIT", "keeps rows by position"},
        {DP + " FROM (SELECT quantity / price AS r FROM lineitem) t", "/ price", "division"},
        {DP + " FROM (SELECT abs(quantity) AS r FROM lineitem) t", "abs(", "functions are not"},
        {DP + " FROM (SELECT * FROM lineitem JOIN orders USING (orderkey)) t", "JOIN orders",
            "join the tables in the DP query"},
        {"WITH a AS (SELECT * FROM lineitem), b AS (SELECT * FROM a) " + DP + " FROM b", "a) " ,
            "not another derived table"},
        {DP + " FROM (SELECT name AS x, quantity * 2 AS y FROM lineitem) t", "name AS x",
            "unknown column 'name'"},
        {"WITH t AS (SELECT orderkey, quantity, quantity FROM lineitem) " + DP + " FROM t",
            "quantity FROM", "named twice"}};
    for (String[] c : cases) {
      DpSqlException e = refused(c[0], d);
      assertEquals(c[0].indexOf(c[1]) + 1, e.column(), c[0] + " -> " + e.getMessage());
      assertTrue(e.reason().contains(c[2]), e.getMessage());
      assertEquals(e.getMessage(), refused(c[0], dPrime).getMessage(), "the same on the neighbour");
    }
  }

  @Test
  void unitTableAlone_withAliasAndQualifiedColumns_countsEachCustomer() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12)"
        + " COUNT(*) AS n, SUM(c.acctbal, contribution_bounds_per_row => (0, 1000)) AS s FROM customer c"
        + " WHERE c.nationkey = 1", d.catalog);
    List<Object> row = st.present(run(st)).rows().get(0);
    assertEquals(d.customer.stream().filter(c -> (Long) c.get(1) == 1).count(),
        ((Estimate) row.get(0)).value(), 1e-3);
    assertEquals(d.customer.stream().filter(c -> (Long) c.get(1) == 1).mapToDouble(c -> (Double) c.get(2))
        .sum(), ((Estimate) row.get(1)).value(), 1e-3);
  }

  @Test
  void docsExample_withComputedRevenue_parsesAndDerivesTheUnitThroughOrders() {
    DpStatement st = DpSql.parse("WITH li AS (SELECT l_orderkey, l_price * (1 - l_quantity) AS revenue"
        + " FROM lineitem WHERE l_quantity >= 1) SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)"
        + " SUM(revenue, contribution_bounds_per_row => (0, 100)) AS r FROM li JOIN orders ON"
        + " l_orderkey = o_orderkey", ShopFixture.catalog());
    org.privet.engine.Source.Relational r = (org.privet.engine.Source.Relational) st.query().source();
    assertEquals("orders, orders.o_custkey = customer.c_custkey (the unit)", r.unitDerivation());
    assertTrue(r.relation().explain().contains("Compute __e0"), r.relation().explain());
  }

  @Test
  void derivedPublicTable_keptColumnGivesPublicGroups_computedOneSelectsPrivately() {
    DpStatement kept = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12) nm,"
        + " COUNT(*) AS n FROM customer JOIN (SELECT nationkey, name AS nm FROM nation) x USING"
        + " (nationkey) GROUP BY nm", d.catalog);
    assertEquals(List.of("A", "B", "C"), groups(kept.present(run(kept))).stream().map(String::valueOf)
        .sorted().toList());
    DpSqlException e = refused("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) k, COUNT(*)"
        + " AS n FROM customer JOIN (SELECT nationkey, nationkey * 2 AS k FROM nation) x USING"
        + " (nationkey) GROUP BY k", d);
    assertTrue(e.reason().contains("needs delta > 0"), e.getMessage());
  }
}
