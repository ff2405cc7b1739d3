package org.privet.accounting;

/**
 * δ-approximate ρ-zero-concentrated differential privacy (Bun &amp; Steinke 2016, "Concentrated
 * Differential Privacy: Simplifications, Extensions, and Lower Bounds", Def. 8.1; also Def. 1.9 of
 * the arXiv version): for all neighbours x, x′ there are events E, E′ with P[M(x) ∈ E] ≥ 1 − δ and
 * P[M(x′) ∈ E′] ≥ 1 − δ such that D<sub>α</sub>(M(x)|<sub>E</sub> ‖ M(x′)|<sub>E′</sub>) ≤ ρα for
 * every α &gt; 1.
 *
 * <ul>
 *   <li>Composition: (ρ₁, δ₁) then (ρ₂, δ₂) is (ρ₁ + ρ₂, δ₁ + δ₂)-approximate zCDP (Bun &amp; Steinke
 *       2016, Lemma 8.2), so the accountants add the ρ's with the zCDP parts and the δ's with the
 *       approximate-DP parts.
 *   <li>Conversion: δ-approximate ρ-zCDP implies (ε(ρ, δ′), δ + δ′)-DP for every δ′ &gt; 0, with
 *       ε(ρ, δ′) the ρ-zCDP conversion ({@link ZcdpConversion#tightEpsilon}; Bun &amp; Steinke 2016,
 *       Prop. 1.3 and Sec. 8; Canonne, Kamath, Steinke 2020, Prop. 12): conditioned on E and E′ the
 *       pair is ρ-zCDP, hence (ε, δ′)-indistinguishable, and the conditioning costs δ.
 *   <li>(ε, δ)-DP implies δ-approximate (ε²/2)-zCDP and ρ-zCDP is 0-approximate ρ-zCDP (Bun &amp;
 *       Steinke 2016, Prop. 1.4 and Sec. 8).
 * </ul>
 *
 * <p>Typical source: a mechanism that is ρ-zCDP except on an event of probability δ, e.g. Gaussian
 * partition selection (the group that exists only because of the added unit is released with
 * probability at most δ; Desfontaines et al. 2022).
 *
 * @param rho ρ ≥ 0
 * @param delta δ ∈ [0, 1)
 */
public record ApproxZcdp(double rho, double delta) implements PrivacyLoss {
  public ApproxZcdp {
    PrivacyLoss.requireNonNegativeFinite("rho", rho);
    PrivacyLoss.requireDelta("delta", delta);
  }

  /**
   * The (ε(ρ, δ′), δ + δ′)-DP guarantee implied at conversion slack {@code conversionDelta} = δ′,
   * every rounding toward more loss.
   *
   * @param conversionDelta δ′ &gt; 0 (may be 0 only when ρ = 0)
   * @throws IllegalArgumentException if δ′ is out of range or δ + δ′ reaches 1
   */
  public ApproxDp toApproxDp(double conversionDelta) {
    PrivacyLoss.requireDelta("conversionDelta", conversionDelta);
    double eps = rho == 0 ? 0.0 : ZcdpConversion.tightEpsilon(rho, conversionDelta);
    return EventMeasures.approxDp(eps, UpwardRounding.add(delta, conversionDelta),
        "approximate zCDP conversion");
  }

  /** The sequential composition of this and {@code other} (ρ's and δ's add, rounded up). */
  public ApproxZcdp compose(ApproxZcdp other) {
    double d = UpwardRounding.add(delta, other.delta);
    if (!(d < 1)) {
      throw new IllegalArgumentException("composed delta reaches 1");
    }
    return new ApproxZcdp(UpwardRounding.add(rho, other.rho), d);
  }
}
