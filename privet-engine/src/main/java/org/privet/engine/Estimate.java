package org.privet.engine;

/**
 * A released value with its confidence interval.
 *
 * <p>The interval accounts for the noise only: it covers the <em>bounded</em> exact value (after
 * clamping and contribution bounding) with probability at least {@code level}. For means,
 * variances and standard deviations it inverts an exact pivot in the released sum, sum of squares
 * and count ({@code docs/proofs/engine-ratio-intervals.md}). Quantile-tree
 * quantiles carry an interval of grid edges that contains the grid cell of the true quantile of
 * the bounded values, with probability at least {@code level} for each rank ({@code
 * docs/proofs/engine-quantiles.md}). Exponential-mechanism quantiles carry no interval ({@code
 * level} = 0, bounds NaN): see {@link Plan} for their rank-error bound.
 *
 * @param value the noisy value
 * @param lower lower end, or NaN when there is no interval
 * @param upper upper end, or NaN when there is no interval
 * @param level coverage probability 1 − β, or 0 when there is no interval
 */
public record Estimate(double value, double lower, double upper, double level) {

  /** True when this estimate has a confidence interval. */
  public boolean hasInterval() {
    return level > 0;
  }

  public static Estimate withoutInterval(double value) {
    return new Estimate(value, Double.NaN, Double.NaN, 0.0);
  }

  @Override
  public String toString() {
    return hasInterval()
        ? String.format("%.6g [%.6g, %.6g]@%.3g", value, lower, upper, level)
        : String.format("%.6g", value);
  }
}
