package org.privet.engine.release;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.privet.engine.compile.MeanPlanner;
import org.privet.random.RandomSource;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * The ratio intervals of {@link RatioIntervals} against simulation with the engine's own noises
 * (seeded): coverage ≥ 95% (a one-sided Clopper–Pearson upper bound at level 1 − 1e-4 must reach
 * 0.95, false failure ≤ 1e-4 per check), half-width ≤ 1.5× the empirical 95% error, and power:
 * intervals computed as if the noise were 30% smaller must under-cover. The reference is the
 * simulated error itself, not the engine's formulas. A small group (N = 300) with the mean far
 * from the centre makes the count's noise matter.
 */
class RatioIntervalsTest {
  private static final int TRIALS = 20_000;
  private static final double BETA = 0.05;
  private static final double UNIT = 0.01; // value range [−10, 10] centred at 0
  private static final int N = 300;

  /** ε = share (Laplace) or ρ = share²/2 (Gaussian), the noise's scale times {@code shrink}. */
  private static MechanismSpec spec(boolean gaussian, double share, long sensitivity,
      double shrink) {
    return gaussian ? new MechanismSpec.DiscreteGaussian(Math.pow(share / shrink, 2) / 2,
        sensitivity, 0) : new MechanismSpec.Geometric(share / shrink, sensitivity);
  }

  private static MechanismSpec spec(boolean gaussian, double share, long sensitivity) {
    return spec(gaussian, share, sensitivity, 1);
  }

  /** Values in [−10, 10] with mean ≈ 6: fixed data, exact grid sums. */
  private static long[] data() {
    long[] x = new long[N];
    for (int i = 0; i < N; i++) {
      x[i] = Math.round((6 + 4 * Math.sin(i * 0.7)) / UNIT);
      x[i] = Math.max(-1000, Math.min(1000, x[i]));
    }
    return x;
  }

  /** Hits, and the 95% quantile of |error| ÷ half-width. */
  private static double[] mean(boolean gaussian, double assumedShrink, long seed) {
    RandomSource random = new SeededRandomSource(seed);
    long[] x = data();
    long sum = Arrays.stream(x).sum();
    double truth = (double) sum / N * UNIT;
    Releases.Noise zs = Releases.noise(spec(gaussian, 0.5, 1000), random);
    Releases.Noise zc = Releases.noise(spec(gaussian, 0.5, 1), random);
    Releases.Noise as = Releases.noise(spec(gaussian, 0.5, 1000, assumedShrink), random);
    Releases.Noise ac = Releases.noise(spec(gaussian, 0.5, 1, assumedShrink), random);
    long hits = 0;
    double[] scaled = new double[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
      long s = zs.release(sum);
      long n = zc.release(N);
      double[] set = RatioIntervals.meanSet(s * UNIT, n, UNIT, as, ac, -10, 10, BETA);
      hits += truth >= set[0] && truth <= set[1] ? 1 : 0;
      double value = MeanPlanner.clamp((double) s / n * UNIT, -10, 10);
      scaled[t] = Math.abs(value - truth) / ((set[1] - set[0]) / 2);
    }
    Arrays.sort(scaled);
    return new double[] {hits, scaled[(int) Math.ceil(0.95 * TRIALS) - 1]};
  }

  private static double[] variance(boolean gaussian, double assumedShrink, long seed) {
    RandomSource random = new SeededRandomSource(seed);
    long[] x = data();
    long sum = Arrays.stream(x).sum();
    long squares = Arrays.stream(x).map(v -> v * v).sum();
    double mu = (double) sum / N;
    double truth = ((double) squares / N - mu * mu) * UNIT * UNIT;
    double e = 1.0 / 3;
    Releases.Noise zs = Releases.noise(spec(gaussian, e, 1000), random);
    Releases.Noise zq = Releases.noise(spec(gaussian, e, 1_000_000), random);
    Releases.Noise zc = Releases.noise(spec(gaussian, e, 1), random);
    Releases.Noise as = Releases.noise(spec(gaussian, e, 1000, assumedShrink), random);
    Releases.Noise aq = Releases.noise(spec(gaussian, e, 1_000_000, assumedShrink), random);
    Releases.Noise ac = Releases.noise(spec(gaussian, e, 1, assumedShrink), random);
    long hits = 0;
    double[] scaled = new double[TRIALS];
    for (int t = 0; t < TRIALS; t++) {
      long s = zs.release(sum);
      long q = zq.release(squares);
      long n = zc.release(N);
      double[] set = RatioIntervals.varianceSet(s * UNIT, q * UNIT * UNIT, n, UNIT, UNIT * UNIT,
          0, 0, as, aq, ac, -10, 10, 100, BETA);
      hits += truth >= set[0] && truth <= set[1] ? 1 : 0;
      double m = (double) s / n * UNIT;
      double value = MeanPlanner.clamp((double) q / n * UNIT * UNIT - m * m, 0, 100);
      scaled[t] = Math.abs(value - truth) / ((set[1] - set[0]) / 2);
    }
    Arrays.sort(scaled);
    return new double[] {hits, scaled[(int) Math.ceil(0.95 * TRIALS) - 1]};
  }

  private static void assertCalibrated(String what, double[] ok, double[] narrow) {
    System.out.printf("ratio-intervals | %s | coverage %d/%d | width/q95 %.3f | 30%% less noise:"
        + " %d/%d%n", what, (long) ok[0], TRIALS, 1 / ok[1], (long) narrow[0], TRIALS);
    assertTrue(ClopperPearson.upperBound((long) ok[0], TRIALS, 1e-4) >= 1 - BETA,
        what + " covers " + ok[0] + "/" + TRIALS);
    assertTrue(1 / ok[1] <= 1.5, what + ": half-width " + 1 / ok[1] + "× the 95% error");
    assertFalse(ClopperPearson.upperBound((long) narrow[0], TRIALS, 1e-4) >= 1 - BETA,
        what + ": 30% too little assumed noise must under-cover: " + narrow[0] + "/" + TRIALS);
  }

  @Test
  void meanSet_geometricNoise_coversAndIsTight() {
    assertCalibrated("mean, Laplace", mean(false, 1, 1), mean(false, 0.7, 2));
  }

  @Test
  void meanSet_discreteGaussianNoise_coversAndIsTight() {
    assertCalibrated("mean, Gaussian", mean(true, 1, 3), mean(true, 0.7, 4));
  }

  @Test
  void varianceSet_geometricNoise_coversAndIsTight() {
    assertCalibrated("variance, Laplace", variance(false, 1, 5), variance(false, 0.7, 6));
  }

  @Test
  void varianceSet_discreteGaussianNoise_coversAndIsTight() {
    assertCalibrated("variance, Gaussian", variance(true, 1, 7), variance(true, 0.7, 8));
  }
}
