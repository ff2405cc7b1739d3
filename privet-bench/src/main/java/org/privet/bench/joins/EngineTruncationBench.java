package org.privet.bench.joins;

import io.trino.tpch.Customer;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.LineItem;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.Order;
import io.trino.tpch.OrderGenerator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.random.RandomSource;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DpSql;
import org.privet.sql.DpStatement;

/**
 * Issue 25, item 3: the engine's two truncations chosen privately, end to end through DP SQL on
 * DuckDB over TPC-H generated in Java (customer the unit), for a scalar COUNT(*) over a join:
 * {@code default} (no bound given: L∞ estimated by the quantile tree, rounded up to a power of
 * two; docs/proofs/contribution-bound-estimate.md), {@code r2t} ({@code truncation = 'R2T'},
 * {@code truncation_bound = 2^20}; docs/proofs/r2t-truncation.md) and {@code oracle} (a fixed
 * {@code max_rows_per_group} = the power of two minimising truncation bias + median |noise|
 * τ·ln2/ε, chosen by looking at the data). Prints the median relative error |release − Q(I)| / Q(I)
 * over RUNS releases of each, Q(I) computed here from the generator's rows.
 *
 * <p>Usage: {@code java -cp ... org.privet.bench.joins.EngineTruncationBench [SCALE_FACTORS [RUNS
 * [EPSILON]]]} (defaults {@code 0.01,0.1}, 21, 0.8).
 */
public final class EngineTruncationBench {
  private EngineTruncationBench() {}

  public static void main(String[] args) {
    String[] sfs = (args.length > 0 ? args[0] : "0.01,0.1").split(",");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 21;
    double eps = args.length > 2 ? Double.parseDouble(args[2]) : 0.8;
    System.out.println("| SF | query | Q(I) | max c_u | τ* | default | r2t | oracle | default ÷"
        + " oracle | r2t ÷ oracle |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (String sf : sfs) {
      run(Double.parseDouble(sf), runs, eps);
    }
  }

  private static void run(double sf, int runs, double eps) {
    List<List<?>> customers = new ArrayList<>();
    for (Customer c : new CustomerGenerator(sf, 1, 1)) {
      customers.add(Arrays.asList(c.getCustomerKey(), c.getNationKey()));
    }
    List<List<?>> orders = new ArrayList<>();
    Map<Long, Long> customerOf = new HashMap<>();
    for (Order o : new OrderGenerator(sf, 1, 1)) {
      orders.add(Arrays.asList(o.getOrderKey(), o.getCustomerKey(), o.getTotalPrice()));
      customerOf.put(o.getOrderKey(), o.getCustomerKey());
    }
    List<List<?>> items = new ArrayList<>();
    Map<Long, Long> itemsPer = new HashMap<>();
    Map<Long, Long> ordersPer = new HashMap<>();
    Map<Long, Long> quantityPer = new HashMap<>();
    for (LineItem l : new LineItemGenerator(sf, 1, 1)) {
      items.add(Arrays.asList(l.getOrderKey(), (double) l.getQuantity()));
      itemsPer.merge(customerOf.get(l.getOrderKey()), 1L, Long::sum);
      quantityPer.merge(customerOf.get(l.getOrderKey()), (long) l.getQuantity(), Long::sum);
    }
    customerOf.values().forEach(c -> ordersPer.merge(c, 1L, Long::sum));
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.registerTable("customer", List.of("c_custkey", "c_nationkey"),
          List.of(ColumnType.INTEGER, ColumnType.INTEGER), customers);
      db.registerTable("orders", List.of("o_orderkey", "o_custkey", "o_totalprice"),
          List.of(ColumnType.INTEGER, ColumnType.INTEGER, ColumnType.FLOATING), orders);
      db.registerTable("lineitem", List.of("l_orderkey", "l_quantity"),
          List.of(ColumnType.INTEGER, ColumnType.FLOATING), items);
      Source cs = Source.table("customer");
      DatasetDescriptor shop = DatasetDescriptor.builder("tpch", cs, db.describe(cs))
          .privacyUnit("c_custkey").unitTable("customer", List.of())
          .addTable(new DatasetDescriptor.TableDescriptor("orders", Source.table("orders"),
              db.describe(Source.table("orders")),
              List.of(new DatasetDescriptor.Reference("o_custkey", "customer", "c_custkey")),
              false))
          .addTable(new DatasetDescriptor.TableDescriptor("lineitem", Source.table("lineitem"),
              db.describe(Source.table("lineitem")),
              List.of(new DatasetDescriptor.Reference("l_orderkey", "orders", "o_orderkey")),
              false))
          .build();
      DatasetCatalog catalog = DatasetCatalog.of(shop);
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).build();
      report(sf, "lineitems (lineitem ⋈ orders ⋈ customer)", "FROM lineitem JOIN orders ON"
          + " l_orderkey = o_orderkey JOIN customer ON o_custkey = c_custkey", itemsPer, session,
          catalog, runs, eps);
      report(sf, "orders (orders ⋈ customer)", "FROM orders JOIN customer ON o_custkey ="
          + " c_custkey", ordersPer, session, catalog, runs, eps);
      reportSum(sf, "Q18: SUM(l_quantity) (lineitem ⋈ orders ⋈ customer)", "FROM lineitem JOIN"
          + " orders ON l_orderkey = o_orderkey JOIN customer ON o_custkey = c_custkey",
          quantityPer, session, catalog, runs, eps);
    }
  }

  private static void report(double sf, String name, String from, Map<Long, Long> perUnit,
      Session session, DatasetCatalog catalog, int runs, double eps) {
    long[] c = perUnit.values().stream().mapToLong(Long::longValue).toArray();
    long total = Arrays.stream(c).sum();
    long max = Arrays.stream(c).max().orElse(0);
    long best = oracleTau(c, total, 1L << 20, eps);
    String head = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + eps;
    double def = median(head + ") COUNT(*) AS n " + from, session, catalog, runs, total);
    double r2t = median(head + ", truncation = 'R2T', truncation_bound = 1048576) COUNT(*) AS n "
        + from, session, catalog, runs, total);
    double oracle = median(head + ", max_rows_per_group = " + best + ") COUNT(*) AS n " + from,
        session, catalog, runs, total);
    System.out.println(String.format(Locale.ROOT,
        "| %s | %s | %d | %d | %d | %.5f | %.5f | %.5f | %.2f | %.1f |", sf, name, total, max,
        best, def, r2t, oracle, def / oracle, r2t / oracle));
  }

  /**
   * R2T's Q18 (sum of quantities per customer, values 1..50): {@code default} = per-row bounds
   * (0, 50) with L∞ estimated privately; {@code r2t} = {@code truncation = 'R2T'} with
   * {@code truncation_bound = 2^26} (26 thresholds); {@code oracle} = each customer's total
   * clamped at the power of two τ minimising truncation bias + median noise τ·ln2/ε
   * ({@code contribution_bounds_per_group => (0, τ)}), chosen seeing the data.
   */
  private static void reportSum(double sf, String name, String from, Map<Long, Long> perUnit,
      Session session, DatasetCatalog catalog, int runs, double eps) {
    long[] c = perUnit.values().stream().mapToLong(Long::longValue).toArray();
    long total = Arrays.stream(c).sum();
    long max = Arrays.stream(c).max().orElse(0);
    long best = oracleTau(c, total, 1L << 26, eps);
    String head = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + eps;
    double def = median(head + ") SUM(l_quantity, contribution_bounds_per_row => (0, 50)) AS n "
        + from, session, catalog, runs, total);
    double r2t = median(head + ", truncation = 'R2T', truncation_bound = 67108864) SUM(l_quantity,"
        + " contribution_bounds_per_row => (0, 50)) AS n " + from, session, catalog, runs, total);
    double oracle = median(head + ", max_rows_per_group = 1000000) SUM(l_quantity,"
        + " contribution_bounds_per_group => (0, " + best + ")) AS n " + from, session, catalog,
        runs, total);
    System.out.println(String.format(Locale.ROOT,
        "| %s | %s | %d | %d | %d | %.5f | %.5f | %.5f | %.2f | %.1f |", sf, name, total, max,
        best, def, r2t, oracle, def / oracle, r2t / oracle));
  }

  /** The power of two τ ≤ max minimising truncation bias + median |noise| τ·ln2/ε (sees data). */
  private static long oracleTau(long[] c, long total, long max, double eps) {
    long best = 1;
    double bestErr = Double.POSITIVE_INFINITY;
    for (long tau = 1; tau <= max; tau *= 2) {
      final long t = tau;
      double err = total - Arrays.stream(c).map(x -> Math.min(x, t)).sum() + t * Math.log(2) / eps;
      if (err < bestErr) {
        bestErr = err;
        best = tau;
      }
    }
    return best;
  }

  private static double median(String sql, Session session, DatasetCatalog catalog, int runs,
      long truth) {
    DpStatement st = DpSql.parse(sql, catalog);
    double[] rel = new double[runs];
    int[] lInf = new int[runs];
    for (int i = 0; i < runs; i++) {
      org.privet.engine.Result r = session.run(st.query());
      Estimate e = r.rows().get(0).values().get("n");
      rel[i] = Math.abs(e.value() - truth) / truth;
      lInf[i] = r.estimatedMaxRowsPerGroup();
    }
    Arrays.sort(rel);
    Arrays.sort(lInf);
    if (lInf[runs - 1] > 0) {
      System.out.println("  (default: estimated L∞ min / median / max = " + lInf[0] + " / "
          + lInf[runs / 2] + " / " + lInf[runs - 1] + ")");
    }
    return rel[runs / 2];
  }
}
