package org.privet.accounting;

/**
 * A mechanism run on a Poisson subsample: each privacy unit is included independently with
 * probability {@code samplingRate}, under {@link NeighbouringRelation#ADD_REMOVE_ONE} (the relation
 * used by DP-SGD accountants). Amplification by subsampling then applies: for an (ε, δ)-DP base,
 * (ln(1 + q(e^ε − 1)), qδ)-DP (Balle, Barthe, Gaboardi 2018, Thm. 8; Li, Qardaji, Su 2012), and the
 * Rényi/PLD accountants use the exact subsampled privacy loss (Mironov, Talwar, Zhang 2019; Zhu,
 * Dong, Wang 2022, Thm. 11).
 *
 * @param base the mechanism applied to the subsample: {@link PureDp}, {@link ApproxDp} or a {@link
 *     MechanismLoss}
 * @param samplingRate q ∈ (0, 1]
 */
public record PoissonSubsampled(PrivacyLoss base, double samplingRate) implements PrivacyLoss {
  public PoissonSubsampled {
    if (base == null) {
      throw new IllegalArgumentException("base must not be null");
    }
    if (!(base instanceof PureDp || base instanceof ApproxDp || base instanceof MechanismLoss)) {
      throw new IllegalArgumentException(
          "base must be PureDp, ApproxDp or a MechanismLoss, was " + base.getClass().getSimpleName());
    }
    if (Double.isNaN(samplingRate) || samplingRate <= 0 || samplingRate > 1) {
      throw new IllegalArgumentException("samplingRate must be in (0, 1], was " + samplingRate);
    }
  }

  /**
   * The amplified (ε, δ) when the base has one: ε' = ln(1 + q(e^ε − 1)), δ' = qδ, rounded up; null
   * for Gaussian-type bases.
   */
  public ApproxDp amplifiedApproxDp() {
    ApproxDp b = Subsampling.baseApproxDp(base);
    return b == null ? null : Subsampling.poisson(b, samplingRate);
  }
}
