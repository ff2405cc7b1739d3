package org.privet.mechanisms;

/**
 * A confidence interval for the true (noiseless) value behind a released value: the true value
 * lies in [lower, upper] with probability at least {@code level} = 1 − β over the mechanism's
 * noise.
 *
 * @param lower the lower end (may be −∞ only if the noise is unbounded below, never NaN)
 * @param upper the upper end, at least {@code lower}
 * @param level the coverage probability 1 − β, in (0, 1)
 */
public record ConfidenceInterval(double lower, double upper, double level) {
  public ConfidenceInterval {
    if (Double.isNaN(lower) || Double.isNaN(upper) || lower > upper) {
      throw new IllegalArgumentException("lower must not exceed upper, was [" + lower + ", " + upper + "]");
    }
    if (!(level > 0 && level < 1)) {
      throw new IllegalArgumentException("level must be in (0, 1), was " + level);
    }
  }

  /** The half-width of a symmetric interval, (upper − lower)/2. */
  public double halfWidth() {
    return (upper - lower) / 2;
  }
}
