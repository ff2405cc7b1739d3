package org.privet.accounting;

import java.util.List;

/**
 * Advanced composition (Dwork, Rothblum, Vadhan 2010; Dwork &amp; Roth 2014, Thm. 3.20): k
 * adaptively chosen (ε, δ)-DP mechanisms are (ε', kδ + δ')-DP with
 *
 * <pre>  ε' = √(2k ln(1/δ'))·ε + k·ε·(e^ε − 1).</pre>
 *
 * For differing ε<sub>i</sub> the same Azuma argument gives ε' = √(2 ln(1/δ') Σε<sub>i</sub>²) +
 * Σε<sub>i</sub>(e^{ε<sub>i</sub>} − 1) (Kairouz, Oh, Viswanath 2015, Thm. 3.5 states a slightly
 * sharper form), which reduces to the formula above when all ε<sub>i</sub> are equal. δ' is the
 * target δ minus the events' own δ's. Since the formula can exceed basic composition for few
 * events, the accountant reports the smaller of the two.
 */
public final class AdvancedCompositionAccountant implements Accountant {
  public static final AdvancedCompositionAccountant INSTANCE = new AdvancedCompositionAccountant();

  @Override
  public ApproxDp compose(List<? extends PrivacyLoss> events, double delta) {
    PrivacyLoss.requireDelta("delta", delta);
    List<ApproxDp> list = OptimalComposition.asApproxDp(events, "AdvancedCompositionAccountant");
    ApproxDp basic = BasicAccountant.INSTANCE.compose(list, delta);
    double deltaSum = basic.delta();
    double deltaPrime = UpwardRounding.subtractDown(delta, deltaSum);
    if (!(deltaPrime > 0)) {
      return basic;
    }
    double sumSq = 0;
    double drift = 0;
    for (ApproxDp e : list) {
      sumSq = UpwardRounding.add(sumSq, UpwardRounding.multiply(e.epsilon(), e.epsilon()));
      drift = UpwardRounding.add(drift, UpwardRounding.multiply(e.epsilon(), UpwardRounding.up(Math.expm1(e.epsilon()))));
    }
    double eps = epsilon(sumSq, drift, deltaPrime);
    if (basic.epsilon() <= eps) {
      return basic;
    }
    return EventMeasures.approxDp(eps, delta, "advanced composition");
  }

  /** The homogeneous formula √(2k ln(1/δ'))·ε + kε(e^ε − 1), rounded up. */
  public static double epsilon(double eps, int k, double deltaPrime) {
    PrivacyLoss.requireNonNegativeFinite("epsilon", eps);
    if (k < 1) {
      throw new IllegalArgumentException("k must be positive, was " + k);
    }
    double sumSq = UpwardRounding.multiply(k, UpwardRounding.multiply(eps, eps));
    double drift = UpwardRounding.multiply(k, UpwardRounding.multiply(eps, UpwardRounding.up(Math.expm1(eps))));
    return epsilon(sumSq, drift, deltaPrime);
  }

  private static double epsilon(double sumSq, double drift, double deltaPrime) {
    if (Double.isNaN(deltaPrime) || deltaPrime <= 0 || deltaPrime >= 1) {
      throw new IllegalArgumentException("deltaPrime must be in (0, 1), was " + deltaPrime);
    }
    double log = UpwardRounding.up(-Math.log(deltaPrime));
    double root = UpwardRounding.sqrt(UpwardRounding.multiply(2 * log, sumSq));
    return UpwardRounding.add(root, drift);
  }

  @Override
  public String toString() {
    return "advanced";
  }
}
