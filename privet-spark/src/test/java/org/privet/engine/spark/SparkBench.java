package org.privet.engine.spark;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;

/**
 * A benchmark harness (not a test, not JMH: each measurement is one multi-second Spark job): the
 * engine's DP query on {@link SparkBackend} against (b) the same per-unit bounding written by hand
 * in Spark SQL without noise, on a generated, cached table, interleaved in one JVM. Spark lives in
 * this module only (a {@code provided} dependency), so the harness sits in its test sources rather
 * than in privet-bench's shaded jar. Command: see docs/benchmarks.md ("Engine on Spark").
 *
 * <p>Arguments: rows (default 2,000,000), measured rounds (default 3), Spark master (default
 * local[2]).
 */
public final class SparkBench {
  private static final String BOUNDED_BY_HAND = "WITH pairs AS (SELECT uid, grp, COUNT(*) AS n, "
      + "SUM(LEAST(GREATEST(amount, 0), 500)) AS s FROM events GROUP BY uid, grp), "
      + "ranked AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY uid ORDER BY xxhash64(uid, grp)) "
      + "AS r FROM pairs), "
      + "kept AS (SELECT grp, LEAST(n, 1) AS n, CASE WHEN n <= 1 THEN s ELSE s / n END AS s "
      + "FROM ranked WHERE r <= 1) "
      + "SELECT grp, COUNT(*), SUM(n), SUM(s), SUM(s) / SUM(n) FROM kept GROUP BY grp";

  private SparkBench() {}

  public static void main(String[] args) {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    String master = args.length > 2 ? args[2] : "local[2]";
    SparkSession spark = SparkSession.builder().master(master).appName("privet-spark-bench")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8")
        .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    spark.sql("SELECT CAST(id DIV 10 AS BIGINT) AS uid, pmod(xxhash64(id, 17), 1000) AS grp, "
        + "CAST(pmod(xxhash64(id, 29), 100000) AS DOUBLE) / 100.0 AS amount FROM range(" + rows
        + ")").cache().createOrReplaceTempView("events");
    System.out.println("rows " + spark.table("events").count() + " (cached)");
    SparkBackend backend = SparkBackend.on(spark);
    Session session = Session.builder().backend(backend).budgetCharger(BudgetCharger.unlimited())
        .build();
    Query dp = Query.from("events").privacyUnit("uid").maxGroupsContributed(1)
        .maxRowsPerGroup(1).groupBy("grp").count("n").sum("total", "amount", 0, 500)
        .mean("avg", "amount", 0, 500).epsilonDelta(1.0, 1e-6).build();
    String rendered = session.explain(dp).render();
    System.out.println(rendered);
    String sql = rendered.substring(rendered.indexOf("physical plan:\n") + 15).trim();
    boolean variants = Boolean.getBoolean("privet.bench.variants");
    if (variants) {
      String unsorted = sql.substring(0, sql.lastIndexOf(" ORDER BY "));
      for (int round = 0; round <= reps; round++) {
        System.out.printf("variant round %d: statement (fixed salt) %.3f s, unsorted %.3f s%n",
            round, time(() -> drain(spark, sql)), time(() -> drain(spark, unsorted)));
      }
    }
    List<Double> hand = new ArrayList<>();
    List<Double> dpTimes = new ArrayList<>();
    for (int round = 0; round <= reps; round++) {
      double h = time(() -> drain(spark, BOUNDED_BY_HAND));
      double d = time(() -> {
        Result r = session.run(dp);
        return r.rows().size();
      });
      System.out.printf("round %d: (b) %.3f s, DP %.3f s%s%n", round, h, d,
          round == 0 ? " (warm-up)" : "");
      if (round > 0) {
        hand.add(h);
        dpTimes.add(d);
      }
    }
    double mh = median(hand);
    double md = median(dpTimes);
    System.out.printf("median (b) %.3f s, DP %.3f s, DP/(b) %.2f; heap used %d MiB%n", mh, md,
        md / mh, (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
    System.out.println("load average " + ManagementFactory.getOperatingSystemMXBean()
        .getSystemLoadAverage());
    spark.stop();
  }

  private static long drain(SparkSession spark, String sql) {
    long n = 0;
    for (java.util.Iterator<Row> it = spark.sql(sql).toLocalIterator(); it.hasNext(); it.next()) {
      n++;
    }
    return n;
  }

  private interface Job {
    long run();
  }

  private static double time(Job job) {
    long t0 = System.nanoTime();
    long n = job.run();
    if (n < 0) {
      throw new IllegalStateException();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  private static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    Collections.sort(s);
    return s.get(s.size() / 2);
  }
}
