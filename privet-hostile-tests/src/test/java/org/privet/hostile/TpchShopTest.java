package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * The multi-table neighbours of {@link TpchShop} are neighbours under the threat model's relation:
 * each differs from BASE by one customer and exactly the rows that reference it, transitively, and
 * no row references a missing row. Counted in SQL against the TPC-H specification's cardinalities
 * at SF 0.01 (1,500 customers, 15,000 orders) and dbgen's 60,175 line items.
 */
class TpchShopTest {
  @TempDir Path dir;

  private static long count(DuckDbBackend db, String sql) {
    try (java.sql.Statement s = db.trustedConnection().createStatement();
        java.sql.ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  private static long[] sizes(DuckDbBackend db) {
    return new long[] {count(db, "SELECT COUNT(*) FROM customer"),
        count(db, "SELECT COUNT(*) FROM orders"), count(db, "SELECT COUNT(*) FROM lineitem"),
        count(db, "SELECT COUNT(*) FROM nation")};
  }

  private static void assertReferencesResolve(DuckDbBackend db) {
    assertEquals(0, count(db, "SELECT COUNT(*) FROM orders WHERE o_custkey NOT IN"
        + " (SELECT c_custkey FROM customer)"));
    assertEquals(0, count(db, "SELECT COUNT(*) FROM lineitem WHERE l_orderkey NOT IN"
        + " (SELECT o_orderkey FROM orders)"));
    assertEquals(0, count(db, "SELECT COUNT(*) FROM customer WHERE c_nationkey NOT IN"
        + " (SELECT n_nationkey FROM nation)"));
  }

  @Test
  void variants_differByOneCustomerAndItsRowsTransitively() {
    try (DuckDbBackend base = TpchShop.duckdb(TpchShop.Variant.BASE, dir.resolve("a"));
        DuckDbBackend victim = TpchShop.duckdb(TpchShop.Variant.WITH_VICTIM, dir.resolve("b"));
        DuckDbBackend heavy = TpchShop.duckdb(TpchShop.Variant.WITHOUT_HEAVIEST,
            dir.resolve("c"))) {
      assertEquals(java.util.List.of(1_500L, 15_000L, 60_175L, 25L),
          java.util.Arrays.stream(sizes(base)).boxed().toList());
      long orders = TpchShop.VICTIM_ORDERS;
      long items = orders * TpchShop.VICTIM_ITEMS_PER_ORDER;
      assertEquals(java.util.List.of(1_501L, 15_000L + orders, 60_175L + items, 25L),
          java.util.Arrays.stream(sizes(victim)).boxed().toList());
      assertEquals(orders, count(victim, "SELECT COUNT(*) FROM orders WHERE o_custkey = "
          + TpchShop.VICTIM));
      assertEquals(items, count(victim, "SELECT COUNT(*) FROM lineitem JOIN orders"
          + " ON l_orderkey = o_orderkey WHERE o_custkey = " + TpchShop.VICTIM));
      assertEquals(List.of(true, true, true, true), List.of(
          count(victim, "SELECT COUNT(*) FROM lineitem WHERE isnan(l_quantity)") > 0,
          count(victim, "SELECT COUNT(*) FROM lineitem WHERE isinf(l_quantity)") > 0,
          count(victim, "SELECT COUNT(*) FROM orders WHERE o_orderdate = DATE '9999-12-31'") > 0,
          count(victim, "SELECT COUNT(*) FROM lineitem WHERE l_quantity IS NULL") > 0),
          "the victim's extreme values survive loading");

      long heaviest = TpchShop.heaviestCustomer();
      long heavyOrders = count(base, "SELECT COUNT(*) FROM orders WHERE o_custkey = " + heaviest);
      long heavyItems = count(base, "SELECT COUNT(*) FROM lineitem JOIN orders ON l_orderkey ="
          + " o_orderkey WHERE o_custkey = " + heaviest);
      assertEquals(heavyItems, count(base, "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM"
          + " lineitem JOIN orders ON l_orderkey = o_orderkey GROUP BY o_custkey)"));
      assertEquals(java.util.List.of(1_499L, 15_000L - heavyOrders, 60_175L - heavyItems, 25L),
          java.util.Arrays.stream(sizes(heavy)).boxed().toList());
      for (DuckDbBackend db : java.util.List.of(base, victim, heavy)) {
        assertReferencesResolve(db);
      }
    }
  }
}
