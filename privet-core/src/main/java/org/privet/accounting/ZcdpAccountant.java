package org.privet.accounting;

import java.util.List;

/**
 * Composition in zero-concentrated DP (Bun &amp; Steinke 2016): every event becomes a ρ, the ρ's
 * add (Lemma 2.3), and the total is converted to (ε, δ) at the target δ with the tight
 * Canonne–Kamath–Steinke 2020 conversion.
 *
 * <ul>
 *   <li>ε-DP → ρ = ε²/2 (Bun &amp; Steinke 2016, Prop. 1.4).
 *   <li>ρ-zCDP → ρ.
 *   <li>(ε, δ)-DP with δ &gt; 0 → δ-approximate (ε²/2)-zCDP (Bun &amp; Steinke 2016, Sec. 8,
 *       approximate zCDP): the δ's add alongside the ρ's, and δ-approximate ρ-zCDP gives
 *       (ε(ρ, δ'), δ + δ')-DP. The conversion therefore uses δ' = target δ − Σδ<sub>i</sub>.
 *   <li>δ-approximate ρ-zCDP ({@link ApproxZcdp}) → its ρ and δ, both added.
 *   <li>Gaussian-type mechanism events use their exact ρ (e.g. Δ²/(2σ²)); other mechanism events
 *       use their pure ε when they have one.
 * </ul>
 *
 * <p>Composition of zCDP (and approximate zCDP) stays valid under fully adaptive parameter choice
 * (zCDP: Feldman &amp; Zrnic 2021, the Rényi filter; approximate zCDP: Whitehouse, Ramdas, Rogers,
 * Wu 2023), each for a fixed budget box, so this accountant may back a {@link PrivacyFilter}
 * (docs/proofs/ledger-filter.md, "Fully adaptive composition").
 */
public final class ZcdpAccountant implements Accountant {

  /** A stateless instance. */
  public static final ZcdpAccountant INSTANCE = new ZcdpAccountant();

  public ZcdpAccountant() {}

  @Override
  public ApproxDp compose(List<? extends PrivacyLoss> events, double delta) {
    PrivacyLoss.requireDelta("delta", delta);
    double[] sums = sums(events);
    return convert(sums[0], sums[1], delta);
  }

  /**
   * The events' composition as δ-approximate ρ-zCDP (Bun &amp; Steinke 2016, Lemma 8.2): ρ's add
   * (pure and approximate DP parts as ε²/2) and so do the δ's, rounded up. With no δ part the
   * result is plain ρ-zCDP (δ = 0).
   *
   * @throws IllegalArgumentException if an event has no zCDP reading or the δ's reach 1
   */
  public ApproxZcdp totalApproxZcdp(List<? extends PrivacyLoss> events) {
    double[] sums = sums(events);
    if (!(sums[1] < 1)) {
      throw new IllegalArgumentException("composition: total delta reaches 1 ("
          + BudgetFormat.up(sums[1]) + ")");
    }
    return new ApproxZcdp(sums[0], sums[1]);
  }

  /** The total ρ of the events, ignoring δ parts (exposed for budget planning). */
  public double totalRho(List<? extends PrivacyLoss> events) {
    return sums(events)[0];
  }

  /** {Σρ, Σδ} of the events read as approximate zCDP, each sum rounded up. */
  private static double[] sums(List<? extends PrivacyLoss> events) {
    double rho = 0.0;
    double deltaSum = 0.0;
    for (PrivacyLoss event : events) {
      ApproxDp a = EventMeasures.asApproxDpIfDirect(event);
      if (a != null) {
        rho = UpwardRounding.add(rho, halfSquare(a.epsilon()));
        deltaSum = UpwardRounding.add(deltaSum, a.delta());
      } else {
        rho = UpwardRounding.add(rho, EventMeasures.zcdpRho(event, "ZcdpAccountant"));
        deltaSum = UpwardRounding.add(deltaSum, EventMeasures.zcdpDelta(event));
      }
    }
    return new double[] {rho, deltaSum};
  }

  static ApproxDp convert(double rho, double deltaSum, double delta) {
    if (rho == 0) {
      return EventMeasures.approxDp(0.0, deltaSum, "composition");
    }
    double remaining = UpwardRounding.subtractDown(delta, deltaSum);
    if (!(remaining > 0)) {
      throw new IllegalArgumentException(
          "delta (" + BudgetFormat.down(delta) + ") must exceed the events' total delta ("
              + BudgetFormat.up(deltaSum)
              + ") to convert zCDP to (epsilon, delta)-DP");
    }
    return EventMeasures.approxDp(ZcdpConversion.tightEpsilon(rho, remaining), delta, "composition");
  }

  static double halfSquare(double epsilon) {
    return UpwardRounding.multiply(UpwardRounding.multiply(epsilon, epsilon), 0.5);
  }

  @Override
  public boolean supportsFullyAdaptiveComposition() {
    return true;
  }

  @Override
  public String toString() {
    return "zcdp";
  }
}
