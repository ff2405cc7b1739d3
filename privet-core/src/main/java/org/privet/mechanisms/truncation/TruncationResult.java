package org.privet.mechanisms.truncation;

import org.privet.accounting.PureDp;
import org.privet.mechanisms.ConfidenceInterval;

/**
 * The release of a truncation mechanism: the noisy answer, the threshold τ it was read at (itself a
 * post-processed, releasable value), the privacy loss charged, and an interval.
 *
 * <p>What the interval covers is {@link #intervalTarget()}: for {@link R2TMechanism} it is a
 * one-sided interval [value, +∞) for the untruncated answer Q(I) (with probability ≥ 1 − β the
 * release under-estimates, R2T Theorem 5.1's upper half); for {@link QuantileThresholdMechanism} it
 * is a two-sided interval for the truncated answer Q(I, τ) (which is ≤ Q(I), so its lower end is
 * also a lower confidence bound for Q(I)). Neither interval reads the data beyond the release.
 *
 * @param value the released answer (fixed-point, the units of the contributions)
 * @param tau the truncation threshold used (0 if R2T's constant Q(I, 0) won)
 * @param privacyLoss the pure ε charged for the whole release
 * @param interval the interval described above
 * @param intervalTarget what {@code interval} covers
 */
public record TruncationResult(
    long value, long tau, PureDp privacyLoss, ConfidenceInterval interval, Target intervalTarget) {

  /** What a result's interval covers. */
  public enum Target {
    /** The untruncated query answer Q(I). */
    QUERY,
    /** The truncated answer Q(I, τ) at the released τ. */
    TRUNCATED_QUERY
  }

  public TruncationResult {
    TruncationChecks.required("privacyLoss", privacyLoss);
    TruncationChecks.required("interval", interval);
    TruncationChecks.required("intervalTarget", intervalTarget);
    if (tau < 0) {
      throw new IllegalArgumentException("tau must be non-negative");
    }
  }
}
