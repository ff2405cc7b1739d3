package org.privet.bench.joins;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.mechanisms.truncation.QuantileThresholdMechanism;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.UnitContributions;
import org.privet.random.RandomSource;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;
import org.privet.sql.DpSql;

/**
 * Issue 25's TPC-H benchmark on DuckDB (a harness, not JMH): R2T's TPC-H queries ({@link
 * TpchQuery}) with customer as the privacy unit, over CSV files written by {@code privet data
 * tpch}, at R2T's setting (ε = 0.8, β = 0.1, GS = 10^6).
 *
 * <p><b>Accuracy.</b> Per query, the per-unit contributions are read from DuckDB by the join's
 * {@code GROUP BY} unit (not from the generator, as {@link TruncationBench} does), then released
 * RUNS times by each method: {@code quantile} ({@link QuantileThresholdMechanism}, the default of
 * docs/proofs/r2t-truncation.md), {@code r2t} ({@link R2TMechanism}, thresholds 2^j), {@code
 * oracle} (the best fixed threshold τ*, chosen seeing the data, released with the full ε) and
 * {@code naive} (no truncation, noise for GS). Reported: the median relative error |release −
 * Q(I)|/Q(I), and for the comparison with the paper the authors' metric (the mean absolute error
 * after dropping the largest and smallest 20%, {@code Script/CollectResultsTPCH.py}) ÷ Q(I), also
 * for R2T with thresholds 8^j (closer to the authors' 5.5^j).
 *
 * <p><b>The engine.</b> Each query Privet's DP SQL can state ({@link TpchQuery#dpSql}, no
 * contribution bound given, so the engine chooses the truncation privately) is also run
 * ENGINE_RUNS times through {@link DpSql} and {@link Session} on {@link DuckDbBackend}, on the
 * dataset of {@link #catalog} (column {@code engine}).
 *
 * <p><b>Time.</b> Interleaved rounds (one warm-up, then ROUNDS measured, medians) of the plain
 * join ({@link TpchQuery#plain}, the analyst's query without DP), the engine's DP SQL, and this
 * harness's DP pipeline (the contribution summary {@link TpchQuery#histogram} plus the quantile
 * release in Java).
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar org.privet.bench.joins.TpchJoinBench
 * SF=DIR[,SF=DIR...] [RUNS [ROUNDS [THREADS [ENGINE_RUNS [QUERIES [METHOD]]]]]]} (defaults 101,
 * 5, 2, 21, every query ({@code all}), {@code default}; QUERIES is a comma-separated list of names
 * such as {@code Q18}); RUNS = 0 measures time only (no accuracy table). The self-join queries
 * ({@code tpch-selfjoin-queries.txt}, e.g. {@code SJ1}: orders joined with itself on the
 * customer) run only when QUERIES names them. METHOD {@code r2t}: the engine's DP SQL asks for
 * R2T ({@code truncation = 'R2T', truncation_bound = GS}) instead of leaving the bound to the
 * engine's estimate.
 */
public final class TpchJoinBench {
  static final double EPSILON = 0.8;
  static final long GS = 1_000_000;
  static final double BETA = 0.1;

  /**
   * The authors' published errors at SF 1, ε = 0.8 (Result/TPCH/R2T_Q*.txt: true answer, trimmed
   * mean absolute error), for the queries that are theirs with the same unit.
   */
  static final Map<String, double[]> PAPER_SF1 = Map.of(
      "Q3", new double[] {2_888_656, 7338.6182154278895},
      "Q10", new double[] {1_500_000, 2615.490131188417},
      "Q18", new double[] {153_078_795, 201957.5274197956});

  /** Whether the engine's DP SQL asks for R2T (METHOD {@code r2t}). */
  private static boolean r2tEngine;

  private TpchJoinBench() {}

  /**
   * With {@code -Dtpch.declareKeys=true}: TPC-H's primary key of orders (o_orderkey, the target of
   * lineitem's reference) declared and o_custkey NOT NULL, as the owner of a database with the
   * TPC-H schema would declare them; the engine then needs no broken-key check for line items
   * (docs/proofs/engine-joins.md, "Keys the database guarantees"). Off by default (the tables as
   * loaded from CSV, no constraint).
   */
  static void declareKeysIfAsked(Statement s) throws SQLException {
    if (!Boolean.getBoolean("tpch.declareKeys")) {
      return;
    }
    s.execute("ALTER TABLE orders ADD PRIMARY KEY (o_orderkey)");
    s.execute("ALTER TABLE orders ALTER COLUMN o_custkey SET NOT NULL");
    System.err.println("keys declared: orders(o_orderkey), o_custkey NOT NULL");
  }

  /** The engine's DP SQL for {@code q}: no bound given, or R2T with METHOD {@code r2t}. */
  static String engineSql(TpchQuery q) {
    return r2tEngine ? q.dpSqlR2T(EPSILON, GS) : q.dpSql(EPSILON);
  }

  public static void main(String[] args) throws SQLException {
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 101;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    int engineRuns = args.length > 4 ? Integer.parseInt(args[4]) : 21;
    // Optional: only these queries (comma-separated names, e.g. Q18), all by default.
    java.util.Set<String> only = args.length > 5 && !args[5].equals("all")
        ? java.util.Set.of(args[5].split(",")) : null;
    r2tEngine = args.length > 6 && args[6].equals("r2t");
    RandomSource random = RandomSource.secure();
    List<String> accuracy = new ArrayList<>();
    List<String> timing = new ArrayList<>();
    accuracy.add("| SF | query | Q(I) | max c_u | τ* | τ quantile / r2t / engine L∞ (median) | engine"
        + " | quantile"
        + " | r2t | oracle | naive | engine ÷ oracle | quantile ÷ oracle | quantile ÷ r2t |");
    accuracy.add("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    List<String> vsPaper = new ArrayList<>();
    vsPaper.add("| query (SF 1) | Q(I) ours / theirs | paper R2T (base 5.5) | r2t (2^j) |"
        + " r2t (8^j) | quantile | oracle | engine |");
    vsPaper.add("|---|---|---|---|---|---|---|---|");
    timing.add("| SF | query | plain join (s) | engine DP SQL (s) | engine ÷ plain | harness DP (s)"
        + " | of which release (s) | harness ÷ plain |");
    timing.add("|---|---|---|---|---|---|---|---|");
    for (String pair : args[0].split(",")) {
      String[] p = pair.split("=", 2);
      String sf = p[0];
      try (DuckDbBackend db = DuckDbBackend.inMemory();
          Statement s = db.trustedConnection().createStatement()) {
        s.execute("SET threads = " + threads);
        long start = System.nanoTime();
        for (String table : TABLES) {
          Path csv = Path.of(p[1], table + ".csv");
          if (Files.exists(csv)) {
            s.execute("CREATE TABLE " + table + " AS SELECT * FROM read_csv('" + csv
                + "', header = true)");
          }
        }
        declareKeysIfAsked(s);
        System.err.printf(Locale.ROOT, "SF %s loaded in %.1f s%n", sf,
            (System.nanoTime() - start) / 1e9);
        DatasetCatalog catalog = catalog(db);
        Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
            .randomSource(random).build();
        List<TpchQuery> queries = new ArrayList<>(TpchQuery.all());
        if (only != null) { // opt-in: the self-join queries run only when named
          queries.addAll(TpchQuery.selfJoins());
        }
        for (TpchQuery q : queries) {
          if (only != null && !only.contains(q.name())) {
            continue;
          }
          if (runs == 0) { // timing only
            timing.add(timingRow(sf, q, s, session, catalog, rounds, random));
            System.err.println(timing.get(timing.size() - 1));
            continue;
          }
          long[] perUnit = contributions(s, q);
          UnitContributions contributions = UnitContributions.of(perUnit);
          long plainAnswer = plainAnswer(s, q);
          if (plainAnswer != contributions.total()) {
            throw new IllegalStateException(q.name() + ": plain " + plainAnswer
                + " != sum of contributions " + contributions.total());
          }
          double[] engine = new double[q.expressible() ? engineRuns : 0];
          double[] engineLinf = new double[engine.length];
          if (q.expressible()) {
            Query dp = DpSql.parse(engineSql(q), catalog).query();
            if (q.name().equals("Q3")) {
              System.err.println(session.explain(dp).render());
            }
            for (int i = 0; i < engineRuns; i++) {
              Result r = session.run(dp);
              engine[i] = Math.abs(r.rows().get(0).get("v").value() - plainAnswer) / plainAnswer;
              engineLinf[i] = r.estimatedMaxRowsPerGroup();
            }
            // The spread of the engine's L∞ and its mean error: false raises show here first.
            double[] sorted = engineLinf.clone();
            java.util.Arrays.sort(sorted);
            System.err.printf(Locale.ROOT, "%s SF %s engine L∞ min / median / max %.0f / %.0f /"
                + " %.0f, mean relative error %.2e%n", q.name(), sf, sorted[0], median(sorted),
                sorted[sorted.length - 1], java.util.Arrays.stream(engine).average().orElse(0));
          }
          String[] rows = accuracyRows(sf, q.name(), perUnit, runs, random, engine, engineLinf);
          accuracy.add(rows[0]);
          if (rows[1] != null) {
            vsPaper.add(rows[1]);
          }
          timing.add(timingRow(sf, q, s, session, catalog, rounds, random));
          System.err.println(accuracy.get(accuracy.size() - 1));
          System.err.println(timing.get(timing.size() - 1));
        }
      }
    }
    System.out.println(String.join("\n", accuracy));
    System.out.println();
    System.out.println(String.join("\n", vsPaper));
    System.out.println();
    System.out.println(String.join("\n", timing));
  }

  static final List<String> TABLES = List.of("customer", "orders", "lineitem", "nation",
      "region", "supplier");

  /**
   * The TPC-H dataset as Privet registers it (issue 25): customer the unit table, orders and
   * lineitem private along their references, nation, region and supplier public.
   */
  static DatasetCatalog catalog(Backend backend) {
    DatasetDescriptor.Builder b = DatasetDescriptor.builder("tpch", Source.table("customer"),
            backend.describe(Source.table("customer"))).privacyUnit("c_custkey")
        .unitTable("customer", List.of(new Reference("c_nationkey", "nation", "n_nationkey")));
    for (String[] t : PRIVATE_AND_PUBLIC) {
      b.addTable(new TableDescriptor(t[0], Source.table(t[0]), backend.describe(Source.table(t[0])),
          t.length == 1 ? List.of() : List.of(new Reference(t[1], t[2], t[3])), t.length == 1));
    }
    DatasetDescriptor tpch = b.build();
    return DatasetCatalog.of(tpch);
  }

  /** The tables besides customer: private ones with their reference, then public ones. */
  private static final String[][] PRIVATE_AND_PUBLIC = {
      {"orders", "o_custkey", "customer", "c_custkey"},
      {"lineitem", "l_orderkey", "orders", "o_orderkey"}, {"nation"}, {"region"}, {"supplier"}};

  /** Reads the contribution summary of {@code q} and expands it to one long per unit. */
  static long[] contributions(Statement s, TpchQuery q) throws SQLException {
    List<long[]> rows = new ArrayList<>();
    int units = 0;
    try (ResultSet rs = s.executeQuery(q.histogram())) {
      while (rs.next()) {
        long value = rs.getLong(1);
        int n = Math.toIntExact(rs.getLong(2));
        rows.add(new long[] {value, n});
        units += n;
      }
    }
    long[] out = new long[units];
    int i = 0;
    for (long[] r : rows) {
      Arrays.fill(out, i, i + (int) r[1], r[0]);
      i += (int) r[1];
    }
    return out;
  }

  static long plainAnswer(Statement s, TpchQuery q) throws SQLException {
    try (ResultSet rs = s.executeQuery(q.plain())) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static QuantileThresholdMechanism quantile(RandomSource random) {
    return QuantileThresholdMechanism.builder().epsilon(EPSILON).globalSensitivity(GS)
        .randomSource(random).build();
  }

  /** The accuracy row of one query, and its row of the comparison with the paper (or null). */
  static String[] accuracyRows(String sf, String name, long[] perUnit, int runs,
      RandomSource random, double[] engine, double[] engineLinf) {
    UnitContributions c = UnitContributions.of(perUnit);
    double truth = c.total();
    QuantileThresholdMechanism quantile = quantile(random);
    R2TMechanism r2t = R2TMechanism.builder().epsilon(EPSILON).globalSensitivity(GS).beta(BETA)
        .randomSource(random).build();
    R2TMechanism r2t8 = R2TMechanism.builder().epsilon(EPSILON).globalSensitivity(GS).beta(BETA)
        .thresholdStep(3).randomSource(random).build();
    long tauStar = oracleTau(perUnit);
    GeometricMechanism oracle = GeometricMechanism.builder().epsilon(EPSILON).sensitivity(tauStar)
        .randomSource(random).build();
    GeometricMechanism naive = GeometricMechanism.builder().epsilon(EPSILON).sensitivity(GS)
        .randomSource(random).build();
    long oracleTruncated = c.evaluate(tauStar);
    double[] eQ = new double[runs];
    double[] eR = new double[runs];
    double[] eR8 = new double[runs];
    double[] eO = new double[runs];
    double[] eN = new double[runs];
    double[] tQ = new double[runs];
    double[] tR = new double[runs];
    for (int i = 0; i < runs; i++) {
      var q = quantile.release(c);
      eQ[i] = Math.abs(q.value() - truth) / truth;
      tQ[i] = q.tau();
      var r = r2t.release(c);
      eR[i] = Math.abs(r.value() - truth) / truth;
      tR[i] = r.tau();
      eR8[i] = Math.abs(r2t8.release(c).value() - truth) / truth;
      eO[i] = Math.abs(oracle.release(oracleTruncated) - truth) / truth;
      eN[i] = Math.abs(naive.release(c.total()) - truth) / truth;
    }
    String engineCell = engine.length == 0 ? "–" : String.format(Locale.ROOT, "%.2e",
        median(engine));
    String engineRatio = engine.length == 0 ? "–" : String.format(Locale.ROOT, "%.1f",
        median(engine) / median(eO));
    String main = String.format(Locale.ROOT,
        "| %s | %s | %,d | %,d | %,d | %.0f / %.0f / %s | %s | %.2e | %.2e | %.2e | %.2e | %s |"
            + " %.1f | %.3f |",
        sf, name, c.total(), c.maxContribution(), tauStar, median(tQ), median(tR),
        engine.length == 0 ? "–" : String.format(Locale.ROOT, "%.0f", median(engineLinf)),
        engineCell,
        median(eQ), median(eR), median(eO), median(eN), engineRatio, median(eQ) / median(eO),
        median(eQ) / median(eR));
    double[] paper = sf.equals("1") ? PAPER_SF1.get(name) : null;
    String vsPaper = paper == null ? null : String.format(Locale.ROOT,
        "| %s | %,d / %,d | %.2e | %.2e | %.2e | %.2e | %.2e | %s |", name, c.total(),
        (long) paper[0], paper[1] / paper[0], trimmedMean(eR), trimmedMean(eR8), trimmedMean(eQ),
        trimmedMean(eO), engine.length == 0 ? "–"
            : String.format(Locale.ROOT, "%.2e", trimmedMean(engine)));
    return new String[] {main, vsPaper};
  }

  static String timingRow(String sf, TpchQuery q, Statement s, Session session,
      DatasetCatalog catalog, int rounds, RandomSource random) throws SQLException {
    QuantileThresholdMechanism quantile = quantile(random);
    Query dp = q.expressible() ? DpSql.parse(engineSql(q), catalog).query() : null;
    double[] plain = new double[rounds];
    double[] engine = new double[rounds];
    double[] harness = new double[rounds];
    double[] release = new double[rounds];
    for (int round = 0; round <= rounds; round++) {
      long t0 = System.nanoTime();
      plainAnswer(s, q);
      long t1 = System.nanoTime();
      if (dp != null) {
        session.run(dp);
      }
      long t2 = System.nanoTime();
      UnitContributions c = UnitContributions.of(contributions(s, q));
      long t3 = System.nanoTime();
      quantile.release(c);
      long t4 = System.nanoTime();
      if (round > 0) {
        plain[round - 1] = (t1 - t0) / 1e9;
        engine[round - 1] = (t2 - t1) / 1e9;
        harness[round - 1] = (t4 - t2) / 1e9;
        release[round - 1] = (t4 - t3) / 1e9;
      }
    }
    return String.format(Locale.ROOT, "| %s | %s | %.3f | %s | %s | %.3f | %.3f | %.2f |", sf,
        q.name(), median(plain), dp == null ? "–" : String.format(Locale.ROOT, "%.3f",
            median(engine)), dp == null ? "–" : String.format(Locale.ROOT, "%.2f",
            median(engine) / median(plain)), median(harness), median(release),
        median(harness) / median(plain));
  }

  /**
   * The oracle's threshold: argmin over τ ≥ 1 of the bias Σ<sub>u</sub> max(c<sub>u</sub> − τ, 0)
   * plus the median absolute noise τ·ln2/ε. The objective is convex and piecewise linear in τ with
   * breaks at the contributions, so τ = 1 and the distinct contributions are the only candidates.
   */
  static long oracleTau(long[] contributions) {
    long[] sorted = contributions.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double[] suffix = new double[n + 1];
    for (int i = n - 1; i >= 0; i--) {
      suffix[i] = suffix[i + 1] + sorted[i];
    }
    long best = 1;
    double bestCost = Double.POSITIVE_INFINITY;
    int i = 0;
    List<Long> candidates = new ArrayList<>();
    candidates.add(1L);
    for (long v : sorted) {
      if (v > 1 && v != candidates.get(candidates.size() - 1)) {
        candidates.add(v);
      }
    }
    for (long tau : candidates) {
      while (i < n && sorted[i] <= tau) {
        i++;
      }
      double bias = suffix[i] - (double) tau * (n - i);
      double cost = bias + tau * Math.log(2) / EPSILON;
      if (cost < bestCost) {
        bestCost = cost;
        best = tau;
      }
    }
    return best;
  }

  static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }

  /** The authors' metric: the mean after dropping the largest and smallest 20%. */
  static double trimmedMean(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    int drop = s.length / 5;
    double sum = 0;
    for (int i = drop; i < s.length - drop; i++) {
      sum += s[i];
    }
    return sum / (s.length - 2 * drop);
  }
}
