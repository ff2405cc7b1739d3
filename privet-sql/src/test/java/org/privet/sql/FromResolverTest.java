package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privet.sql.DatasetDescriptorTablesTest.refused;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;

class FromResolverTest {
  private static final DatasetDescriptor ADULT = DatasetDescriptor.builder("adult", Source.table("adult"),
      ShopFixture.CUSTOMER).privacyUnit("c_custkey").build();
  /** A second multi-table dataset that also has a table named orders. */
  private static final DatasetDescriptor SHOP2 = DatasetDescriptor.builder("shop2", Source.table("c2"),
      ShopFixture.CUSTOMER).privacyUnit("c_custkey").unitTable("customer", List.of())
      .addTable(ShopFixture.orders()).build();

  @Test
  void qualifiedAndUnqualified_resolveToTheSameTable() {
    DatasetCatalog c = ShopFixture.catalog(ADULT);
    FromResolver.Resolved q = new FromResolver(c).resolve("shop", "LINEITEM");
    FromResolver.Resolved u = new FromResolver(c).resolve(null, "lineitem");
    assertSame(q.table(), u.table());
    assertEquals("shop", q.dataset().name());
  }

  @Test
  void singleTableDataset_resolvesByItsName_asBefore() {
    DatasetCatalog c = ShopFixture.catalog(ADULT);
    assertEquals("adult", new FromResolver(c).resolve(null, "Adult").table().name());
    assertEquals("adult", new FromResolver(c).resolve("adult", "adult").table().name());
  }

  @Test
  void laterItems_resolveInTheFirstItemsDataset() {
    FromResolver r = new FromResolver(ShopFixture.catalog(ADULT));
    r.resolve(null, "lineitem");
    assertEquals("orders", r.resolve(null, "orders").table().name());
    assertTrue(r.resolve("SHOP", "nation").table().isPublic());
    refused(() -> r.resolve(null, "adult"), "'adult' is not a table of dataset 'shop': all tables of"
        + " one query must belong to one dataset");
    refused(() -> r.resolve("adult", "adult"), "not a table of dataset 'shop'");
  }

  @Test
  void multiTableDatasetName_alone_refused() {
    refused(() -> new FromResolver(ShopFixture.catalog()).resolve(null, "shop"),
        "dataset 'shop' has several tables (customer, orders, lineitem, nation)");
  }

  @Test
  void ambiguousTable_refused_qualifiedResolves() {
    DatasetCatalog c = ShopFixture.catalog(SHOP2);
    refused(() -> new FromResolver(c).resolve(null, "orders"),
        "table 'orders' is in several datasets (shop, shop2)");
    assertEquals("shop2", new FromResolver(c).resolve("shop2", "orders").dataset().name());
  }

  @Test
  void unknownNames_refused() {
    DatasetCatalog c = ShopFixture.catalog();
    refused(() -> new FromResolver(c).resolve(null, "nope"), "unknown dataset 'nope'");
    refused(() -> new FromResolver(c).resolve("nope", "orders"), "unknown dataset 'nope'");
    refused(() -> new FromResolver(c).resolve("shop", "nope"), "dataset 'shop' has no table 'nope'");
  }

  @Test
  void dpSql_fromAPublicTableAlone_refusedAtItsPosition() {
    DatasetCatalog c = ShopFixture.catalog(ADULT);
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM shop.nation";
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, c));
    assertEquals(sql.indexOf("shop.nation") + 1, e.column());
    assertTrue(e.reason().contains("these tables are all public"), e.reason());
  }

  @Test
  void dpSql_fromANonUnitTable_readsItWithItsDerivedUnit() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " max_rows_per_group = 4) COUNT(*) FROM shop.orders", ShopFixture.catalog(ADULT));
    assertEquals("shop", st.dataset());
    assertTrue(st.query().source() instanceof Source.Relational r
        && r.unitDerivation().equals("orders, orders.o_custkey = customer.c_custkey (the unit)"),
        st.query().source().toString());
  }
}
