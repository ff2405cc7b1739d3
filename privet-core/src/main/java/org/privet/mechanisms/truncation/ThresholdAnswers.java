package org.privet.mechanisms.truncation;

import java.util.Arrays;

/**
 * The truncated query Q(I, τ) = Σ<sub>u</sub> min(c<sub>u</sub>, τ) of {@link UnitContributions}
 * when it is evaluated elsewhere (R2T, Dong, Fang, Yi, Tao, Machanavajjhala, SIGMOD 2022): the
 * exact values at a public list of thresholds, computed where the data lives (the engine's
 * bounding plan keeps one group per unit and caps each unit's rows at τ, which is exactly that
 * sum for a COUNT over joins with one unit per joined row). It satisfies the properties of
 * {@link TruncatedQuery} because the values <em>are</em> that sum; the producer is responsible
 * for computing it so, which {@code docs/proofs/r2t-truncation.md} ("The engine's use") argues.
 *
 * <p>{@link #evaluate} answers only at the listed thresholds and at 0 (Q(I, 0) = 0); any other τ
 * is a programming error (R2T asks only for its public thresholds). Immutable.
 */
public final class ThresholdAnswers implements TruncatedQuery {
  private final long[] thresholds;
  private final long[] values;

  private ThresholdAnswers(long[] thresholds, long[] values) {
    this.thresholds = thresholds;
    this.values = values;
  }

  /**
   * @param thresholds distinct positive public thresholds, increasing
   * @param values Q(I, τ) at each threshold (non-negative, saturated at {@link
   *     UnitContributions#SUM_CAP})
   * @throws IllegalArgumentException naming the parameter if the lists differ in length, the
   *     thresholds are not positive and increasing, or a value is negative
   */
  public static ThresholdAnswers of(long[] thresholds, long[] values) {
    TruncationChecks.required("thresholds", thresholds);
    TruncationChecks.required("values", values);
    if (thresholds.length != values.length) {
      throw new IllegalArgumentException("thresholds and values must have the same length");
    }
    for (int i = 0; i < thresholds.length; i++) {
      if (thresholds[i] < 1 || (i > 0 && thresholds[i] <= thresholds[i - 1])) {
        throw new IllegalArgumentException("thresholds must be positive and increasing");
      }
      if (values[i] < 0) {
        throw new IllegalArgumentException("values must be non-negative");
      }
    }
    long[] v = values.clone();
    for (int i = 0; i < v.length; i++) {
      v[i] = Math.min(v[i], UnitContributions.SUM_CAP);
    }
    return new ThresholdAnswers(thresholds.clone(), v);
  }

  @Override
  public long evaluate(long tau) {
    if (tau < 0) {
      throw new IllegalArgumentException("tau must be non-negative");
    }
    if (tau == 0) {
      return 0;
    }
    int i = Arrays.binarySearch(thresholds, tau);
    if (i < 0) {
      throw new IllegalArgumentException("tau must be one of the precomputed thresholds");
    }
    return values[i];
  }
}
