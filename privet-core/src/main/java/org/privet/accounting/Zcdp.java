package org.privet.accounting;

/**
 * ρ-zero-concentrated differential privacy (Bun &amp; Steinke 2016, "Concentrated Differential
 * Privacy: Simplifications, Extensions, and Lower Bounds", Def. 1.1).
 *
 * @param rho ρ ≥ 0
 */
public record Zcdp(double rho) implements PrivacyLoss {
  public Zcdp {
    PrivacyLoss.requireNonNegativeFinite("rho", rho);
  }
}
