package org.privet.engine.release;

import org.privet.accounting.PrivacyLoss;

/**
 * One noisy release planned by the compiler: which exact per-group statistic it perturbs
 * ({@link Target}) and with which mechanism ({@link MechanismSpec}).
 */
public record Release(Target target, MechanismSpec mechanism) {

  /** Which exact per-group aggregate a release perturbs. */
  public enum Field { UNITS, ROWS, SUM, COUNT, SQUARES, BINS, QUANTILE, TREE }

  /**
   * The statistic a release perturbs.
   *
   * @param output the output name(s) it serves
   * @param purpose human-readable role
   * @param field which exact aggregate
   * @param measure index of the backend measure (or −1)
   * @param scaleExponent k of the fixed-point grid 2^-k (for squares 2k), 0 for counts
   * @param center for a centred SUM: subtracted (times the non-null count) from the measure's exact
   *     uncentred sum before noise
   * @param rank the quantile rank (QUANTILE only, else NaN)
   */
  public record Target(String output, String purpose, Field field, int measure, int scaleExponent,
      long center, double rank) {

    /** A target without centre or rank. */
    public Target(String output, String purpose, Field field, int measure, int scaleExponent) {
      this(output, purpose, field, measure, scaleExponent, 0, Double.NaN);
    }

    public double unit() {
      return Math.scalb(1.0, -scaleExponent);
    }
  }

  public PrivacyLoss loss() {
    return mechanism.loss();
  }

  public long sensitivity() {
    return mechanism.sensitivity();
  }

  public double unit() {
    return target.unit();
  }
}
