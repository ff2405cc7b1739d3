package org.privet.stattests.truncation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.LongToDoubleFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.privet.mechanisms.truncation.QuantileThresholdMechanism;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.TruncationResult;
import org.privet.mechanisms.truncation.UnitContributions;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;
import org.privet.testing.SeededRandomSource;

/**
 * The noise of the truncation mechanisms against the law the papers state, computed here from the
 * formulas (not from the mechanisms' getters), with power against 30% less noise.
 *
 * <p>Test: the Kolmogorov distance D between the empirical CDF of N releases and the reference CDF,
 * evaluated at every integer of the sample range (exact for integer-valued laws). By the DKW
 * inequality with Massart's constant, valid for every distribution, P[D &gt; d] ≤
 * 2e<sup>−2Nd²</sup>; d is set so that this is α = 10<sup>−6</sup> per check, the false-failure
 * probability of each check below. Fixed seeds.
 */
class TruncationStatTest {
  private static final int N = 20_000;
  private static final double ALPHA = 1e-6;
  private static final double D_MAX = Math.sqrt(Math.log(2 / ALPHA) / (2.0 * N));

  /** P[Z ≤ k] for the discrete Laplace law P[Z = z] ∝ exp(−|z|/t). */
  static double discreteLaplaceCdf(double t, long k) {
    double q = Math.exp(-1 / t);
    return k >= 0 ? 1 - Math.pow(q, k + 1) / (1 + q) : Math.pow(q, -k) / (1 + q);
  }

  static double kolmogorovDistance(long[] sample, LongToDoubleFunction cdf) {
    long[] s = sample.clone();
    Arrays.sort(s);
    double d = 0;
    int i = 0;
    for (long x = s[0] - 1; x <= s[s.length - 1]; x++) {
      while (i < s.length && s[i] <= x) {
        i++;
      }
      d = Math.max(d, Math.abs((double) i / s.length - cdf.applyAsDouble(x)));
    }
    return d;
  }

  // ---- R2T: 1000 units contributing 1, so Q(I, τ) = 1000 for every τ ≥ 1 ----
  private static final double EPS = 1.0;
  private static final int L = 4; // GS = 16
  private static final double BETA = 0.1;
  private static final long Q = 1000;

  /** The paper's law of the release: max(0, max_j Q + Z_j − b_j), Z_j of scale L·2^j/ε. */
  private static double r2tCdf(long x) {
    if (x < 0) {
      return 0;
    }
    double p = 1;
    for (int j = 1; j <= L; j++) {
      double t = L * (double) (1L << j) / EPS;
      long b = (long) Math.ceil(t * Math.log(L / BETA));
      p *= discreteLaplaceCdf(t, x - Q + b);
    }
    return p;
  }

  @Test
  void r2t_releaseLaw_matchesPaperFormula() {
    R2TMechanism m =
        R2TMechanism.builder()
            .epsilon(EPS)
            .globalSensitivity(16)
            .beta(BETA)
            .randomSource(new SeededRandomSource(2501))
            .build();
    UnitContributions c = UnitContributions.of(LongStream.generate(() -> 1).limit(Q).toArray());
    long[] sample = new long[N];
    for (int i = 0; i < N; i++) {
      sample[i] = m.release(c).value();
    }
    double d = kolmogorovDistance(sample, TruncationStatTest::r2tCdf);
    assertTrue(d <= D_MAX, "D = " + d + " > " + D_MAX);
  }

  @Test
  void r2t_thirtyPercentLessNoise_rejected() {
    // The same release with every scale 0.7·L·2^j/ε = (28·2^j)/10 (bias unchanged).
    RandomSource r = new SeededRandomSource(2502);
    long[] sample = new long[N];
    for (int i = 0; i < N; i++) {
      long best = 0;
      for (int j = 1; j <= L; j++) {
        double t = L * (double) (1L << j) / EPS;
        long b = (long) Math.ceil(t * Math.log(L / BETA));
        best = Math.max(best, Q + DiscreteLaplace.sample(r, 28L << j, 10) - b);
      }
      sample[i] = best;
    }
    double d = kolmogorovDistance(sample, TruncationStatTest::r2tCdf);
    assertTrue(d > D_MAX, "power: D = " + d + " ≤ " + D_MAX);
  }

  // ---- Quantile threshold: c_u = u for u = 1..10000, m = 1000, ε = 1, 10% on the threshold ----
  // #{c > 8192} = 1808 and #{c > 16384} = 0; AboveThreshold's noises ν, ρ have scale 2/0.1 = 20,
  // so it stops at 8192 or earlier only if ν − ρ ≥ 808, and passes 16384 only if ν − ρ < −1000:
  // each has probability < e^{−35}. Then the release is Σ u + Z, Z of scale 16384/0.9.
  private static final long TAU = 16384;
  private static final long TRUNCATED = 10_000L * 10_001 / 2;
  private static final double SUM_SCALE = TAU / 0.9;

  @Test
  void quantile_sumNoise_matchesDiscreteLaplaceAtChosenThreshold() {
    QuantileThresholdMechanism m =
        QuantileThresholdMechanism.builder()
            .epsilon(1)
            .globalSensitivity(1 << 20)
            .unitsAbove(1000)
            .thresholdShare(0.1)
            .randomSource(new SeededRandomSource(2503))
            .build();
    UnitContributions c = UnitContributions.of(LongStream.rangeClosed(1, 10_000).toArray());
    long[] residual = new long[N];
    for (int i = 0; i < N; i++) {
      TruncationResult r = m.release(c);
      assertEquals(TAU, r.tau());
      residual[i] = r.value() - TRUNCATED;
    }
    double d = kolmogorovDistance(residual, k -> discreteLaplaceCdf(SUM_SCALE, k));
    assertTrue(d <= D_MAX, "D = " + d + " > " + D_MAX);
  }

  @Test
  void quantile_thirtyPercentLessNoise_rejected() {
    RandomSource r = new SeededRandomSource(2504);
    long[] residual = new long[N];
    for (int i = 0; i < N; i++) {
      residual[i] = DiscreteLaplace.sample(r, 7 * TAU, 9); // 0.7·τ/0.9
    }
    double d = kolmogorovDistance(residual, k -> discreteLaplaceCdf(SUM_SCALE, k));
    assertTrue(d > D_MAX, "power: D = " + d + " ≤ " + D_MAX);
  }
}
