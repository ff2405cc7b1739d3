package org.privet.synth;

import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.mechanisms.DiscreteGaussianMechanism;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.random.RandomSource;

/**
 * Releases a marginal (a vector of counts) through the core mechanisms: every cell gets
 * independent exact discrete Gaussian noise ({@link DiscreteGaussianMechanism}, zCDP) or discrete
 * Laplace noise ({@link GeometricMechanism}, pure DP).
 *
 * <p>Privacy: under add/remove-one neighbours a record changes exactly one cell of a marginal, by
 * one, so the count vector has ℓ1 and ℓ2 sensitivity 1; the vector release with sensitivity 1 is
 * then ρ = 1/(2σ²)-zCDP (Canonne, Kamath, Steinke 2020, Theorem 14) or ε-DP (Ghosh, Roughgarden,
 * Sundararajan 2009) respectively — exactly the single-call losses the mechanisms report. See
 * docs/proofs/synthetic-data.md.
 */
final class NoisyMarginals {
  private NoisyMarginals() {}

  /** A measurement result: the noisy marginal and its cost. */
  record Released(Measurement measurement, Zcdp loss) {}

  /** A pure-DP release: the noisy counts, the noise scale, and the cost. */
  record PureRelease(double[] y, double scale, PureDp loss) {}

  /** Measures {@code counts} (integers) over {@code attrs} with discrete Gaussian noise of σ (σ² rounded up). */
  static Released gaussian(int[] attrs, double[] counts, double sigma, RandomSource random) {
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder()
        .sigma(sigma)
        .sensitivity(1)
        .randomSource(random)
        .build();
    long[] noisy = m.release(toLongs(counts));
    return new Released(new Measurement(attrs, toDoubles(noisy), m.sigma()), m.privacyLoss());
  }

  /**
   * Measures an integer vector of ℓ2 sensitivity {@code sensitivity} (a fixed-point sum in units of
   * 1/sensitivity) with discrete Gaussian noise of σ·sensitivity: ρ = 1/(2σ²) whatever the unit. The
   * result is returned in the vector's own scale (divided by {@code sensitivity}), σ in that scale.
   */
  static Released gaussian(int[] attrs, long[] values, long sensitivity, double sigma, RandomSource random) {
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder()
        .sigma(sigma * sensitivity)
        .sensitivity(sensitivity)
        .randomSource(random)
        .build();
    double[] y = scaled(m.release(values), sensitivity);
    return new Released(new Measurement(attrs, y, m.sigma() / sensitivity), m.privacyLoss());
  }

  /**
   * Measures an integer vector of ℓ1 sensitivity {@code sensitivity} with discrete Laplace noise,
   * ε-DP; the result and the scale in units of {@code sensitivity}.
   */
  static PureRelease laplace(long[] values, long sensitivity, double epsilon, RandomSource random) {
    GeometricMechanism m = GeometricMechanism.builder()
        .epsilon(epsilon)
        .sensitivity(sensitivity)
        .randomSource(random)
        .build();
    return new PureRelease(scaled(m.release(values), sensitivity), m.scale() / sensitivity, m.privacyLoss());
  }

  private static double[] scaled(long[] values, long unit) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = (double) values[i] / unit;
    }
    return out;
  }

  /** Measures {@code counts} with discrete Laplace noise, ε-DP for this ℓ1-sensitivity-1 vector. */
  static PureRelease laplace(double[] counts, double epsilon, RandomSource random) {
    GeometricMechanism m = GeometricMechanism.builder()
        .epsilon(epsilon)
        .sensitivity(1)
        .randomSource(random)
        .build();
    return new PureRelease(toDoubles(m.release(toLongs(counts))), m.scale(), m.privacyLoss());
  }

  private static long[] toLongs(double[] counts) {
    long[] out = new long[counts.length];
    for (int i = 0; i < counts.length; i++) {
      out[i] = Math.round(counts[i]);
    }
    return out;
  }

  private static double[] toDoubles(long[] values) {
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = values[i];
    }
    return out;
  }
}
