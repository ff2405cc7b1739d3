package org.privet.accounting;

import java.util.List;

/**
 * Optimal composition of pure and approximate DP events ({@link OptimalComposition}): exact for
 * identical events (Kairouz, Oh, Viswanath 2015), and for differing events the upper end of the
 * Murtagh–Vadhan grid bracket. Only events with an (ε, δ) description are accepted.
 */
public final class OptimalCompositionAccountant implements Accountant {
  public static final OptimalCompositionAccountant INSTANCE = new OptimalCompositionAccountant();

  @Override
  public ApproxDp compose(List<? extends PrivacyLoss> events, double delta) {
    PrivacyLoss.requireDelta("delta", delta);
    List<ApproxDp> list = OptimalComposition.asApproxDp(events, "OptimalCompositionAccountant");
    if (list.isEmpty()) {
      return new ApproxDp(0, 0);
    }
    boolean homogeneous = list.stream().distinct().count() == 1;
    double eps;
    if (homogeneous) {
      ApproxDp e = list.get(0);
      eps = OptimalComposition.homogeneousEpsilon(e.epsilon(), e.delta(), list.size(), delta);
    } else {
      eps = OptimalComposition.heterogeneousBracket(list, delta, OptimalComposition.defaultStep(list))[1];
    }
    // Never report more than basic composition gives at its own δ when that fits.
    ApproxDp basic = BasicAccountant.INSTANCE.compose(list, delta);
    if (basic.delta() <= delta && basic.epsilon() <= eps) {
      return basic;
    }
    return EventMeasures.approxDp(eps, delta, "optimal composition");
  }

  @Override
  public String toString() {
    return "optimal";
  }
}
