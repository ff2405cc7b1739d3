package org.privet.engine.spark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.mechanisms.truncation.QuantileThresholdMechanism;
import org.privet.mechanisms.truncation.UnitContributions;
import org.privet.random.RandomSource;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;
import org.privet.sql.DpSql;

/**
 * Issue 25's TPC-H time benchmark on Spark (a harness, not a test): for each of R2T's TPC-H
 * queries with customer as the privacy unit (the data file {@code
 * privet-bench/src/main/resources/org/privet/bench/joins/tpch-queries.txt}, shared with
 * privet-bench's {@code TpchJoinBench}, which measures accuracy and DuckDB), interleaved rounds of
 * the plain join (the analyst's query without DP) and the DP pipeline (the per-unit contribution
 * summary, {@code GROUP BY} the unit then by contribution, plus the quantile-threshold release in
 * Java at ε = 0.8, GS = 10^6), on tables read from the CSV files of {@code privet data tpch} and
 * cached; and, where the DP SQL dialect can state the query, the engine's DP SQL over joins on
 * {@link SparkBackend} (no contribution bound given: the engine chooses the truncation privately).
 * One warm-up round, then ROUNDS measured; medians.
 *
 * <p>Arguments: {@code SF=DIR[,SF=DIR...] [ROUNDS [MASTER]]} (defaults 5, local[2]). Run from the
 * repository root; the command is in docs/benchmarks.md.
 */
public final class SparkJoinBench {
  private SparkJoinBench() {}

  record JoinQuery(String name, String unit, String aggregate, String dpAggregate,
      String fromWhere) {
    String plain() {
      return "SELECT " + aggregate + " " + fromWhere;
    }

    boolean expressible() {
      return !dpAggregate.equals("-");
    }

    String dpSql() {
      return "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.8) " + dpAggregate + " AS v "
          + fromWhere;
    }

    String histogram() {
      return "SELECT c, COUNT(*) AS units FROM (SELECT " + unit + " AS u, " + aggregate + " AS c "
          + fromWhere + " GROUP BY " + unit + ") per_unit GROUP BY c";
    }
  }

  static List<JoinQuery> queries() throws java.io.IOException {
    List<JoinQuery> out = new ArrayList<>();
    Path file = org.privet.testing.Repository.root()
        .resolve("privet-bench/src/main/resources/org/privet/bench/joins/tpch-queries.txt");
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(" \\| ", 5);
      out.add(new JoinQuery(f[0].strip(), f[1].strip(), f[2].strip(), f[3].strip(),
          f[4].strip()));
    }
    return out;
  }

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String master = args.length > 2 ? args[2] : "local[2]";
    SparkSession spark = SparkSession.builder().master(master).appName("privet-join-bench")
        .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "8")
        .config("spark.sql.session.timeZone", "UTC").getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    RandomSource random = RandomSource.secure();
    QuantileThresholdMechanism quantile = QuantileThresholdMechanism.builder().epsilon(0.8)
        .globalSensitivity(1_000_000).randomSource(random).build();
    SparkBackend backend = SparkBackend.on(spark);
    Session session = Session.builder().backend(backend).budgetCharger(BudgetCharger.unlimited())
        .randomSource(random).build();
    List<String> table = new ArrayList<>();
    table.add("| SF | query | plain join (s) | engine DP SQL (s) | engine ÷ plain | harness DP (s)"
        + " | harness ÷ plain |");
    table.add("|---|---|---|---|---|---|---|");
    for (String pair : args[0].split(",")) {
      String[] p = pair.split("=", 2);
      for (String t : List.of("customer", "orders", "lineitem", "nation", "region", "supplier")) {
        Path csv = Path.of(p[1], t + ".csv");
        spark.catalog().dropTempView(t);
        if (Files.exists(csv)) {
          var df = spark.read().option("header", "true").option("inferSchema", "true")
              .csv(csv.toString()).cache();
          System.err.printf(Locale.ROOT, "SF %s %s: %,d rows (cached)%n", p[0], t, df.count());
          df.createOrReplaceTempView(t);
          backend.registerDataFrame(t, df);
        }
      }
      DatasetCatalog catalog = catalog(backend);
      for (JoinQuery q : queries()) {
        Query dpQuery = q.expressible() ? DpSql.parse(q.dpSql(), catalog).query() : null;
        double[] plain = new double[rounds];
        double[] engine = new double[rounds];
        double[] dp = new double[rounds];
        for (int round = 0; round <= rounds; round++) {
          long t0 = System.nanoTime();
          Row r = spark.sql(q.plain()).collectAsList().get(0);
          long plainAnswer = ((Number) r.get(0)).longValue();
          long t1 = System.nanoTime();
          if (dpQuery != null) {
            session.run(dpQuery);
          }
          long t2 = System.nanoTime();
          long[] perUnit = expand(spark.sql(q.histogram()).collectAsList());
          quantile.release(UnitContributions.of(perUnit));
          long t3 = System.nanoTime();
          if (Arrays.stream(perUnit).sum() != plainAnswer) {
            throw new IllegalStateException(q.name() + ": plain answer != sum of contributions");
          }
          if (round > 0) {
            plain[round - 1] = (t1 - t0) / 1e9;
            engine[round - 1] = (t2 - t1) / 1e9;
            dp[round - 1] = (t3 - t2) / 1e9;
          }
        }
        String row = String.format(Locale.ROOT, "| %s | %s | %.3f | %s | %s | %.3f | %.2f |",
            p[0], q.name(), median(plain), dpQuery == null ? "–"
                : String.format(Locale.ROOT, "%.3f", median(engine)), dpQuery == null ? "–"
                : String.format(Locale.ROOT, "%.2f", median(engine) / median(plain)),
            median(dp), median(dp) / median(plain));
        System.err.println(row);
        table.add(row);
      }
      for (String t : List.of("customer", "orders", "lineitem", "nation", "region", "supplier")) {
        if (spark.catalog().tableExists(t)) {
          spark.table(t).unpersist();
        }
      }
    }
    System.out.println(String.join("\n", table));
    spark.stop();
  }

  /** The TPC-H dataset: customer the unit table, orders and lineitem private, the rest public. */
  static DatasetCatalog catalog(SparkBackend backend) {
    String[][] tables = {{"orders", "o_custkey", "customer", "c_custkey"},
        {"lineitem", "l_orderkey", "orders", "o_orderkey"}, {"nation"}, {"region"}, {"supplier"}};
    DatasetDescriptor.Builder b = DatasetDescriptor.builder("tpch", Source.table("customer"),
            backend.describe(Source.table("customer"))).privacyUnit("c_custkey")
        .unitTable("customer", List.of(new Reference("c_nationkey", "nation", "n_nationkey")));
    for (String[] t : tables) {
      b.addTable(new TableDescriptor(t[0], Source.table(t[0]), backend.describe(Source.table(t[0])),
          t.length == 1 ? List.of() : List.of(new Reference(t[1], t[2], t[3])), t.length == 1));
    }
    DatasetDescriptor tpch = b.build();
    return DatasetCatalog.of(tpch);
  }

  private static long[] expand(List<Row> histogram) {
    long units = 0;
    for (Row r : histogram) {
      units += ((Number) r.get(1)).longValue();
    }
    long[] out = new long[Math.toIntExact(units)];
    int i = 0;
    for (Row r : histogram) {
      int n = (int) ((Number) r.get(1)).longValue();
      Arrays.fill(out, i, i + n, ((Number) r.get(0)).longValue());
      i += n;
    }
    return out;
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
}
