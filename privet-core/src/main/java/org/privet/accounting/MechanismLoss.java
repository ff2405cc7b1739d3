package org.privet.accounting;

/**
 * The privacy loss of a release described by the mechanism itself, so that tight accountants (Rényi
 * DP, privacy loss distributions) can use its exact privacy loss rather than a summary. Each record
 * also reads as a summary measure where one exists ({@link #pureEpsilon()}, {@link #zcdpRho()}).
 *
 * <p>Parameters are relative to the sensitivity under whichever {@link NeighbouringRelation} the
 * caller used to compute that sensitivity; Poisson subsampling ({@link PoissonSubsampled}) is under
 * {@link NeighbouringRelation#ADD_REMOVE_ONE}.
 */
public sealed interface MechanismLoss extends PrivacyLoss {

  /** The pure ε this mechanism satisfies, or NaN if none is finite. */
  double pureEpsilon();

  /** The ρ of the zCDP it satisfies (ε²/2 for pure mechanisms), rounded up. */
  double zcdpRho();

  /**
   * The Gaussian mechanism with noise σ = noiseMultiplier · Δ₂ (Dwork &amp; Roth 2014, App. A; exact
   * privacy profile Balle &amp; Wang 2018). ρ = 1/(2·noiseMultiplier²) (Bun &amp; Steinke 2016, Prop.
   * 1.6); RDP α/(2·noiseMultiplier²) (Mironov 2017, Prop. 7).
   */
  record Gaussian(double noiseMultiplier) implements MechanismLoss {
    public Gaussian {
      requirePositive("noiseMultiplier", noiseMultiplier);
    }

    @Override
    public double pureEpsilon() {
      return Double.NaN;
    }

    @Override
    public double zcdpRho() {
      return UpwardRounding.divide(0.5, UpwardRounding.down(noiseMultiplier * noiseMultiplier));
    }
  }

  /** The Laplace mechanism with scale b = noiseMultiplier · Δ₁: ε = 1/noiseMultiplier. */
  record Laplace(double noiseMultiplier) implements MechanismLoss {
    public Laplace {
      requirePositive("noiseMultiplier", noiseMultiplier);
    }

    @Override
    public double pureEpsilon() {
      return UpwardRounding.divide(1.0, noiseMultiplier);
    }

    @Override
    public double zcdpRho() {
      return ZcdpAccountant.halfSquare(pureEpsilon());
    }
  }

  /**
   * The discrete Laplace (two-sided geometric) mechanism, P(x) ∝ exp(−|x|/scale), on an integer
   * query of sensitivity {@code sensitivity}: ε = sensitivity/scale (Ghosh, Roughgarden, Sundararajan
   * 2012; Canonne, Kamath, Steinke 2020).
   */
  record DiscreteLaplace(double scale, long sensitivity) implements MechanismLoss {
    public DiscreteLaplace {
      requirePositive("scale", scale);
      if (sensitivity < 1) {
        throw new IllegalArgumentException("sensitivity must be a positive integer, was " + sensitivity);
      }
    }

    @Override
    public double pureEpsilon() {
      return UpwardRounding.divide(sensitivity, scale);
    }

    @Override
    public double zcdpRho() {
      return ZcdpAccountant.halfSquare(pureEpsilon());
    }
  }

  /**
   * The discrete Gaussian mechanism, P(x) ∝ exp(−x²/(2σ²)) on the integers, for an integer query of
   * sensitivity {@code sensitivity}: ρ = sensitivity²/(2σ²)-zCDP (Canonne, Kamath, Steinke 2020,
   * Thm. 14).
   */
  record DiscreteGaussian(double sigma, long sensitivity) implements MechanismLoss {
    public DiscreteGaussian {
      requirePositive("sigma", sigma);
      if (sensitivity < 1) {
        throw new IllegalArgumentException("sensitivity must be a positive integer, was " + sensitivity);
      }
    }

    @Override
    public double pureEpsilon() {
      return Double.NaN;
    }

    @Override
    public double zcdpRho() {
      double s2 = UpwardRounding.multiply((double) sensitivity, (double) sensitivity);
      return UpwardRounding.divide(UpwardRounding.multiply(0.5, s2), UpwardRounding.down(sigma * sigma));
    }
  }

  /**
   * k-ary randomized response (Warner 1965; Kairouz, Oh, Viswanath 2016): report the true category
   * with probability e^ε/(e^ε + k − 1), else a uniformly chosen other one. ε-DP; for k = 2 its privacy
   * loss is the worst case over all ε-DP mechanisms.
   */
  record RandomizedResponse(double epsilon, int categories) implements MechanismLoss {
    public RandomizedResponse {
      requirePositive("epsilon", epsilon);
      if (categories < 2) {
        throw new IllegalArgumentException("categories must be at least 2, was " + categories);
      }
    }

    @Override
    public double pureEpsilon() {
      return epsilon;
    }

    @Override
    public double zcdpRho() {
      return ZcdpAccountant.halfSquare(epsilon);
    }
  }

  private static void requirePositive(String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value) || value <= 0) {
      throw new IllegalArgumentException(name + " must be finite and positive, was " + value);
    }
  }
}
