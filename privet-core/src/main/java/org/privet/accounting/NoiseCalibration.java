package org.privet.accounting;

import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Solves for the noise needed to meet a target ε: the smallest noise multiplier σ (up to a relative
 * tolerance, always on the safe side) such that the events produced for σ compose, under the given
 * accountant, to at most the target ε at the target δ. Used by DP-SGD style planning ("what σ gives
 * ε = 3 after 10,000 steps?") and by {@link BudgetSplit}.
 *
 * <p>Requires that the composed ε is non-increasing in σ, true for every mechanism here. The
 * returned σ is the upper end of a bisection bracket, so it always meets the target.
 */
public final class NoiseCalibration {
  private NoiseCalibration() {}

  /**
   * @param eventsForMultiplier the events of the whole computation for a given noise multiplier
   * @param relativeTolerance the bracket width at which to stop, relative to σ (e.g. 1e-3)
   */
  public static double noiseMultiplier(
      Accountant accountant,
      DoubleFunction<List<? extends PrivacyLoss>> eventsForMultiplier,
      double targetEpsilon,
      double delta,
      double relativeTolerance) {
    PrivacyLoss.requireNonNegativeFinite("targetEpsilon", targetEpsilon);
    if (targetEpsilon == 0) {
      throw new IllegalArgumentException("targetEpsilon must be positive");
    }
    PrivacyLoss.requireDelta("delta", delta);
    if (!(relativeTolerance > 0 && relativeTolerance < 1)) {
      throw new IllegalArgumentException("relativeTolerance must be in (0, 1), was " + relativeTolerance);
    }
    double hi = 1.0;
    int guard = 0;
    while (!meets(accountant, eventsForMultiplier, hi, targetEpsilon, delta)) {
      hi *= 2;
      if (++guard > 60) {
        throw new IllegalArgumentException("no noise multiplier reaches targetEpsilon " + targetEpsilon);
      }
    }
    double lo = hi / 2;
    guard = 0;
    while (meets(accountant, eventsForMultiplier, lo, targetEpsilon, delta)) {
      hi = lo;
      lo /= 2;
      if (++guard > 60) {
        return hi;
      }
    }
    while (hi - lo > relativeTolerance * hi) {
      double mid = 0.5 * (lo + hi);
      if (meets(accountant, eventsForMultiplier, mid, targetEpsilon, delta)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  private static boolean meets(
      Accountant accountant,
      DoubleFunction<List<? extends PrivacyLoss>> events,
      double sigma,
      double target,
      double delta) {
    try {
      ApproxDp r = accountant.compose(events.apply(sigma), delta);
      return r.epsilon() <= target && r.delta() <= delta;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
