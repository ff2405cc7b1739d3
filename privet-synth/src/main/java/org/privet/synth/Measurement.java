package org.privet.synth;

/**
 * One noisy marginal: the released counts {@code y} over sorted attributes {@code attrs}, with the
 * standard deviation of the per-cell noise. A DP output; all later uses are post-processing.
 *
 * @param attrs sorted attribute indices
 * @param y the noisy counts, row-major
 * @param sigma per-cell noise standard deviation (> 0); the smallest one when {@code variance} is
 *     given
 * @param variance per-cell noise variances, or {@code null} when every cell has variance σ² (a
 *     cell that sums k noisy cells of a finer marginal has variance k·σ²)
 */
record Measurement(int[] attrs, double[] y, double sigma, double[] variance) {
  Measurement {
    if (!(sigma > 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("sigma must be positive and finite");
    }
    if (variance != null && variance.length != y.length) {
      throw new IllegalArgumentException("variance must have one entry per cell");
    }
  }

  Measurement(int[] attrs, double[] y, double sigma) {
    this(attrs, y, sigma, null);
  }

  /** The noise variance of cell {@code i}. */
  double variance(int i) {
    return variance == null ? sigma * sigma : variance[i];
  }
}
