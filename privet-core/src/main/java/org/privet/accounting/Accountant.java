package org.privet.accounting;

import java.util.List;

/**
 * Composes privacy events into one (ε, δ) guarantee.
 *
 * <p>Every implementation reports an upper bound on the privacy loss of the (adaptive) sequential
 * composition of the events: each rounding goes toward more loss.
 *
 * <p><b>The target δ.</b> {@code delta} is the total δ the caller is prepared to report. Methods
 * that need a δ to produce an ε (zCDP, Rényi DP, privacy loss distributions, advanced composition)
 * spend the part of {@code delta} not already consumed by the events' own δ's and return a result
 * whose δ equals {@code delta}. Methods that do not need one (basic composition of pure and
 * approximate DP) return the δ of the composition itself, which may be smaller than {@code delta}.
 * When the events' own δ's already exceed {@code delta} and a conversion is needed, or the accountant
 * cannot handle an event type, an {@link IllegalArgumentException} names the problem.
 */
public interface Accountant {

  /**
   * The (ε, δ)-DP guarantee of running all {@code events} in sequence.
   *
   * @param events the privacy losses of the releases (any order; duplicates count each time)
   * @param delta the total target δ ∈ [0, 1)
   * @return an upper bound on the composed privacy loss
   * @throws IllegalArgumentException if an event is not supported by this accountant, or the
   *     target δ is too small for the conversion the method needs
   */
  ApproxDp compose(List<? extends PrivacyLoss> events, double delta);

  /**
   * Whether this accountant's bound stays valid when each event's parameters are chosen adaptively
   * after seeing earlier outputs and the total is stopped by a budget check ("fully adaptive
   * composition", Rogers, Roth, Ullman, Vadhan 2016; Feldman &amp; Zrnic 2021). Only such
   * accountants may back a {@link PrivacyFilter}.
   */
  default boolean supportsFullyAdaptiveComposition() {
    return false;
  }
}
