package org.privet.synth;

import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.noise.DiscreteGaussian;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * Releases a marginal (a vector of counts) with independent exact discrete Gaussian noise on every
 * cell (Canonne, Kamath, Steinke 2020, Algorithm 3).
 *
 * <p>Privacy: under add/remove-one neighbours, a record changes exactly one cell of a marginal by
 * one and no other; the other cells' outputs have identical distributions, so the privacy loss is
 * that of the one-dimensional discrete Gaussian with sensitivity 1, which is 1/(2σ²)-zCDP (CKS20,
 * Theorem 14 with Δ = 1). σ² is rounded up to a dyadic rational, so the stated ρ is an upper bound.
 *
 * <p>The pure-DP variant ({@link #laplace}) adds exact discrete Laplace (two-sided geometric) noise of
 * scale t ≥ 1/ε to every cell; by the same one-cell argument it is (1/t)-DP (Ghosh, Roughgarden,
 * Sundararajan 2009). See docs/proofs/synthetic-data.md.
 */
final class NoisyMarginals {
  private static final long DEN = 1L << 20;

  private NoisyMarginals() {}

  /** A measurement result: the noisy marginal and its exact cost. */
  record Released(Measurement measurement, Zcdp loss) {}

  /** Measures {@code counts} (integers) over {@code attrs} at noise σ ≥ sigma (σ² rounded up). */
  static Released gaussian(int[] attrs, double[] counts, double sigma, RandomSource random) {
    if (!(sigma > 0) || !Double.isFinite(sigma)) {
      throw new IllegalArgumentException("sigma must be positive and finite, was " + sigma);
    }
    long num = (long) Math.ceil(sigma * sigma * DEN);
    if (num <= 0) {
      num = 1;
    }
    double sigmaSq = (double) num / DEN; // exact, ≥ sigma²
    double[] y = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      y[i] = counts[i] + DiscreteGaussian.sample(random, num, DEN);
    }
    double rho = Math.nextUp(1.0 / (2.0 * sigmaSq));
    return new Released(new Measurement(attrs, y, Math.sqrt(sigmaSq)), new Zcdp(rho));
  }

  /** A pure-DP release: the noisy counts, the noise scale, and the exact cost. */
  record PureRelease(double[] y, double scale, PureDp loss) {}

  /** Measures {@code counts} with discrete Laplace noise of scale t ≥ 1/epsilon (t rounded up). */
  static PureRelease laplace(double[] counts, double epsilon, RandomSource random) {
    if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be positive and finite, was " + epsilon);
    }
    long num = (long) Math.ceil(DEN / epsilon);
    double scale = (double) num / DEN;
    double[] y = new double[counts.length];
    for (int i = 0; i < counts.length; i++) {
      y[i] = counts[i] + DiscreteLaplace.sample(random, num, DEN);
    }
    return new PureRelease(y, scale, new PureDp(Math.nextUp(1.0 / scale)));
  }
}
