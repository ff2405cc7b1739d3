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
 * in-memory DuckDB, then times, interleaved in the same JVM:
 *
 * <ol>
 *   <li>(a) the plain aggregate (no bounding);
 *   <li>(b) the same per-unit bounding written by hand in SQL, without noise (group by unit and
 *       group, clamp, keep one group per unit by a hash, aggregate);
 *   <li>DP: the engine's group-by with count, sum and mean (L0 = 1, L∞ = 1, sums clamped), private
 *       partition selection, ε = 1, δ = 1e-6.
 * </ol>
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar org.privet.bench.engine.EngineBench
 * [rows] [repetitions]}. Reports the median of the repetitions and the ratios DP/(b), DP/(a).
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

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      long t0 = System.nanoTime();
      db.execute("CREATE TABLE events AS SELECT CAST(i // 10 AS BIGINT) AS uid, "
          + "CAST(hash(i, 17) % 1000 AS BIGINT) AS grp, "
          + "CAST(hash(i, 29) % 100000 AS DOUBLE) / 100.0 AS amount FROM range(" + rows
          + ") t(i)");
      System.out.printf("generated %,d rows (%,d units, 1000 groups) in %.1f s%n", rows,
          rows / 10, (System.nanoTime() - t0) / 1e9);
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .build();
      Query dp = Query.from("events").privacyUnit("uid").maxGroupsContributed(1)
          .maxRowsPerGroup(1).groupBy("grp").count("n").sum("total", "amount", 0, 500)
          .mean("avg", "amount", 0, 500).epsilonDelta(1.0, 1e-6).build();
      System.out.println(session.explain(dp).render());

      List<Double> plain = new ArrayList<>();
      List<Double> byHand = new ArrayList<>();
      List<Double> engine = new ArrayList<>();
      List<Double> cpuB = new ArrayList<>();
      List<Double> cpuD = new ArrayList<>();
      // One warm-up round, then interleaved repetitions.
      for (int r = -1; r < reps; r++) {
        double a = time(() -> drain(db, PLAIN));
        double ca = lastCpu;
        double b = time(() -> drain(db, BOUNDED_BY_HAND));
        double cb = lastCpu;
        double[] groups = new double[1];
        double d = time(() -> {
          Result res = session.run(dp);
          groups[0] = res.rows().size();
        });
        double cd = lastCpu;
        if (r >= 0) {
          plain.add(a);
          byHand.add(b);
          engine.add(d);
          cpuB.add(cb);
          cpuD.add(cd);
        }
        System.out.printf("round %d: (a) %.3f s [cpu %.2f s]  (b) %.3f s [cpu %.2f s]  DP %.3f s "
            + "[cpu %.2f s] (%d groups released)%n", r, a, ca, b, cb, d, cd, (long) groups[0]);
      }
      double ma = median(plain);
      double mb = median(byHand);
      double md = median(engine);
      System.out.printf("median of %d: (a) plain %.3f s, (b) bounded by hand %.3f s, DP %.3f s%n",
          reps, ma, mb, md);
      System.out.printf("ratio DP/(b) = %.3f, DP/(a) = %.2f, (b)/(a) = %.2f%n", md / mb, md / ma,
          mb / ma);
      System.out.printf("process CPU time: median (b) %.2f s, DP %.2f s, ratio %.3f%n",
          median(cpuB), median(cpuD), median(cpuD) / median(cpuB));
      Runtime rt = Runtime.getRuntime();
      System.out.printf("JVM heap used after runs: %.1f MiB (max %.0f MiB)%n",
          (rt.totalMemory() - rt.freeMemory()) / 1048576.0, rt.maxMemory() / 1048576.0);
    }
  }

  private interface Body {
    void run() throws Exception;
  }

  private static double time(Body body) throws Exception {
    long t = System.nanoTime();
    long c = processCpuTicks();
    body.run();
    lastCpu = (processCpuTicks() - c) / 100.0;
    return (System.nanoTime() - t) / 1e9;
  }

  private static double lastCpu;

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

  private static void drain(DuckDbBackend db, String sql) throws SQLException {
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

  private static double median(List<Double> xs) {
    double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }
}
