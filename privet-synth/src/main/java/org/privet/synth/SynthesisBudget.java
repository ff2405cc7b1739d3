package org.privet.synth;

import java.util.List;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.accounting.ZcdpAccountant;
import org.privet.accounting.ZcdpConversion;

/**
 * The privacy-measure conversions the generators need, in one place.
 *
 * <ul>
 *   <li>{@link #rhoFor}: the largest ρ whose zCDP guarantee implies (ε, δ)-DP under the accounting
 *       package's tight conversion (Canonne, Kamath, Steinke 2020, Prop. 12), found by bisection
 *       that keeps only ρ values the conversion certifies — so the result errs on the private
 *       side.
 *   <li>{@link #boundedRange}: an ε-DP exponential mechanism in the standard form (probabilities ∝
 *       exp(ε·u/(2Δu))) is ε-bounded-range, hence ε²/8-zCDP (Durfee &amp; Rogers 2019; Cesar &amp;
 *       Rogers 2021, "Bounding, Concentrating, and Truncating", Lemma 3.2), which is how AIM
 *       accounts for its selection steps (McKenna et al. 2022, Section 4).
 * </ul>
 */
final class SynthesisBudget {
  private SynthesisBudget() {}

  /** The largest ρ with ρ-zCDP ⇒ (ε, δ)-DP ({@link ZcdpConversion#largestRho}); requires ε, δ > 0. */
  static double rhoFor(double epsilon, double delta) {
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1) for a zCDP-based generator, was " + delta);
    }
    if (epsilon == 0) {
      throw new IllegalArgumentException("epsilon must be positive");
    }
    return ZcdpConversion.largestRho(epsilon, delta);
  }

  /** The zCDP cost of an exponential mechanism step that is ε-DP in the standard (non-monotone) form. */
  static Zcdp boundedRange(PureDp emLoss) {
    double e = emLoss.epsilon();
    return new Zcdp(Math.nextUp(e * e / 8));
  }

  /** The (ε, δ) guarantee of a list of zCDP events at the given δ, by the ZcdpAccountant. */
  static ApproxDp compose(List<? extends PrivacyLoss> events, double delta) {
    return ZcdpAccountant.INSTANCE.compose(events, delta);
  }

  /** The total ρ of zCDP events (rounded up). */
  static double totalRho(List<? extends PrivacyLoss> events) {
    return ZcdpAccountant.INSTANCE.totalRho(events);
  }
}
