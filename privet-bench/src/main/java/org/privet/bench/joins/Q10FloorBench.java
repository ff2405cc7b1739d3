package org.privet.bench.joins;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.random.RandomSource;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DpSql;

/**
 * Issue 25's Q10 on DuckDB ({@code COUNT(*)} of orders ⋈ customer ⋈ nation, customer the unit):
 * how far below the plain join a per-unit aggregate can go. A COUNT(*) release needs each unit's
 * joined row count n<sub>u</sub> (or only their histogram: the L∞ estimate's cells and
 * Σ<sub>u</sub> min(n<sub>u</sub>, τ)), so every DP plan computes some per-unit aggregate; this
 * times, in interleaved rounds against the plain join, the histogram of n<sub>u</sub> by four
 * plans, each under DuckDB's {@code perfect_ht_threshold} 12 (its default) and 18 (what {@link
 * DuckDbBackend} sets), and the engine's DP SQL end to end under both:
 *
 * <ul>
 *   <li>{@code perUnit}: {@code GROUP BY} unit over the joined rows (the engine's plan; {@link
 *       TpchQuery#histogram});
 *   <li>{@code eager}: the orders' rows counted per {@code o_custkey} first, then joined, then
 *       summed per unit (eager aggregation: exact for every database state);
 *   <li>{@code eagerNoFinal}: the same without the final sum, exact only if {@code c_custkey} and
 *       {@code n_nationkey} are unique (TPC-H's primary keys, not declared here);
 *   <li>{@code ordersOnly}: the joins dropped, exact only if they are foreign-key lookups that can
 *       neither drop nor duplicate an order (keys and references declared: not here).
 * </ul>
 *
 * Every plan's histogram is checked equal to {@code perUnit}'s on the data. A diagnostic for
 * docs/benchmarks.md ("Q10 on DuckDB: the per-unit aggregate's floor"), not a benchmark of record.
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.joins.Q10FloorBench DIR [ROUNDS [THREADS [analyze|loop]]]} (defaults 21, 2);
 * {@code -Dtpch.declareKeys=true} as for {@link TpchJoinBench}; {@code loop} runs only the
 * engine's DP SQL ROUNDS times (for a profiler such as JFR).
 */
public final class Q10FloorBench {
  private Q10FloorBench() {}

  private static final String PRE = "(SELECT o_custkey, COUNT(*) AS w FROM orders GROUP BY"
      + " o_custkey) o JOIN customer ON c_custkey = o_custkey JOIN nation ON c_nationkey ="
      + " n_nationkey";

  /** The histogram plans: name to statement returning (n, units with n rows). */
  static Map<String, String> plans(TpchQuery q10) {
    Map<String, String> out = new LinkedHashMap<>();
    out.put("perUnit", q10.histogram());
    out.put("eager", "SELECT n, COUNT(*) FROM (SELECT c_custkey AS u, SUM(w) AS n FROM " + PRE
        + " GROUP BY c_custkey) GROUP BY n");
    out.put("eagerNoFinal", "SELECT w, COUNT(*) FROM " + PRE + " GROUP BY w");
    out.put("ordersOnly", "SELECT n, COUNT(*) FROM (SELECT o_custkey, COUNT(*) AS n FROM orders"
        + " GROUP BY o_custkey) GROUP BY n");
    return out;
  }

  private static List<String> rows(Statement s, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getLong(1) + ":" + rs.getLong(2));
      }
    }
    out.sort(null);
    return out;
  }

  private static double seconds(Statement s, String sql) throws SQLException {
    long t0 = System.nanoTime();
    try (ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  private static double min(double[] x) {
    return Arrays.stream(x).min().orElse(Double.NaN);
  }

  public static void main(String[] args) throws SQLException {
    Path dir = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 21;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    boolean analyze = args.length > 3 && args[3].equals("analyze");
    boolean loop = args.length > 3 && args[3].equals("loop");
    TpchQuery q10 = TpchQuery.all().stream().filter(q -> q.name().equals("Q10")).findFirst()
        .orElseThrow();
    int[] bits = {12, 18};
    try (DuckDbBackend db = DuckDbBackend.inMemory();
        Statement s = db.trustedConnection().createStatement()) {
      s.execute("SET threads = " + threads);
      for (String table : List.of("customer", "orders", "nation")) {
        s.execute("CREATE TABLE " + table + " AS SELECT * FROM read_csv('"
            + dir.resolve(table + ".csv") + "', header = true)");
      }
      // The dataset's catalog describes every table; Q10 reads no line item (none loaded).
      s.execute("CREATE TABLE lineitem AS SELECT * FROM read_csv('"
          + dir.resolve("lineitem.csv") + "', header = true) LIMIT 0");
      for (String table : List.of("region", "supplier")) {
        s.execute("CREATE TABLE " + table + " AS SELECT * FROM read_csv('"
            + dir.resolve(table + ".csv") + "', header = true)");
      }
      TpchJoinBench.declareKeysIfAsked(s);
      Map<String, String> plans = plans(q10);
      List<String> reference = rows(s, plans.get("perUnit"));
      for (Map.Entry<String, String> p : plans.entrySet()) {
        if (!rows(s, p.getValue()).equals(reference)) {
          throw new IllegalStateException(p.getKey() + ": not the per-unit histogram");
        }
      }
      System.out.println("every plan's histogram equals perUnit's (" + reference.size()
          + " distinct n)");
      DatasetCatalog catalog = TpchJoinBench.catalog(db);
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).build();
      Query dp = DpSql.parse(q10.dpSql(TpchJoinBench.EPSILON), catalog).query();
      if (loop) { // for a profiler: the engine alone, ROUNDS times after 50 warm-ups
        for (int i = 0; i < 50; i++) {
          session.run(dp);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
          session.run(dp);
        }
        System.out.printf(Locale.ROOT, "engine: %.2f ms per run (mean of %d)%n",
            (System.nanoTime() - t0) / 1e6 / rounds, rounds);
        return;
      }
      List<String> names = new ArrayList<>();
      names.add("plain join");
      for (int b : bits) {
        for (String p : plans.keySet()) {
          names.add(p + " @" + b);
        }
        names.add("engine @" + b);
      }
      double[][] t = new double[names.size()][rounds];
      for (int round = -1; round < rounds; round++) {
        int i = 0;
        double plain = seconds(s, q10.plain());
        if (round >= 0) {
          t[i][round] = plain;
        }
        i++;
        for (int b : bits) {
          s.execute("SET perfect_ht_threshold = " + b);
          for (String sql : plans.values()) {
            double x = seconds(s, sql);
            if (round >= 0) {
              t[i][round] = x;
            }
            i++;
          }
          long t0 = System.nanoTime();
          session.run(dp);
          if (round >= 0) {
            t[i][round] = (System.nanoTime() - t0) / 1e9;
          }
          i++;
        }
      }
      double plain = TpchJoinBench.median(t[0]);
      double plainMin = min(t[0]);
      System.out.printf(Locale.ROOT, "%-22s %10s %8s %10s %8s%n", "", "median s", "÷ plain",
          "min s", "÷ plain");
      for (int i = 0; i < names.size(); i++) {
        double m = TpchJoinBench.median(t[i]);
        System.out.printf(Locale.ROOT, "%-22s %10.4f %8.2f %10.4f %8.2f%n", names.get(i), m,
            m / plain, min(t[i]), min(t[i]) / plainMin);
      }
      if (analyze) {
        for (int b : bits) {
          s.execute("SET perfect_ht_threshold = " + b);
          System.out.println("-- EXPLAIN ANALYZE perUnit @" + b);
          try (ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + plans.get("perUnit"))) {
            while (rs.next()) {
              System.out.println(rs.getString(2));
            }
          }
        }
        System.out.println("-- EXPLAIN ANALYZE plain join");
        try (ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + q10.plain())) {
          while (rs.next()) {
            System.out.println(rs.getString(2));
          }
        }
      }
      s.execute("SET perfect_ht_threshold = 18");
    }
  }
}
