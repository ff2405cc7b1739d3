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
}
