package org.privet.sql;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.sql.DatasetDescriptor.Reference;

/**
 * Test fixture: a tiny customer / orders / lineitem / nation dataset {@code shop} with customer as
 * the privacy unit, built in DuckDB from Java lists, so that every reference answer is computed
 * here from the lists. Join columns share names ({@code orderkey}, {@code custkey}, {@code
 * nationkey}) so that {@code USING} applies; {@code custkey} is then in two tables.
 *
 * <p>Customer c (1..N) lives in nation c % 2 (nation 2 has no customer), has (c % 4) + 1 orders
 * (customer {@link #HEAVY} has {@link #HEAVY_ORDERS}), order o has (o % 3) + 1 line items. Two line
 * items have no order (a dangling key and a NULL): they belong to no unit.
 */
final class JoinFixture {
  static final int N = 20;
  static final long HEAVY = 7;
  static final int HEAVY_ORDERS = 40;

  final List<List<?>> customer = new ArrayList<>();
  final List<List<?>> orders = new ArrayList<>();
  final List<List<?>> lineitem = new ArrayList<>();
  final List<List<?>> nation = List.of(Arrays.asList(0L, "A"), Arrays.asList(1L, "B"),
      Arrays.asList(2L, "C"));
  final DatasetDescriptor shop;
  final DatasetCatalog catalog;

  /**
   * @param without a customer to leave out with all their orders and line items (the neighbour
   *     D'), or 0
   * @param prefix the DuckDB table name prefix (so D and D' live in one database)
   */
  JoinFixture(DuckDbBackend db, long without, String prefix) {
    this(db, without, prefix, false);
  }

  /** Units 21 and 22 have orphan orders (no customer row); {@link #ORPHAN_HEAVY} has 30. */
  static final long ORPHAN_HEAVY = 23;
  static final int ORPHAN_HEAVY_ORDERS = 30;

  /**
   * As {@link #JoinFixture(DuckDbBackend, long, String)}; with {@code orphans}, also orphan orders:
   * orders whose customer key matches no customer (units 21, 22 and {@link #ORPHAN_HEAVY} with
   * 2, 1 and {@value #ORPHAN_HEAVY_ORDERS} orders, each with its line items), and one order with a
   * NULL customer key (no unit) with one line item. {@code without} may name an orphan unit:
   * its orders and line items are left out (the neighbour without that unit).
   */
  JoinFixture(DuckDbBackend db, long without, String prefix, boolean orphans) {
    if (orphans) {
      for (long c = N + 1; c <= ORPHAN_HEAVY; c++) {
        if (c == without) {
          continue;
        }
        int n = c == ORPHAN_HEAVY ? ORPHAN_HEAVY_ORDERS : (int) (N + 3 - c);
        for (int k = 0; k < n; k++) {
          long o = c * 1000 + k;
          orders.add(Arrays.asList(o, c, (double) (k + 1)));
          for (int i = 0; i <= o % 3; i++) {
            lineitem.add(Arrays.asList(o, (double) (i + 1), 2.0));
          }
        }
      }
      orders.add(Arrays.asList(99_000L, null, 3.0));
      lineitem.add(Arrays.asList(99_000L, 1.0, 2.0));
    }
    for (long c = 1; c <= N; c++) {
      if (c == without) {
        continue;
      }
      customer.add(Arrays.asList(c, c % 2, 10.0 * c));
      int n = c == HEAVY ? HEAVY_ORDERS : (int) (c % 4) + 1;
      for (int k = 0; k < n; k++) {
        long o = c * 1000 + k;
        orders.add(Arrays.asList(o, c, (double) (k + 1)));
        for (int i = 0; i <= o % 3; i++) {
          lineitem.add(Arrays.asList(o, (double) (i + 1), 2.0));
        }
      }
    }
    lineitem.add(Arrays.asList(999_999L, 5.0, 1.0));
    lineitem.add(Arrays.asList(null, 5.0, 1.0));
    db.registerTable(prefix + "customer", List.of("custkey", "nationkey", "acctbal"),
        List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), customer);
    db.registerTable(prefix + "orders", List.of("orderkey", "custkey", "totalprice"),
        List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), orders);
    db.registerTable(prefix + "lineitem", List.of("orderkey", "quantity", "price"),
        List.of(ColumnType.INTEGER, ColumnType.FLOATING, ColumnType.FLOATING), lineitem);
    db.registerTable(prefix + "nation", List.of("nationkey", "name"),
        List.of(ColumnType.INTEGER, ColumnType.STRING), nation);
    Source cs = Source.table(prefix + "customer");
    shop = DatasetDescriptor.builder("shop", cs, db.describe(cs)).privacyUnit("custkey")
        .unitTable("customer", List.of(new Reference("nationkey", "nation", "nationkey")))
        .addTable(ShopCatalog.table(db, prefix, "orders", new Reference("custkey", "customer", "custkey"), false))
        .addTable(ShopCatalog.table(db, prefix, "lineitem", new Reference("orderkey", "orders", "orderkey"), false))
        .addTable(ShopCatalog.table(db, prefix, "nation", null, true))
        .build();
    catalog = new ShopCatalog(shop, nation);
  }


  /** The customer of order o, or null. */
  Long customerOf(Object orderkey) {
    for (List<?> o : orders) {
      if (o.get(0).equals(orderkey)) {
        return (Long) o.get(1);
      }
    }
    return null;
  }

  /** The nation of customer c. */
  long nationOf(long c) {
    return c % 2;
  }

  /** Line items per customer (those whose order exists). */
  java.util.Map<Long, Integer> lineitemsPerCustomer() {
    java.util.Map<Long, Integer> m = new java.util.TreeMap<>();
    for (List<?> l : lineitem) {
      Long c = l.get(0) == null ? null : customerOf(l.get(0));
      if (c != null) {
        m.merge(c, 1, Integer::sum);
      }
    }
    return m;
  }
}
