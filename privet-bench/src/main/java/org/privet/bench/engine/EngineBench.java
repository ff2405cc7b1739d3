package org.privet.bench.engine;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * Engine benchmark harness (not JMH: each measurement is one multi-second query). Generates a table
 * of N rows (N/10 privacy units, 1,000 groups, about ten rows per unit spread over the groups) in an
 * in-memory DuckDB, then times, interleaved in the same JVM (the order within a round alternates):
 *
 * <ol>
 *   <li>(a) the plain aggregate (no bounding);
 *   <li>(b) the same per-unit bounding written by hand in SQL, without noise (group by unit and
 *       group, clamp, keep one group per unit by a hash, aggregate): the floor;
 *   <li>(c) for information only: the same bounding by hand with the engine's L0 = 1 algorithm (each
 *       unit's smallest row hash, a join, then the pairs), without noise, fixed point or NULL
 *       handling, so DP/(c) is the engine's own overhead over that algorithm;
 *   <li>DP: the engine's group-by with count, sum and mean (L0 = 1, L∞ = 1, sums clamped), private
 *       partition selection, ε = 1, δ = 1e-6.
 * </ol>
 *
 * <p>Usage: {@code java -Xmx4g -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.engine.EngineBench [rows] [rounds]} (default 10,000,000 rows, 7 rounds after one
 * warm-up). Reports per query the median and minimum of wall time and of process CPU time (user +
 * system of all threads, DuckDB's included: less sensitive to other processes), the ratios DP/(b)
 * of medians, of minima and the median of the per-round ratios, the load average before and after,
 * and the Java heap.
 */
public final class EngineBench {
  private EngineBench() {}

  private static final String PLAIN = "SELECT grp, COUNT(*), SUM(amount), AVG(amount) FROM events "
      + "GROUP BY grp";

  private static final String BOUNDED_BY_HAND = "WITH pairs AS (SELECT uid, grp, COUNT(*) AS n, "
      + "SUM(LEAST(GREATEST(amount, 0), 500)) AS s FROM events GROUP BY uid, grp), "
      + "kept AS (SELECT grp, LEAST(n, 1) AS n, CASE WHEN n <= 1 THEN s ELSE s / n END AS s "
      + "FROM pairs QUALIFY ROW_NUMBER() OVER (PARTITION BY uid ORDER BY hash(uid, grp)) <= 1) "
      + "SELECT grp, COUNT(*), SUM(n), SUM(s), SUM(s) / SUM(n) FROM kept GROUP BY grp";

  static final String MIN_HASH_BY_HAND = "WITH src AS NOT MATERIALIZED (SELECT uid, grp, "
      + "amount, hash(uid, grp) AS h FROM events), "
      + "firsth AS (SELECT uid, MIN(h) AS h FROM src GROUP BY uid), "
      + "pairs AS (SELECT uid, grp, COUNT(*) AS n, SUM(LEAST(GREATEST(amount, 0), 500)) AS s "
      + "FROM src JOIN firsth USING (uid, h) GROUP BY uid, grp), "
      + "kept AS (SELECT grp, LEAST(n, 1) AS n, CASE WHEN n <= 1 THEN s ELSE s / n END AS s "
      + "FROM pairs QUALIFY COUNT(*) OVER (PARTITION BY uid) = 1) "
      + "SELECT grp, COUNT(*), SUM(n), SUM(s), SUM(s) / SUM(n) FROM kept GROUP BY grp";

  private static final String[] NAMES = {"(a) plain", "(b) by hand", "(c) min-hash", "DP"};

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    String loadBefore = loadAverage();
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      long t0 = System.nanoTime();
      db.execute(createTable(rows));
      System.out.printf("generated %,d rows (%,d units, 1000 groups) in %.1f s%n", rows,
          rows / 10, (System.nanoTime() - t0) / 1e9);
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .build();
      Query dp = dpQuery();
      System.out.println(session.explain(dp).render());

      List<List<Double>> wall = new ArrayList<>();
      List<List<Double>> cpu = new ArrayList<>();
      for (int q = 0; q < NAMES.length; q++) {
        wall.add(new ArrayList<>());
        cpu.add(new ArrayList<>());
      }
      List<Double> roundRatioWall = new ArrayList<>();
      List<Double> roundRatioCpu = new ArrayList<>();
      List<Double> roundRatioC = new ArrayList<>();
      List<Double> roundRatioCCpu = new ArrayList<>();
      long[] released = new long[1];
      Body[] bodies = {
          () -> drain(db, PLAIN),
          () -> drain(db, BOUNDED_BY_HAND),
          () -> drain(db, MIN_HASH_BY_HAND),
          () -> released[0] = session.run(dp).rows().size()};
      // One warm-up round, then interleaved rounds; odd rounds run the queries in reverse order.
      for (int r = -1; r < reps; r++) {
        double[] w = new double[NAMES.length];
        double[] c = new double[NAMES.length];
        for (int k = 0; k < NAMES.length; k++) {
          int q = (r & 1) == 0 ? k : NAMES.length - 1 - k;
          w[q] = time(bodies[q]);
          c[q] = lastCpu;
        }
        StringBuilder line = new StringBuilder("round " + r + ":");
        for (int q = 0; q < NAMES.length; q++) {
          line.append(String.format("  %s %.3f s [cpu %.2f s]", NAMES[q], w[q], c[q]));
          if (r >= 0) {
            wall.get(q).add(w[q]);
            cpu.get(q).add(c[q]);
          }
        }
        if (r >= 0) {
          roundRatioWall.add(w[3] / w[1]);
          roundRatioCpu.add(c[1] > 0 ? c[3] / c[1] : Double.NaN);
          roundRatioC.add(w[3] / w[2]);
          roundRatioCCpu.add(c[2] > 0 ? c[3] / c[2] : Double.NaN);
        }
        System.out.println(line.append(String.format("  (%d groups released)", released[0])));
      }
      System.out.printf("%d rounds (+1 warm-up), %,d rows; load average before %s, after %s%n",
          reps, rows, loadBefore, loadAverage());
      System.out.println("query            wall median    wall min    cpu median    cpu min");
      for (int q = 0; q < NAMES.length; q++) {
        System.out.printf("%-14s %11.3f s %9.3f s %11.2f s %8.2f s%n", NAMES[q],
            median(wall.get(q)), min(wall.get(q)), median(cpu.get(q)), min(cpu.get(q)));
      }
      System.out.printf("DP/(b) wall: ratio of medians %.3f, of minima %.3f, median per-round "
          + "%.3f%n", median(wall.get(3)) / median(wall.get(1)),
          min(wall.get(3)) / min(wall.get(1)), median(roundRatioWall));
      System.out.printf("DP/(b) cpu:  ratio of medians %.3f, of minima %.3f, median per-round "
          + "%.3f%n", median(cpu.get(3)) / median(cpu.get(1)),
          min(cpu.get(3)) / min(cpu.get(1)), median(roundRatioCpu));
      System.out.printf("DP/(a) wall %.1f; (b)/(a) wall %.1f; DP/(c) wall %.3f, cpu %.3f%n",
          median(wall.get(3)) / median(wall.get(0)), median(wall.get(1)) / median(wall.get(0)),
          median(wall.get(3)) / median(wall.get(2)), median(cpu.get(3)) / median(cpu.get(2)));
      System.out.printf("DP/(c) wall: ratio of medians %.3f, of minima %.3f, median per-round "
          + "%.3f; cpu: %.3f, %.3f, %.3f%n", median(wall.get(3)) / median(wall.get(2)),
          min(wall.get(3)) / min(wall.get(2)), median(roundRatioC),
          median(cpu.get(3)) / median(cpu.get(2)), min(cpu.get(3)) / min(cpu.get(2)),
          median(roundRatioCCpu));
      Runtime rt = Runtime.getRuntime();
      System.out.printf("JVM heap used after runs: %.1f MiB (max %.0f MiB)%n",
          (rt.totalMemory() - rt.freeMemory()) / 1048576.0, rt.maxMemory() / 1048576.0);
    }
  }

  /** The benchmark table: N rows, N/10 units of ten rows, 1,000 groups, amount in [0, 1000). */
  static String createTable(long rows) {
    return "CREATE TABLE events AS SELECT CAST(i // 10 AS BIGINT) AS uid, "
        + "CAST(hash(i, 17) % 1000 AS BIGINT) AS grp, "
        + "CAST(hash(i, 29) % 100000 AS DOUBLE) / 100.0 AS amount FROM range(" + rows + ") t(i)";
  }

  /** The DP query timed against the baselines. */
  static Query dpQuery() {
    return Query.from("events").privacyUnit("uid").maxGroupsContributed(1)
        .maxRowsPerGroup(1).groupBy("grp").count("n").sum("total", "amount", 0, 500)
        .mean("avg", "amount", 0, 500).epsilonDelta(1.0, 1e-6).build();
  }

  static double lastCpu() {
    return lastCpu;
  }

  interface Body {
    void run() throws Exception;
  }

  static double time(Body body) throws Exception {
    long t = System.nanoTime();
    long c = processCpuTicks();
    body.run();
    lastCpu = (processCpuTicks() - c) / 100.0;
    return (System.nanoTime() - t) / 1e9;
  }

  private static double lastCpu;

  /** The 1, 5 and 15 minute load averages from /proc/loadavg, or "n/a". */
  static String loadAverage() {
    try {
      String[] f = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg"))
          .split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException | RuntimeException e) {
      return "n/a";
    }
  }

  /** Process CPU time (user + system, all threads incl. DuckDB's) in clock ticks, or 0. */
  private static long processCpuTicks() {
    try {
      String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/self/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (java.io.IOException | RuntimeException e) {
      return 0;
    }
  }

  static void drain(DuckDbBackend db, String sql) throws SQLException {
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      long n = 0;
      while (rs.next()) {
        n += rs.getLong(1);
      }
      if (n == Long.MIN_VALUE) {
        System.out.println("unreachable");
      }
    }
  }

  static double min(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  static double median(List<Double> xs) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }
}
