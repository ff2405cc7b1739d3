package org.privet.accounting;

/**
 * Pure ε-differential privacy (Dwork, McSherry, Nissim, Smith 2006; Dwork &amp; Roth 2014, Def. 2.4
 * with δ = 0).
 *
 * @param epsilon the privacy loss bound ε ≥ 0
 */
public record PureDp(double epsilon) implements PrivacyLoss {
  public PureDp {
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
  }

  /** The same guarantee read as (ε, 0)-DP. */
  public ApproxDp toApproxDp() {
    return new ApproxDp(epsilon, 0.0);
  }
}
