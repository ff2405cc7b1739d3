package org.privet.bench.joins;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.mechanisms.truncation.QuantileThresholdMechanism;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.UnitContributions;
import org.privet.random.RandomSource;

/**
 * Accuracy benchmark for issue 25's truncation over joins (not a speed benchmark): R2T's TPC-H
 * queries with customer as the privacy unit, at R2T's experimental setting (ε = 0.8, β = 0.1, GS =
 * 10^6), on TPC-H generated in Java. For each scale factor and query it prints the median relative
 * error over RUNS releases of
 *
 * <ul>
 *   <li>{@code r2t}: {@link R2TMechanism} (thresholds 2^j, as in the paper); {@code r2t_b8}: the
 *       same with thresholds 8^j (the authors' code uses 5.5^j), for comparison with their figures;
 *   <li>{@code quantile}: {@link QuantileThresholdMechanism} (its defaults: 20% of ε on the
 *       threshold, m = ⌈6.6/ε<sub>q</sub>⌉ units allowed above it; SHARE overrides the 20%);
 *   <li>{@code oracle}: the best fixed threshold τ*, chosen by looking at the data (minimising the
 *       truncation bias plus the median |noise| τ·ln2/ε over every τ), released with the full ε;
 *   <li>{@code naive}: no truncation, noise for the global sensitivity GS (valid because every
 *       customer's contribution here is below GS).
 * </ul>
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.joins.TruncationBench [SCALE_FACTORS [RUNS [SHARE]]]} (defaults {@code 0.1,1},
 * 101 and 0.2).
 */
public final class TruncationBench {
  static final double EPSILON = 0.8;
  static final long GS = 1_000_000;
  static final double BETA = 0.1;

  private TruncationBench() {}

  public static void main(String[] args) {
    String[] scales = (args.length > 0 ? args[0] : "0.1,1").split(",");
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 101;
    double share = args.length > 2 ? Double.parseDouble(args[2]) : 0.2;
    RandomSource random = RandomSource.secure();
    System.out.println(
        "sf,query,units,total,max_contribution,oracle_tau,r2t_tau_median,quantile_tau_median,"
            + "r2t_rel_err,r2t_b8_rel_err,quantile_rel_err,oracle_rel_err,naive_rel_err,r2t_over_oracle,"
            + "quantile_over_oracle");
    for (String s : scales) {
      double sf = Double.parseDouble(s.trim());
      long start = System.nanoTime();
      Map<String, long[]> queries = TpchContributions.generate(sf);
      System.err.printf(
          Locale.ROOT, "sf %s generated in %.1f s%n", s, (System.nanoTime() - start) / 1e9);
      for (Map.Entry<String, long[]> q : queries.entrySet()) {
        report(sf, q.getKey(), UnitContributions.of(q.getValue()), runs, share, random);
      }
    }
  }

  private static void report(
      double sf, String name, UnitContributions c, int runs, double share, RandomSource random) {
    double truth = c.total();
    R2TMechanism r2t =
        R2TMechanism.builder()
            .epsilon(EPSILON)
            .globalSensitivity(GS)
            .beta(BETA)
            .randomSource(random)
            .build();
    R2TMechanism r2t8 =
        R2TMechanism.builder()
            .epsilon(EPSILON)
            .globalSensitivity(GS)
            .beta(BETA)
            .thresholdStep(3)
            .randomSource(random)
            .build();
    QuantileThresholdMechanism quantile =
        QuantileThresholdMechanism.builder()
            .epsilon(EPSILON)
            .globalSensitivity(GS)
            .thresholdShare(share)
            .randomSource(random)
            .build();
    long oracleTau = oracleTau(c);
    GeometricMechanism oracle =
        GeometricMechanism.builder()
            .epsilon(EPSILON)
            .sensitivity(oracleTau)
            .randomSource(random)
            .build();
    GeometricMechanism naive =
        GeometricMechanism.builder().epsilon(EPSILON).sensitivity(GS).randomSource(random).build();
    double[] eR2t = new double[runs];
    double[] eR2t8 = new double[runs];
    double[] eQuantile = new double[runs];
    double[] eOracle = new double[runs];
    double[] eNaive = new double[runs];
    double[] tR2t = new double[runs];
    double[] tQuantile = new double[runs];
    long oracleTruncated = c.evaluate(oracleTau);
    for (int i = 0; i < runs; i++) {
      var r = r2t.release(c);
      eR2t[i] = Math.abs(r.value() - truth) / truth;
      tR2t[i] = r.tau();
      eR2t8[i] = Math.abs(r2t8.release(c).value() - truth) / truth;
      var q = quantile.release(c);
      eQuantile[i] = Math.abs(q.value() - truth) / truth;
      tQuantile[i] = q.tau();
      eOracle[i] = Math.abs(oracle.release(oracleTruncated) - truth) / truth;
      eNaive[i] = Math.abs(naive.release(c.total()) - truth) / truth;
    }
    double mR2t = median(eR2t);
    double mQuantile = median(eQuantile);
    double mOracle = median(eOracle);
    System.out.printf(
        Locale.ROOT,
        "%s,%s,%d,%d,%d,%d,%.0f,%.0f,%.3e,%.3e,%.3e,%.3e,%.3e,%.1f,%.1f%n",
        sf,
        name,
        c.units(),
        c.total(),
        c.maxContribution(),
        oracleTau,
        median(tR2t),
        median(tQuantile),
        mR2t,
        median(eR2t8),
        mQuantile,
        mOracle,
        median(eNaive),
        mR2t / mOracle,
        mQuantile / mOracle);
  }

  /**
   * The oracle's threshold: argmin over τ ≥ 1 of (Q(I) − Q(I, τ)) + τ·ln2/ε (the bias plus the
   * median absolute Laplace noise). The objective is convex and piecewise linear in τ with breaks
   * at the contributions, so only τ = 1 and the distinct contributions are tried.
   */
  static long oracleTau(UnitContributions c) {
    long total = c.total();
    long best = 1;
    double bestCost = Double.POSITIVE_INFINITY;
    long max = Math.max(1, c.maxContribution());
    for (long tau = 1; tau <= max; tau++) {
      double cost = (total - c.evaluate(tau)) + tau * Math.log(2) / EPSILON;
      if (cost < bestCost) {
        bestCost = cost;
        best = tau;
      }
    }
    return best;
  }

  private static double median(double[] x) {
    double[] s = x.clone();
    Arrays.sort(s);
    int n = s.length;
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  }
}
