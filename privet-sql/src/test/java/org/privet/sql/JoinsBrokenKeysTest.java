package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.testing.SeededRandomSource;

/**
 * Joins stay unit-local when a reference's target is not a key (issue 25; docs/proofs/engine-joins.md,
 * "Keys"): the data changed after registration, or a descriptor built in Java over duplicate keys.
 * The attack: orders of several customers share the key 10, so a line item with key 10 meets
 * parents of units 1, 2, 3, 4 and 6; removing customer 6 (and, transitively, every row that
 * references a removed row: that line item too) must not change the other units' rows. Before the
 * remedy, {@code COUNT(*) FROM lineitem} with L0 = L∞ = 1 released 6 on D and 1 on D' (sensitivity
 * 1 claimed).
 *
 * <p>Four private levels (customer, orders, lineitem, shipment), a key duplicated within one unit
 * (order 20 of customer 5 twice: fine, both of unit 5), a key whose parents are of one unit and
 * of none (order 30: customer 6 and NULL), and line-item keys held by a clean and an ambiguous
 * line item (7, and 17..20 of customers 7..10): their shipments must get no unit (counting only
 * the parents that have a unit would give customers 7..10 a shipment on D and none on D'). D' is computed here by the neighbour relation
 * (removal propagated along the references in Java), and D's expected values from each row's
 * set of reachable units, computed here by following the references in the lists.
 *
 * <p>False-failure probability: ε = 10^12 (noise scale ≤ 5·10^-12), tolerance 1e-3; fixed seeds.
 */
class JoinsBrokenKeysTest {
  private static final long VICTIM = 6;
  private static DuckDbBackend db;
  private static Shop d;
  private static Shop dPrime;

  /** One dataset: the four private tables and nation, with their descriptor and catalog. */
  static final class Shop {
    final List<List<Object>> customer = new ArrayList<>();
    final List<List<Object>> orders = new ArrayList<>();
    final List<List<Object>> lineitem = new ArrayList<>();
    final List<List<Object>> shipment = new ArrayList<>();
    final List<List<Object>> nation = List.of(Arrays.asList(0L, "A"), Arrays.asList(1L, "B"));
    DatasetCatalog catalog;

    static Shop d() {
      Shop s = new Shop();
      for (long c = 1; c <= 10; c++) {
        s.customer.add(Arrays.asList(c, c % 2));
      }
      for (long c : new long[] {1, 2, 3, 4, 6}) {
        s.orders.add(Arrays.asList(10L, c, 1.0)); // key 10: five units
      }
      s.orders.add(Arrays.asList(20L, 5L, 2.0)); // key 20: twice, one unit
      s.orders.add(Arrays.asList(20L, 5L, 2.0));
      s.orders.add(Arrays.asList(30L, 6L, 3.0)); // key 30: unit 6 and no unit
      s.orders.add(Arrays.asList(30L, null, 3.0));
      s.orders.add(Arrays.asList(40L, null, 5.0)); // no unit
      s.orders.add(Arrays.asList(105L, 5L, 4.0));
      s.orders.add(Arrays.asList(106L, 6L, 4.0));
      // lineitem (orderkey, linekey, quantity)
      s.lineitem.add(Arrays.asList(10L, 1L, 5.0));
      s.lineitem.add(Arrays.asList(10L, 3L, 5.0));
      s.lineitem.add(Arrays.asList(20L, 2L, 2.0));
      s.lineitem.add(Arrays.asList(30L, 4L, 1.0));
      s.lineitem.add(Arrays.asList(105L, 5L, 1.0));
      s.lineitem.add(Arrays.asList(106L, 6L, 1.0));
      s.lineitem.add(Arrays.asList(105L, 7L, 1.0)); // linekey 7: unit 5 ...
      s.lineitem.add(Arrays.asList(10L, 7L, 2.0)); // ... and an ambiguous one
      s.lineitem.add(Arrays.asList(40L, 8L, 1.0));
      // shipment (linekey, weight)
      for (long k : new long[] {1, 2, 4, 5, 6, 7}) {
        s.shipment.add(Arrays.asList(k, 4.0));
      }
      // customers 7..10: an order and a line item of their own, whose line key an ambiguous line
      // item (order key 10) holds too; their shipment reaches their unit and, through it, 1..4, 6
      for (long c = 7; c <= 10; c++) {
        s.orders.add(Arrays.asList(100 + c, c, 1.0));
        s.lineitem.add(Arrays.asList(100 + c, 10 + c, 1.0));
        s.lineitem.add(Arrays.asList(10L, 10 + c, 1.0));
        s.shipment.add(Arrays.asList(10 + c, 4.0));
      }
      return s;
    }

    /** D without unit v: a row goes when its reference value is a key of a removed parent row. */
    Shop without(long v) {
      Shop s = new Shop();
      Set<Object> goneCust = new HashSet<>(List.of(v));
      customer.stream().filter(r -> !r.get(0).equals(v)).forEach(s.customer::add);
      Set<Object> goneOrders = new HashSet<>();
      for (List<Object> o : orders) {
        if (goneCust.contains(o.get(1))) {
          goneOrders.add(o.get(0));
        } else {
          s.orders.add(o);
        }
      }
      Set<Object> goneLines = new HashSet<>();
      for (List<Object> l : lineitem) {
        if (goneOrders.contains(l.get(0))) {
          goneLines.add(l.get(1));
        } else {
          s.lineitem.add(l);
        }
      }
      shipment.stream().filter(r -> !goneLines.contains(r.get(0))).forEach(s.shipment::add);
      return s;
    }

    void register(DuckDbBackend db, String prefix) {
      db.registerTable(prefix + "customer", List.of("custkey", "nationkey"),
          List.of(ColumnType.INTEGER, ColumnType.INTEGER), customer);
      db.registerTable(prefix + "orders", List.of("orderkey", "custkey", "totalprice"),
          List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), orders);
      db.registerTable(prefix + "lineitem", List.of("orderkey", "linekey", "quantity"),
          List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), lineitem);
      db.registerTable(prefix + "shipment", List.of("linekey", "weight"),
          List.of(ColumnType.INTEGER, ColumnType.FLOATING), shipment);
      db.registerTable(prefix + "nation", List.of("nationkey", "name"),
          List.of(ColumnType.INTEGER, ColumnType.STRING), nation);
      Source cs = Source.table(prefix + "customer");
      DatasetDescriptor shop = DatasetDescriptor.builder("shop", cs, db.describe(cs))
          .privacyUnit("custkey")
          .unitTable("customer", List.of(new Reference("nationkey", "nation", "nationkey")))
          .addTable(ShopCatalog.table(db, prefix, "orders", new Reference("custkey", "customer", "custkey"), false))
          .addTable(ShopCatalog.table(db, prefix, "lineitem", new Reference("orderkey", "orders", "orderkey"), false))
          .addTable(ShopCatalog.table(db, prefix, "shipment", new Reference("linekey", "lineitem", "linekey"), false))
          .addTable(ShopCatalog.table(db, prefix, "nation", null, true))
          .build();
      catalog = new ShopCatalog(shop, nation);
    }


    /** The units an order reaches (null: none). */
    Set<Long> reachOrder(List<Object> o) {
      Set<Long> s = new HashSet<>();
      s.add((Long) o.get(1));
      return s;
    }

    /** The units a line item reaches along every path (null: a path that ends without a unit). */
    Set<Long> reachLine(List<Object> l) {
      Set<Long> s = new HashSet<>();
      for (List<Object> o : orders) {
        if (l.get(0) != null && l.get(0).equals(o.get(0))) {
          s.addAll(reachOrder(o));
        }
      }
      if (s.isEmpty()) {
        s.add(null);
      }
      return s;
    }

    Set<Long> reachShipment(List<Object> sh) {
      Set<Long> s = new HashSet<>();
      for (List<Object> l : lineitem) {
        if (sh.get(0).equals(l.get(1))) {
          s.addAll(reachLine(l));
        }
      }
      if (s.isEmpty()) {
        s.add(null);
      }
      return s;
    }

    /** The units with at least one row whose reachable units are exactly that one unit. */
    static Set<Long> singleUnits(List<Set<Long>> reaches) {
      Set<Long> out = new HashSet<>();
      for (Set<Long> r : reaches) {
        if (r.size() == 1 && !r.contains(null)) {
          out.add(r.iterator().next());
        }
      }
      return out;
    }
  }

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    d = Shop.d();
    dPrime = d.without(VICTIM);
    d.register(db, "d_");
    dPrime.register(db, "n_");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static final String HEAD = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
      + " max_groups_contributed = 1, max_rows_per_group = 1) ";

  /** Each query and its sensitivity (per group) at L0 = L∞ = 1. */
  private static final List<Object[]> QUERIES = List.of(
      new Object[] {HEAD + "COUNT(*) AS n FROM lineitem", 1.0},
      new Object[] {HEAD + "COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey)", 1.0},
      new Object[] {HEAD + "SUM(quantity, contribution_bounds_per_row => (0, 5)) AS s FROM orders LEFT"
          + " JOIN lineitem USING (orderkey)", 5.0},
      new Object[] {HEAD + "SUM(quantity, contribution_bounds_per_row => (0, 5)) AS s FROM lineitem l"
          + " JOIN orders o ON l.orderkey = o.orderkey JOIN customer c ON o.custkey = c.custkey", 5.0},
      new Object[] {HEAD + "COUNT(*) AS n FROM shipment", 1.0},
      new Object[] {HEAD + "SUM(weight, contribution_bounds_per_row => (0, 5)) AS s FROM shipment JOIN"
          + " lineitem USING (linekey) JOIN orders USING (orderkey)", 5.0},
      new Object[] {HEAD + "COUNT(*) AS n FROM (SELECT weight FROM shipment WHERE weight > 0) s", 1.0},
      new Object[] {HEAD + "name, COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) JOIN customer"
          + " USING (custkey) JOIN nation USING (nationkey) GROUP BY name", 1.0});

  private static Session session() {
    return Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(5)).build();
  }

  /** Released value per group ("" without GROUP BY). */
  private static Map<String, Double> released(String sql, Shop s) {
    DpStatement st = DpSql.parse(sql, s.catalog);
    SqlResult r = st.present(session().run(st.query()));
    Map<String, Double> m = new TreeMap<>();
    for (List<Object> row : r.rows()) {
      boolean grouped = row.size() > 1;
      m.put(grouped ? String.valueOf(row.get(0)) : "",
          ((Estimate) row.get(grouped ? 1 : 0)).value());
    }
    return m;
  }

  @Test
  void neighbours_releasedValuesDifferByAtMostTheSensitivity() {
    for (Object[] q : QUERIES) {
      String sql = (String) q[0];
      double sensitivity = (Double) q[1];
      Map<String, Double> a = released(sql, d);
      Map<String, Double> b = released(sql, dPrime);
      assertEquals(a.keySet(), b.keySet(), sql);
      for (String g : a.keySet()) {
        assertTrue(Math.abs(a.get(g) - b.get(g)) <= sensitivity + 1e-3,
            sql + " group '" + g + "': D " + a.get(g) + ", D' " + b.get(g));
      }
    }
  }

  /** D's answers equal the reference: a row counts for unit u iff all its reference paths reach u. */
  @Test
  void rowsCountOnlyForTheirOneReachableUnit_referenceFromTheLists() {
    List<Set<Long>> lines = d.lineitem.stream().map(d::reachLine).toList();
    List<Set<Long>> ships = d.shipment.stream().map(d::reachShipment).toList();
    // the fixture is what it says: customers 1..4 have ambiguous line items only; 7..10's
    // shipments reach an ambiguous line item
    assertEquals(Set.of(5L, 6L, 7L, 8L, 9L, 10L), Shop.singleUnits(lines));
    assertEquals(Set.of(5L, 6L), Shop.singleUnits(ships));
    assertEquals(Shop.singleUnits(lines).size(), released(HEAD + "COUNT(*) AS n FROM lineitem", d).get(""),
        1e-3);
    assertEquals(Shop.singleUnits(lines).size(), released(HEAD + "COUNT(*) AS n FROM lineitem JOIN"
        + " orders USING (orderkey)", d).get(""), 1e-3);
    assertEquals(Shop.singleUnits(ships).size(), released(HEAD + "COUNT(*) AS n FROM shipment", d)
        .get(""), 1e-3);
    // a line item meeting two orders of one unit (key 20, unit 5) counts twice in the joined rows:
    // with L∞ = 2 unit 5 keeps both
    String two = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, max_groups_contributed = 1,"
        + " max_rows_per_group = 8) COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) WHERE"
        + " orderkey = 20";
    assertEquals(2.0, released(two, d).get(""), 1e-3);
  }

  /**
   * All-INNER joins check the broken keys of the tables below the one the unit is read from after
   * the joins (Relation.DropBrokenKeys, the anti-join) instead of joining their key's unit first:
   * the joined rows must be the same. Without truncation (L∞ = 100 above every unit's rows), each
   * released count or sum is the total over the rows, computed here from the lists: a line item
   * counts once per order row of its key when its key reaches one unit; a shipment once per line
   * item of its key and order row of that line item's key when it reaches one unit.
   */
  @Test
  void allInnerJoins_brokenKeysDroppedAfterTheJoins_rowsOfTheKeyUnitJoin() {
    String head = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, max_groups_contributed"
        + " = 1, max_rows_per_group = 100) ";
    double lineRows = 0;
    double lineQuantity = 0;
    for (List<Object> li : d.lineitem) {
      Set<Long> units = d.reachLine(li);
      if (units.size() == 1 && !units.contains(null)) {
        long orders = d.orders.stream().filter(o -> li.get(0).equals(o.get(0))).count();
        lineRows += orders;
        lineQuantity += orders * (Double) li.get(2);
      }
    }
    double shipRows = 0;
    for (List<Object> sh : d.shipment) {
      Set<Long> units = d.reachShipment(sh);
      if (units.size() == 1 && !units.contains(null)) {
        for (List<Object> li : d.lineitem) {
          if (sh.get(0).equals(li.get(1))) {
            shipRows += d.orders.stream().filter(o -> li.get(0).equals(o.get(0))).count();
          }
        }
      }
    }
    assertEquals(9.0, lineRows, "the fixture: line items of keys 20 (one, two orders), 105 (two),"
        + " 106, 107..110");
    assertEquals(lineRows, released(head + "COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey)",
        d).get(""), 1e-3);
    assertEquals(lineQuantity, released(head + "SUM(quantity, contribution_bounds_per_row => (0, 5))"
        + " AS s FROM lineitem l JOIN orders o ON l.orderkey = o.orderkey JOIN customer c ON o.custkey"
        + " = c.custkey", d).get(""), 1e-3);
    assertEquals(shipRows, released(head + "COUNT(*) AS n FROM shipment JOIN lineitem USING (linekey)"
        + " JOIN orders USING (orderkey)", d).get(""), 1e-3);
    String explain = session().explain(DpSql.parse(head + "COUNT(*) AS n FROM shipment JOIN lineitem"
        + " USING (linekey) JOIN orders USING (orderkey)", d.catalog).query()).render();
    assertTrue(explain.contains("is a broken key"), explain);
  }

  @Test
  void neighbours_identicalRefusalsExplainAndShapes() {
    List<String> refusals = List.of(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM shipment JOIN orders ON"
            + " shipment.linekey = orders.orderkey",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM lineitem a JOIN lineitem b"
            + " ON a.linekey = b.linekey");
    for (String sql : refusals) {
      String a = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, d.catalog)).getMessage();
      assertEquals(a, assertThrows(DpSqlException.class, () -> DpSql.parse(sql, dPrime.catalog))
          .getMessage());
    }
    for (Object[] q : QUERIES) {
      String sql = (String) q[0];
      DpStatement a = DpSql.parse(sql, d.catalog);
      DpStatement b = DpSql.parse(sql, dPrime.catalog);
      String ea = session().explain(a.query()).render();
      assertEquals(physical(ea), physical(session().explain(b.query()).render()), sql);
      assertEquals(a.present(session().run(a.query())).columns(),
          b.present(session().run(b.query())).columns(), sql);
    }
    String ea = session().explain(DpSql.parse(HEAD + "COUNT(*) AS n FROM shipment", d.catalog).query())
        .render();
    assertTrue(ea.contains("Unit per key"), ea);
  }

  private static String physical(String explain) {
    return explain.replace("\"d_", "\"X_").replace("\"n_", "\"X_").replace("d_customer", "X_customer")
        .replace("n_customer", "X_customer").replaceAll("salt=-?[0-9]+", "salt");
  }
}
