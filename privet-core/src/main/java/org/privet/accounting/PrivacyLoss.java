package org.privet.accounting;

/**
 * What one release costs, in one of the privacy measures Privet understands.
 *
 * <p>Every mechanism states its guarantee as one of these values ({@code privacyLoss()}), and
 * accountants compose them. Values are immutable and validated on construction: no NaN, no
 * negative or infinite parameters.
 *
 * <p>Besides the four summary measures ({@link PureDp}, {@link ApproxDp}, {@link Zcdp} and
 * δ-approximate zCDP {@link ApproxZcdp}) there are
 * finer descriptions that tight accountants exploit: a Rényi DP curve ({@link RdpCurve}), the
 * mechanism itself ({@link MechanismLoss}: Gaussian, Laplace, discrete Laplace/Gaussian, randomized
 * response), and its Poisson-subsampled version ({@link PoissonSubsampled}). Code that only needs a
 * simple measure can switch on the first four and treat the rest through an accountant.
 */
public sealed interface PrivacyLoss
    permits PureDp, ApproxDp, Zcdp, ApproxZcdp, RdpCurve, MechanismLoss, PoissonSubsampled {

  /** Validates a non-negative finite parameter and returns it. */
  static double requireNonNegativeFinite(String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value) || value < 0) {
      throw new IllegalArgumentException(name + " must be finite and non-negative, was " + value);
    }
    return value;
  }

  /** Validates δ ∈ [0, 1) and returns it. */
  static double requireDelta(String name, double value) {
    if (Double.isNaN(value) || value < 0 || value >= 1) {
      throw new IllegalArgumentException(name + " must be in [0, 1), was " + value);
    }
    return value;
  }
}
