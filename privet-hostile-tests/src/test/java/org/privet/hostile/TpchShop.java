package org.privet.hostile;

import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Nation;
import io.trino.tpch.NationGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * Multi-table neighbours for the hostile-analyst suite (issue 25, item 6): TPC-H's customer,
 * orders, lineitem and nation at a small scale factor, generated in Java ({@code io.trino.tpch},
 * rows equal to dbgen's), with customer as the privacy unit (orders.o_custkey → customer,
 * lineitem.l_orderkey → orders; nation public).
 *
 * <p>The threat model's neighbour relation: D′ is D minus one customer and every row referencing
 * it, transitively (its orders and their line items). Three variants, each in its own in-memory
 * DuckDB with the same table names (so EXPLAIN texts, which name tables, are comparable):
 *
 * <ul>
 *   <li>{@link Variant#BASE}: the generated tables;
 *   <li>{@link Variant#WITH_VICTIM}: BASE plus the victim, customer {@value #VICTIM}, with {@value
 *       #VICTIM_ORDERS} orders of {@value #VICTIM_ITEMS_PER_ORDER} line items each, holding extreme
 *       values of every type (±∞, NaN, NULL, 1e300, dates 0001-01-01 and 9999-12-31, quotes);
 *   <li>{@link Variant#WITHOUT_HEAVIEST}: BASE minus its customer with the most line items, and all
 *       its rows;
 *   <li>{@link Variant#WITH_ORPHAN_VICTIM}: BASE plus the victim's orders and line items without
 *       its customer row: orphan orders, whose unit is their {@code o_custkey} (a LEFT join
 *       toward the unit pads them; docs/proofs/engine-joins.md, "LEFT joins toward the unit").
 * </ul>
 */
final class TpchShop {
  static final long VICTIM = 7_777_777L;
  static final int VICTIM_ORDERS = 2_500;
  static final int VICTIM_ITEMS_PER_ORDER = 4;
  static final double SCALE_FACTOR = 0.01;

  enum Variant { BASE, WITH_VICTIM, WITHOUT_HEAVIEST, WITH_ORPHAN_VICTIM }

  static final String CUSTOMER = "c_custkey BIGINT, c_name VARCHAR, c_nationkey BIGINT,"
      + " c_acctbal DOUBLE, c_mktsegment VARCHAR";
  static final String ORDERS = "o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus VARCHAR,"
      + " o_totalprice DOUBLE, o_orderdate DATE";
  static final String LINEITEM = "l_orderkey BIGINT, l_linenumber BIGINT, l_quantity DOUBLE,"
      + " l_extendedprice DOUBLE, l_discount DOUBLE, l_returnflag VARCHAR, l_shipdate DATE";
  static final String NATION = "n_nationkey BIGINT, n_name VARCHAR, n_regionkey BIGINT";

  private TpchShop() {}

  /** The customer with the most line items at {@link #SCALE_FACTOR} (smallest key on ties). */
  static long heaviestCustomer() {
    Map<Long, Long> customerOf = new HashMap<>();
    for (Order o : new OrderGenerator(SCALE_FACTOR, 1, 1)) {
      customerOf.put(o.getOrderKey(), o.getCustomerKey());
    }
    Map<Long, Long> items = new HashMap<>();
    for (LineItem l : new LineItemGenerator(SCALE_FACTOR, 1, 1)) {
      items.merge(customerOf.get(l.getOrderKey()), 1L, Long::sum);
    }
    return items.entrySet().stream()
        .max(Map.Entry.<Long, Long>comparingByValue()
            .thenComparing(Map.Entry.<Long, Long>comparingByKey().reversed()))
        .orElseThrow().getKey();
  }

  /** A new in-memory DuckDB holding {@code variant}'s four tables (CSV files under {@code dir}). */
  static DuckDbBackend duckdb(Variant variant, Path dir) {
    try {
      Files.createDirectories(dir);
      long removed = variant == Variant.WITHOUT_HEAVIEST ? heaviestCustomer() : -1;
      Set<Long> removedOrders = new HashSet<>();
      try (Writer c = Files.newBufferedWriter(dir.resolve("customer.csv"));
          Writer o = Files.newBufferedWriter(dir.resolve("orders.csv"));
          Writer l = Files.newBufferedWriter(dir.resolve("lineitem.csv"));
          Writer n = Files.newBufferedWriter(dir.resolve("nation.csv"))) {
        for (Customer x : new CustomerGenerator(SCALE_FACTOR, 1, 1)) {
          if (x.getCustomerKey() != removed) {
            row(c, x.getCustomerKey(), x.getName(), x.getNationKey(), x.getAccountBalance(),
                x.getMarketSegment());
          }
        }
        for (Order x : new OrderGenerator(SCALE_FACTOR, 1, 1)) {
          if (x.getCustomerKey() == removed) {
            removedOrders.add(x.getOrderKey());
            continue;
          }
          row(o, x.getOrderKey(), x.getCustomerKey(), String.valueOf(x.getOrderStatus()),
              x.getTotalPrice(), LocalDate.ofEpochDay(x.getOrderDate()));
        }
        for (LineItem x : new LineItemGenerator(SCALE_FACTOR, 1, 1)) {
          if (!removedOrders.contains(x.getOrderKey())) {
            row(l, x.getOrderKey(), x.getLineNumber(), x.getQuantity(), x.getExtendedPrice(),
                x.getDiscount(), x.getReturnFlag(), LocalDate.ofEpochDay(x.getShipDate()));
          }
        }
        for (Nation x : new NationGenerator()) {
          row(n, x.getNationKey(), x.getName(), x.getRegionKey());
        }
        if (variant == Variant.WITH_VICTIM || variant == Variant.WITH_ORPHAN_VICTIM) {
          victim(variant == Variant.WITH_VICTIM ? c : null, o, l);
        }
      }
      DuckDbBackend db = DuckDbBackend.inMemory();
      for (String[] t : new String[][] {{"customer", CUSTOMER}, {"orders", ORDERS},
          {"lineitem", LINEITEM}, {"nation", NATION}}) {
        db.execute("CREATE TABLE " + t[0] + " (" + t[1] + ")");
        db.execute("INSERT INTO " + t[0] + " SELECT * FROM read_csv('" + dir.resolve(t[0] + ".csv")
            + "', header = false, quote = '\"', escape = '\"', nullstr = '\\N', columns = "
            + columnsStruct(t[1]) + ")");
      }
      return db;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The victim: thousands of orders and line items, with extreme values of every type; its
   * customer row only if {@code c} is not null.
   */
  private static void victim(Writer c, Writer o, Writer l) throws IOException {
    if (c != null) {
      row(c, VICTIM, "it's \"BUILDING\", really", 24L, 1e300, "BUILDING");
    }
    Object[] totals = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN, null, 1e300,
        -1e300, 0.0};
    Object[] dates = {LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31), null,
        LocalDate.of(1995, 3, 15)};
    Object[] quantities = {1e300, -1e300, Double.NaN, null, 50.0, Double.POSITIVE_INFINITY};
    for (int i = 0; i < VICTIM_ORDERS; i++) {
      long order = 1_000_000_000L + i;
      row(o, order, VICTIM, i % 3 == 0 ? "F" : "O", totals[i % totals.length],
          dates[i % dates.length]);
      for (int j = 1; j <= VICTIM_ITEMS_PER_ORDER; j++) {
        row(l, order, (long) j, quantities[(i + j) % quantities.length],
            totals[(i * 7 + j) % totals.length], j == 2 ? Double.NaN : 0.05 * j,
            j == 3 ? null : "R", dates[(i + j) % dates.length]);
      }
    }
  }

  private static void row(Writer w, Object... values) throws IOException {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        s.append(',');
      }
      Object v = values[i];
      if (v == null) {
        s.append("\\N");
      } else if (v instanceof String str) {
        s.append('"').append(str.replace("\"", "\"\"")).append('"');
      } else if (v instanceof Double d) {
        s.append(d.isNaN() ? "NaN" : d.isInfinite() ? (d > 0 ? "Infinity" : "-Infinity")
            : d.toString());
      } else {
        s.append(v);
      }
    }
    w.write(s.append('\n').toString());
  }

  /** {@code {'a': 'BIGINT', ...}} for read_csv's columns option. */
  private static String columnsStruct(String columns) {
    StringBuilder s = new StringBuilder("{");
    for (String col : columns.split(", ")) {
      String[] p = col.strip().split(" ");
      s.append(s.length() > 1 ? ", " : "").append('\'').append(p[0]).append("': '").append(p[1])
          .append('\'');
    }
    return s.append('}').toString();
  }
}
