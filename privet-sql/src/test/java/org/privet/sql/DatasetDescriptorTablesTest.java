package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.privet.engine.Source;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;

class DatasetDescriptorTablesTest {

  static void refused(Executable e, String fragment) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(fragment), x.getMessage());
  }

  @Test
  void singleTable_hasOneTableNamedAsTheDataset() {
    DatasetDescriptor d = DatasetDescriptor.builder("adult", Source.table("adult_t"), ShopFixture.CUSTOMER)
        .privacyUnit("c_custkey").build();
    assertEquals(1, d.tables().size());
    TableDescriptor t = d.tables().get(0);
    assertEquals("adult", t.name());
    assertEquals(d.source(), t.source());
    assertEquals(d.schema(), t.schema());
    assertFalse(t.isPublic());
    assertFalse(d.isMultiTable());
    assertSame(t, d.table("ADULT").orElseThrow());
    assertEquals(Optional.of(List.of()), d.unitPath("adult"));
  }

  @Test
  void shop_tablesInOrder_caseInsensitiveLookUp_unitPaths() {
    DatasetDescriptor d = ShopFixture.shop();
    assertEquals(List.of("customer", "orders", "lineitem", "nation"),
        d.tables().stream().map(TableDescriptor::name).toList());
    assertEquals("lineitem", d.table("LineItem").orElseThrow().name());
    assertTrue(d.table("missing").isEmpty());
    assertEquals(List.of(new Reference("l_orderkey", "orders", "o_orderkey"),
        new Reference("o_custkey", "customer", "c_custkey")), d.unitPath("lineitem").orElseThrow());
    assertEquals(Optional.of(List.of()), d.unitPath("customer"));
    assertTrue(d.unitPath("nation").isEmpty());
  }

  @Test
  void addTable_anyOrder_isAccepted() {
    DatasetDescriptor d = ShopFixture.shopBuilder().addTable(ShopFixture.nation())
        .addTable(ShopFixture.lineitem()).addTable(ShopFixture.orders()).build();
    assertEquals(2, d.unitPath("lineitem").orElseThrow().size());
  }

  @Test
  void addTable_duplicateName_refusedIgnoringCase() {
    refused(() -> ShopFixture.shopBuilder().addTable(ShopFixture.orders())
        .addTable(new TableDescriptor("ORDERS", Source.table("x"), ShopFixture.NATION, List.of(), true)),
        "'ORDERS' is used twice");
    refused(() -> ShopFixture.shopBuilder()
        .addTable(new TableDescriptor("Customer", Source.table("x"), ShopFixture.NATION, List.of(), true)),
        "used twice");
  }

  @Test
  void reference_unknownColumnOrTable_refused() {
    refused(() -> new TableDescriptor("orders", Source.table("o"), ShopFixture.ORDERS,
        List.of(new Reference("o_nope", "customer", "c_custkey")), false), "no column named 'o_nope'");
    refused(() -> ShopFixture.shopBuilder().addTable(new TableDescriptor("orders",
        Source.table("o"), ShopFixture.ORDERS, List.of(new Reference("o_custkey", "client", "c_custkey")),
        false)).addTable(ShopFixture.nation()).build(), "unknown table 'client'");
    refused(() -> ShopFixture.shopBuilder().addTable(new TableDescriptor("orders",
        Source.table("o"), ShopFixture.ORDERS, List.of(new Reference("o_custkey", "customer", "c_id")),
        false)).addTable(ShopFixture.nation()).build(), "'customer' has no column named 'c_id'");
  }

  @Test
  void reference_typeMismatch_refused() {
    refused(() -> ShopFixture.shopBuilder().addTable(ShopFixture.nation())
        .addTable(new TableDescriptor("orders", Source.table("o"), ShopFixture.ORDERS,
            List.of(new Reference("o_custkey", "nation", "n_name")), false)).build(), "different types");
  }

  /** Float keys are refused (docs/proofs/engine-joins.md, "Key types"), on either side. */
  @Test
  void reference_floatingKey_refused() {
    refused(() -> ShopFixture.shopBuilder().addTable(ShopFixture.nation())
        .addTable(new TableDescriptor("orders", Source.table("o"), ShopFixture.ORDERS,
            List.of(new Reference("o_totalprice", "customer", "c_custkey")), false)).build(),
        "references: 'orders.o_totalprice' and 'customer.c_custkey': a reference and its target must not be"
            + " of a floating type");
    refused(() -> ShopFixture.shopBuilder().addTable(ShopFixture.nation())
        .addTable(new TableDescriptor("orders", Source.table("o"), ShopFixture.ORDERS,
            List.of(new Reference("o_custkey", "customer", "c_custkey"),
                new Reference("o_orderkey", "customer", "c_acctbal")), false)).build(),
        "must not be of a floating type");
  }

  @Test
  void privateTable_notReachingTheUnit_refused() {
    refused(() -> ShopFixture.shopBuilder().addTable(new TableDescriptor("orders",
        Source.table("o"), ShopFixture.ORDERS, List.of(), false)).addTable(ShopFixture.nation()).build(),
        "private table 'orders' needs exactly one reference to a private table");
    TableDescriptor a = new TableDescriptor("a", Source.table("a"), ShopFixture.ORDERS,
        List.of(new Reference("o_custkey", "b", "o_orderkey")), false);
    TableDescriptor b = new TableDescriptor("b", Source.table("b"), ShopFixture.ORDERS,
        List.of(new Reference("o_custkey", "a", "o_orderkey")), false);
    refused(() -> ShopFixture.shopBuilder().addTable(a).addTable(b).addTable(ShopFixture.nation()).build(),
        "does not reach the unit table 'customer'");
    TableDescriptor two = new TableDescriptor("two", Source.table("t"), ShopFixture.ORDERS,
        List.of(new Reference("o_custkey", "customer", "c_custkey"),
            new Reference("o_orderkey", "orders", "o_orderkey")), false);
    refused(() -> ShopFixture.shopBuilder().addTable(ShopFixture.orders()).addTable(two)
        .addTable(ShopFixture.nation()).build(), "has 2");
    refused(() -> DatasetDescriptor.builder("shop", Source.table("c"), ShopFixture.CUSTOMER)
        .privacyUnit("c_custkey")
        .unitTable("customer", List.of(new Reference("c_custkey", "orders", "o_custkey")))
        .addTable(ShopFixture.orders()).build(), "unit table 'customer' may reference public tables only");
  }

  @Test
  void publicTable_referencingPrivate_refused() {
    TableDescriptor pub = new TableDescriptor("leak", Source.table("l"), ShopFixture.ORDERS,
        List.of(new Reference("o_custkey", "customer", "c_custkey")), true);
    refused(() -> ShopFixture.shopBuilder().addTable(pub).addTable(ShopFixture.nation()).build(),
        "public table 'leak' references private table 'customer'");
  }

  @Test
  void privateTables_needAUnitColumn() {
    refused(() -> DatasetDescriptor.builder("shop", Source.table("c"), ShopFixture.CUSTOMER)
        .eachRowIsAUnit().unitTable("customer", List.of()).addTable(ShopFixture.orders()).build(),
        "needs a privacy unit column");
    DatasetDescriptor d = DatasetDescriptor.builder("shop", Source.table("c"), ShopFixture.CUSTOMER)
        .eachRowIsAUnit().addTable(ShopFixture.nation()).build();
    assertEquals(2, d.tables().size());
  }

  @Test
  void referenceToTheUnitTable_mustNameTheUnitColumn() {
    refused(() -> ShopFixture.shopBuilder().addTable(ShopFixture.nation()).addTable(new TableDescriptor(
        "orders", Source.table("o"), ShopFixture.ORDERS,
        List.of(new Reference("o_custkey", "customer", "c_nationkey")), false)).build(),
        "must name its privacy unit column 'c_custkey'");
  }
}
