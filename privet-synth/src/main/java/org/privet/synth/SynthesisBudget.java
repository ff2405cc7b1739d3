package org.privet.synth;

import java.util.List;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.accounting.ZcdpAccountant;

/**
 * The privacy-measure conversions the generators need, in one place. (The ρ a zCDP generator
 * spends for an (ε, δ) target is core's {@link org.privet.accounting.ZcdpConversion#largestRho}:
 * the largest ρ the tight conversion certifies, Canonne, Kamath, Steinke 2020, Prop. 12.)
 *
 * <ul>
 *   <li>{@link #boundedRange}: an ε-DP exponential mechanism in the standard form (probabilities ∝
 *       exp(ε·u/(2Δu))) is ε-bounded-range, hence ε²/8-zCDP (Durfee &amp; Rogers 2019; Cesar &amp;
 *       Rogers 2021, "Bounding, Concentrating, and Truncating", Lemma 3.2), which is how AIM
 *       accounts for its selection steps (McKenna et al. 2022, Section 4).
 * </ul>
 */
final class SynthesisBudget {
  private SynthesisBudget() {}

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
