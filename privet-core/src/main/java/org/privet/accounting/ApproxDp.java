package org.privet.accounting;

/**
 * Approximate (ε, δ)-differential privacy (Dwork &amp; Roth 2014, Def. 2.4).
 *
 * @param epsilon ε ≥ 0
 * @param delta δ ∈ [0, 1)
 */
public record ApproxDp(double epsilon, double delta) implements PrivacyLoss {
  public ApproxDp {
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    PrivacyLoss.requireDelta("delta", delta);
  }

  /**
   * The accuracy of the best test telling two neighbouring datasets apart from one (ε, δ)-DP
   * release, with equal priors: at most (e<sup>ε</sup> + δ)/(1 + e<sup>ε</sup>) (Kairouz, Oh,
   * Viswanath 2015, "The composition theorem for differential privacy", Thm. 2.1: every test has
   * false positives α and negatives β with α + e<sup>ε</sup>β ≥ 1 − δ and the symmetric bound). For
   * δ = 0 it is e<sup>ε</sup>/(1 + e<sup>ε</sup>), the most an attacker recovers of a uniformly
   * random secret bit. The one home of this bound (the playground and the attack reports use it);
   * written with e<sup>−ε</sup> so that it never overflows.
   */
  public double bestTestAccuracy() {
    double em = Math.exp(-epsilon);
    return (1 + delta * em) / (1 + em);
  }
}
