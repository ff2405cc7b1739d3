package org.privet.engine.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.Filter;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.Measure;

/**
 * The relational plan's nodes: their stated stability and its chaining, the checks each node makes
 * when built (from schemas only), and the SQL rendered for DuckDB (names, one alias per node). The
 * exact aggregates over rendered joins are the backend contract kit's ({@code
 * BackendContractTest}, join cases, on DuckDB, PostgreSQL and Spark).
 */
class RelationSqlTest {
  private static DuckDbBackend db;
  private static Relation.Scan orders;
  private static Relation.Scan customer;
  private static Relation.Scan nation;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    db.registerTable("orders", List.of("okey", "uid", "total"),
        List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING),
        List.of(Arrays.asList(1L, 1L, 2.0), Arrays.asList(2L, 1L, 3.0), Arrays.asList(3L, 2L, 4.0)));
    db.registerTable("customer", List.of("uid", "nat"), List.of(ColumnType.INTEGER, ColumnType.INTEGER),
        List.of(Arrays.asList(1L, 0L), Arrays.asList(2L, 1L)));
    db.registerTable("nation", List.of("nat", "name"), List.of(ColumnType.INTEGER, ColumnType.STRING),
        List.of(Arrays.asList(0L, "a"), Arrays.asList(1L, "b")));
    orders = new Relation.Scan("a_rather_long_alias_for_the_orders_table_of_this_dataset", Source.table("orders"),
        db.describe(Source.table("orders")), false);
    customer = new Relation.Scan("c", Source.table("customer"), db.describe(Source.table("customer")), false);
    nation = new Relation.Scan("n", Source.table("nation"), db.describe(Source.table("nation")), true);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Relation.Join ordersCustomerNation() {
    Relation.Join oc = new Relation.Join(Relation.JoinKind.INNER, orders, customer,
        List.of(new Relation.Join.Key(orders.name("uid"), "c.uid")), Relation.JoinRole.ALONG_REFERENCE);
    return new Relation.Join(Relation.JoinKind.LEFT, oc, nation, List.of(new Relation.Join.Key("c.nat",
        "n.nat")), Relation.JoinRole.PUBLIC);
  }

  private static Relation.Project projected() {
    return new Relation.Project(ordersCustomerNation(), List.of(new Relation.Project.Output("uid", "c.uid"),
        new Relation.Project.Output("name", "n.name"),
        new Relation.Project.Output("total", orders.name("total"))));
  }

  @Test
  void stability_statedPerNode_andChained() {
    assertEquals(1, orders.stability().rowFactor());
    assertTrue(ordersCustomerNation().inputs().get(0).stability().unitLocal());
    assertEquals(1, ordersCustomerNation().inputs().get(0).stability().rowFactor(),
        "along a reference: stability 1");
    assertEquals(Stability.UNBOUNDED, ordersCustomerNation().stability().rowFactor(),
        "with a public table: not bounded by the join");
    Relation.Truncate t = new Relation.Truncate(projected(), "uid", 2, 3, "given");
    Stability chain = t.chainedStability();
    assertTrue(chain.unitLocal());
    assertEquals(6, chain.rowsPerUnit(), "at most L0·L∞ rows per unit after the truncation");
    assertEquals(Stability.UNBOUNDED, projected().chainedStability().rowsPerUnit());
    String explain = new Relation.Aggregate(t, List.of("name"), List.of("n")).explain();
    assertTrue(explain.contains("Truncate per unit uid: L0 = 2, Linf = 3 (given)"), explain);
    assertTrue(explain.contains("LEFT JOIN on [c.nat = n.nat] (public table)"), explain);
  }

  /**
   * A self-join on the unit: each side a UnitCap of m rows per unit (rowFactor 1, m per unit), the
   * join on the unit bounded by m × m joined rows per unit (the product, not m), the whole chain
   * unit-local; EXPLAIN names the cap and the join's role. The cap refuses m &lt; 1 and an unknown
   * unit column.
   */
  @Test
  void selfJoin_capPerUnitAndJoinOnTheUnit_stabilityIsTheProductOfTheCaps() {
    Relation.Scan o2 = new Relation.Scan("o2", Source.table("orders"), db.describe(Source.table("orders")),
        false);
    Relation.UnitCap left = new Relation.UnitCap(orders, orders.name("uid"), 3, 1);
    Relation.UnitCap right = new Relation.UnitCap(o2, "o2.uid", 5, 1);
    assertEquals(1, left.stability().rowFactor());
    assertEquals(3, left.chainedStability().rowsPerUnit());
    Relation.Join j = new Relation.Join(Relation.JoinKind.INNER, left, right,
        List.of(new Relation.Join.Key(orders.name("uid"), "o2.uid")), Relation.JoinRole.UNIT);
    assertTrue(j.chainedStability().unitLocal());
    assertEquals(15, j.chainedStability().rowsPerUnit(), "m1 x m2 joined rows per unit");
    assertEquals(5, j.stability().rowFactor(), "a row meets at most the other side's cap");
    String explain = j.explain();
    assertTrue(explain.contains("(on the privacy unit)"), explain);
    assertTrue(explain.contains("Cap per unit o2.uid: at most 5 row(s)"), explain);
    assertThrows(IllegalArgumentException.class, () -> new Relation.UnitCap(o2, "o2.uid", 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new Relation.UnitCap(o2, "o2.nope", 2, 1));
    IllegalArgumentException uncapped = assertThrows(IllegalArgumentException.class,
        () -> new Relation.Join(Relation.JoinKind.INNER, orders, o2,
            List.of(new Relation.Join.Key(orders.name("uid"), "o2.uid")), Relation.JoinRole.UNIT),
        "uncapped sides: a unit's joined rows would not be bounded");
    assertTrue(uncapped.getMessage().contains("UnitCap maxRows"), uncapped.getMessage());
  }

  /**
   * The public maximum of a unit's joined rows, 2^24 (docs/proofs/r2t-truncation.md, "Self-joins",
   * totality): per copy the integer k-th root, checked here by its defining inequalities
   * m^k ≤ 2^24 < (m+1)^k; a join on the unit whose caps multiply beyond it is refused when built
   * (the Java API's plan, before any charge), naming the caps.
   */
  @Test
  void joinOnTheUnit_capsMultiplyingBeyondTheMaximum_refusedWhenBuilt() {
    assertEquals(1L << 24, Relation.UnitCap.MAX_JOINED_ROWS_PER_UNIT);
    assertEquals(4096, Relation.UnitCap.maxRowsPerCopy(2));
    assertEquals(256, Relation.UnitCap.maxRowsPerCopy(3));
    for (int k = 1; k <= 30; k++) {
      java.math.BigInteger m = java.math.BigInteger.valueOf(Relation.UnitCap.maxRowsPerCopy(k));
      java.math.BigInteger max = java.math.BigInteger.ONE.shiftLeft(24);
      assertTrue(m.pow(k).compareTo(max) <= 0 || m.equals(java.math.BigInteger.ONE), "k=" + k);
      assertTrue(m.add(java.math.BigInteger.ONE).pow(k).compareTo(max) > 0, "k=" + k);
    }
    Relation.Scan o2 = new Relation.Scan("o2", Source.table("orders"), orders.table(), false);
    Relation.Join.Key k = new Relation.Join.Key(orders.name("uid"), "o2.uid");
    // 4096 x 4096 = 2^24: allowed; 4096 x 4097: refused
    Relation ok = new Relation.Join(Relation.JoinKind.INNER,
        new Relation.UnitCap(orders, orders.name("uid"), 4096, 1),
        new Relation.UnitCap(o2, "o2.uid", 4096, 1), List.of(k), Relation.JoinRole.UNIT);
    assertEquals(1L << 24, ok.chainedStability().rowsPerUnit());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new Relation.Join(Relation.JoinKind.INNER,
            new Relation.UnitCap(orders, orders.name("uid"), 4096, 1),
            new Relation.UnitCap(o2, "o2.uid", 4097, 1), List.of(k), Relation.JoinRole.UNIT));
    assertTrue(e.getMessage().contains("4096 x 4097"), e.getMessage());
  }

  @Test
  void nodes_refuseWhatTheirSchemasRuleOut() {
    assertThrows(IllegalArgumentException.class, () -> new Relation.Join(Relation.JoinKind.INNER, customer,
        nation, List.of(new Relation.Join.Key("c.uid", "n.name")), Relation.JoinRole.PUBLIC),
        "incomparable key types");
    assertThrows(IllegalArgumentException.class, () -> new Relation.Join(Relation.JoinKind.INNER, customer,
        customer, List.of(new Relation.Join.Key("c.uid", "c.uid")), Relation.JoinRole.PUBLIC),
        "a column on both sides");
    assertThrows(IllegalArgumentException.class, () -> new Relation.Project(customer,
        List.of(new Relation.Project.Output("x", "c.uid"), new Relation.Project.Output("x", "c.nat"))));
    assertThrows(IllegalArgumentException.class, () -> new Relation.Project(customer,
        List.of(new Relation.Project.Output("x", "c.nope"))));
    assertThrows(IllegalArgumentException.class, () -> new Source.Relational(ordersCustomerNation(), "x"),
        "a relational source ends in a projection");
    assertThrows(IllegalArgumentException.class, () -> RelationSql.render(
        new Relation.Truncate(projected(), "uid", 1, 1, "given"), null, s -> ""));
  }

  @Test
  void render_duckDb_shortNamesForQualifiedColumns_andTheJoinsAsWritten() {
    BoundedAggregation spec = new BoundedAggregation(new Source.Relational(projected(), "c.uid"),
        Optional.of(Filter.ne("name", "b")), Optional.of("uid"), List.of("name"), Optional.empty(), 1,
        5, 1, List.of(new Measure.FixedPointSum("total", 0, 10, 0, 0, false)));
    String sql = db.physicalPlan(spec);
    assertTrue(sql.contains(" LEFT JOIN "), sql);
    assertTrue(sql.contains("AS \"__c0\""), sql);
    assertFalse(sql.contains("a_rather_long_alias"), "qualified names never reach the SQL: " + sql);
    long[] rows = {0};
    db.aggregate(spec, g -> rows[0] += g.rows());
    assertEquals(2, rows[0], "customer 1's two orders in nation a; customer 2's is in b");
  }
}
