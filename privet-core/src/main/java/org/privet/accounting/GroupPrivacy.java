package org.privet.accounting;

/**
 * Group privacy: the guarantee for groups of k privacy units (Dwork &amp; Roth 2014, Thm. 2.2 for
 * pure DP; Vadhan 2017, Lemma 2.2 for approximate DP; Bun &amp; Steinke 2016, Prop. 1.9 for zCDP).
 *
 * <ul>
 *   <li>ε-DP → kε-DP;
 *   <li>(ε, δ)-DP → (kε, k·e^{(k−1)ε}·δ)-DP;
 *   <li>ρ-zCDP → k²ρ-zCDP.
 * </ul>
 *
 * All results are rounded up; an approximate-DP δ reaching 1 is an error.
 */
public final class GroupPrivacy {
  private GroupPrivacy() {}

  public static PureDp of(PureDp loss, int groupSize) {
    check(groupSize);
    return new PureDp(UpwardRounding.multiply(groupSize, loss.epsilon()));
  }

  public static ApproxDp of(ApproxDp loss, int groupSize) {
    check(groupSize);
    double eps = UpwardRounding.multiply(groupSize, loss.epsilon());
    double factor = UpwardRounding.up(Math.exp(UpwardRounding.multiply(groupSize - 1, loss.epsilon())));
    double delta = UpwardRounding.multiply(UpwardRounding.multiply(groupSize, factor), loss.delta());
    if (!(delta < 1)) {
      throw new IllegalArgumentException(
          "group privacy for groupSize " + groupSize + " gives delta >= 1; no meaningful guarantee");
    }
    return new ApproxDp(eps, delta);
  }

  public static Zcdp of(Zcdp loss, int groupSize) {
    check(groupSize);
    return new Zcdp(UpwardRounding.multiply(UpwardRounding.multiply(groupSize, groupSize), loss.rho()));
  }

  /**
   * Dispatches on the value's type (pure, approximate or zCDP; δ-approximate zCDP only with δ = 0,
   * since Bun &amp; Steinke's group-privacy bound does not cover the conditioning events).
   */
  public static PrivacyLoss of(PrivacyLoss loss, int groupSize) {
    if (loss instanceof PureDp p) {
      return of(p, groupSize);
    }
    if (loss instanceof ApproxDp a) {
      return of(a, groupSize);
    }
    if (loss instanceof Zcdp z) {
      return of(z, groupSize);
    }
    if (loss instanceof ApproxZcdp a) {
      if (a.delta() == 0) {
        return of(new Zcdp(a.rho()), groupSize);
      }
      throw new IllegalArgumentException("group privacy of delta-approximate zCDP with delta > 0 is "
          + "not supported; convert it to (epsilon, delta)-DP first (ApproxZcdp.toApproxDp)");
    }
    throw new IllegalArgumentException(
        "group privacy is defined here for PureDp, ApproxDp, Zcdp and ApproxZcdp (delta = 0) only");
  }

  private static void check(int groupSize) {
    if (groupSize < 1) {
      throw new IllegalArgumentException("groupSize must be positive, was " + groupSize);
    }
  }
}
