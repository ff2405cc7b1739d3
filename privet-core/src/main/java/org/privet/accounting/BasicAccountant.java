package org.privet.accounting;

import java.util.List;

/**
 * Basic sequential composition: ε's and δ's add (Dwork, McSherry, Nissim, Smith 2006; Dwork &amp;
 * Roth 2014, Thm. 3.16 and, for adaptively chosen parameters, Rogers, Roth, Ullman, Vadhan 2016).
 *
 * <p>ρ-zCDP events (and mechanism events whose tightest simple description is zCDP) are first
 * composed by adding their ρ's (Bun &amp; Steinke 2016, Lemma 2.3), then converted once to
 * (ε<sub>z</sub>, δ<sub>z</sub>) with the tight conversion ({@link ZcdpConversion#tightEpsilon}) at
 * δ<sub>z</sub> = target δ − Σδ<sub>i</sub>, and added to the rest. δ-approximate zCDP events
 * ({@link ApproxZcdp}) join the zCDP part with their ρ, and their δ joins Σδ<sub>i</sub> (Bun &amp;
 * Steinke 2016, Lemma 8.2 and Sec. 8: (Σρ, Σδ)-approximate zCDP gives (ε(Σρ, δ′), Σδ + δ′)-DP).
 * Sums are rounded up.
 */
public final class BasicAccountant implements Accountant {

  /** A stateless instance. */
  public static final BasicAccountant INSTANCE = new BasicAccountant();

  public BasicAccountant() {}

  @Override
  public ApproxDp compose(List<? extends PrivacyLoss> events, double delta) {
    PrivacyLoss.requireDelta("delta", delta);
    double epsilon = 0.0;
    double deltaSum = 0.0;
    double rho = 0.0;
    for (PrivacyLoss event : events) {
      ApproxDp direct = EventMeasures.asApproxDpIfDirect(event);
      if (direct != null) {
        epsilon = UpwardRounding.add(epsilon, direct.epsilon());
        deltaSum = UpwardRounding.add(deltaSum, direct.delta());
      } else {
        rho = UpwardRounding.add(rho, EventMeasures.zcdpRho(event, "BasicAccountant"));
        deltaSum = UpwardRounding.add(deltaSum, EventMeasures.zcdpDelta(event));
      }
    }
    if (rho == 0) {
      return EventMeasures.approxDp(epsilon, deltaSum, "composition");
    }
    double remaining = UpwardRounding.subtractDown(delta, deltaSum);
    if (!(remaining > 0)) {
      throw new IllegalArgumentException(
          "delta (" + BudgetFormat.down(delta) + ") must exceed the events' total delta ("
              + BudgetFormat.up(deltaSum)
              + ") to convert their zCDP part");
    }
    double zcdpEpsilon = ZcdpConversion.tightEpsilon(rho, remaining);
    return EventMeasures.approxDp(UpwardRounding.add(epsilon, zcdpEpsilon), delta, "composition");
  }

  @Override
  public boolean supportsFullyAdaptiveComposition() {
    return true;
  }

  @Override
  public String toString() {
    return "basic";
  }
}
