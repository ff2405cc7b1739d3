package org.privet.synth;

/**
 * One noisy marginal: the released counts {@code y} over sorted attributes {@code attrs}, with the
 * standard deviation of the per-cell noise. A DP output; all later uses are post-processing.
 *
 * @param attrs sorted attribute indices
 * @param y the noisy counts, row-major
 * @param sigma per-cell noise standard deviation (> 0)
 */
record Measurement(int[] attrs, double[] y, double sigma) {
  Measurement {
    if (!(sigma > 0) || Double.isInfinite(sigma)) {
      throw new IllegalArgumentException("sigma must be positive and finite");
    }
  }
}
