package org.privet.mechanisms;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.Zcdp;
import org.privet.noise.DiscreteGaussian;
import org.privet.random.RandomSource;

/**
 * The discrete Gaussian mechanism for integer-valued queries: releases q(x) + Z with Z drawn
 * exactly from N<sub>ℤ</sub>(0, σ²), P[Z = z] ∝ exp(−z²/(2σ²)).
 *
 * <p>Theorem (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for Differential Privacy",
 * Proposition 5, with additivity of Rényi divergence over independent coordinates for vectors):
 * if ‖q(x) − q(x')‖<sub>2</sub> ≤ Δ for neighbours (integer vectors, independent
 * noise per coordinate), the release is ρ-zCDP with ρ = Δ²/(2σ²). Sampling is CKS20 Algorithm 3
 * ({@link DiscreteGaussian}).
 *
 * <p>Decision: σ² is held as an exact rational n/2<sup>j</sup> rounded <em>upward</em> from the
 * requested value, so the realised ρ never exceeds {@link #privacyLoss()}. With
 * {@code rho(...)} the builder sets σ² = Δ²/(2ρ); with {@code sigma(...)} the reported ρ is
 * Δ²/(2σ²) rounded upward.
 *
 * <p>Immutable and thread-safe.
 */
public final class DiscreteGaussianMechanism {
  private final long sensitivity;
  private final long sigmaSqNum;
  private final long sigmaSqDen;
  private final double rho;
  private final RandomSource random;

  private DiscreteGaussianMechanism(Builder b) {
    this.random = NoiseParameters.requireSet("randomSource", b.random);
    if (Double.isNaN(b.rho) == Double.isNaN(b.sigma)) {
      throw new IllegalArgumentException("exactly one of rho and sigma must be set");
    }
    BigDecimal delta2;
    if (b.squaredSensitivity > 0) {
      // Δ² exactly (e.g. L0·L∞² for a count over L0 groups, whose Δ = √L0·L∞ is irrational);
      // the integer Δ kept for mechanismLoss() is ⌈√Δ²⌉, which only overstates that loss.
      delta2 = new BigDecimal(b.squaredSensitivity);
      java.math.BigInteger d2 = java.math.BigInteger.valueOf(b.squaredSensitivity);
      java.math.BigInteger r = d2.sqrt();
      long root = r.multiply(r).compareTo(d2) < 0 ? r.longValueExact() + 1 : r.longValueExact();
      this.sensitivity = Math.max(1, root);
    } else {
      this.sensitivity = NoiseParameters.requirePositive("sensitivity", b.sensitivity);
      delta2 = new BigDecimal(sensitivity).pow(2);
    }
    BigDecimal sigmaSq =
        Double.isNaN(b.sigma)
            ? delta2.divide(new BigDecimal(2 * b.rho), new MathContext(40, RoundingMode.CEILING))
            : new BigDecimal(b.sigma).pow(2);
    // Keep σ² = n/2^j with n around 2^24 so the sampler's exponent stays in long arithmetic.
    int j = Math.max(0, Math.min(40, 23 - Math.getExponent(sigmaSq.doubleValue())));
    this.sigmaSqDen = 1L << j;
    this.sigmaSqNum = NoiseParameters.ceilDiv(sigmaSq.multiply(new BigDecimal(sigmaSqDen)), BigDecimal.ONE, "sigma");
    if (Double.isNaN(b.sigma)) {
      this.rho = b.rho; // n/2^j >= Δ²/(2ρ), so the realised ρ is at most this
    } else {
      BigDecimal realised =
          delta2.multiply(new BigDecimal(sigmaSqDen))
              .divide(new BigDecimal(2 * sigmaSqNum), new MathContext(30, RoundingMode.CEILING));
      this.rho = Math.nextUp(realised.doubleValue());
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Releases {@code value} plus discrete Gaussian noise (saturating at the long range). */
  public long release(long value) {
    return GeometricMechanism.saturatingAdd(value, DiscreteGaussian.sample(random, sigmaSqNum, sigmaSqDen));
  }

  /** Releases each coordinate plus independent noise; ρ-zCDP for ℓ2 sensitivity Δ (CKS20 Prop. 5). */
  public long[] release(long[] values) {
    return java.util.Arrays.stream(values).map(this::release).toArray();
  }

  /** ρ-zCDP with ρ = Δ²/(2σ²) (CKS20, Proposition 5). */
  public Zcdp privacyLoss() {
    return new Zcdp(rho);
  }

  /**
   * The full privacy-loss description, for tight accountants (RDP, PLD): the discrete Gaussian of
   * the realised σ (rounded down, so toward more loss) and ℓ2 sensitivity Δ (⌈√Δ²⌉ when built with
   * {@link Builder#squaredSensitivity}); its ρ is at least {@link #privacyLoss()}'s.
   */
  public MechanismLoss.DiscreteGaussian mechanismLoss() {
    return new MechanismLoss.DiscreteGaussian(NoiseParameters.sqrtDownward(sigmaSqNum, sigmaSqDen), sensitivity);
  }

  /** The parameter σ of the noise (its standard deviation is at most σ, CKS20 Prop. 19). */
  public double sigma() {
    return Math.sqrt((double) sigmaSqNum / sigmaSqDen);
  }

  /**
   * [released − k, released + k] with k the smallest integer for which a rigorous upper bound on
   * P[|Z| &gt; k] (integral sandwich of the discrete tail, see {@code DiscreteGaussianTails}) is ≤ β; the
   * coverage is therefore at least 1 − β.
   */
  public ConfidenceInterval confidenceInterval(long released, double beta) {
    NoiseParameters.requireBeta(beta);
    long k = DiscreteGaussianTails.discreteHalfWidth(sigma(), beta);
    return new ConfidenceInterval((double) released - k, (double) released + k, 1 - beta);
  }

  /** Validating builder: set exactly one of {@code rho} and {@code sigma}; sensitivity defaults to 1. */
  public static final class Builder {
    private double rho = Double.NaN;
    private double sigma = Double.NaN;
    private long sensitivity = 1;
    private long squaredSensitivity;
    private RandomSource random = RandomSource.secure();

    private Builder() {}

    public Builder rho(double rho) {
      this.rho = NoiseParameters.requirePositive("rho", rho);
      return this;
    }

    public Builder sigma(double sigma) {
      this.sigma = NoiseParameters.requirePositive("sigma", sigma);
      return this;
    }

    public Builder sensitivity(long sensitivity) {
      this.sensitivity = NoiseParameters.requirePositive("sensitivity", sensitivity);
      return this;
    }

    /**
     * The squared ℓ2 sensitivity Δ² itself (instead of {@link #sensitivity}, which it overrides):
     * σ² = Δ²/(2ρ) and ρ = Δ²/(2σ²) exactly (CKS20 Thm. 14 needs only Σ of squared integer
     * changes), so an irrational Δ such as √2·3 is not rounded up to an integer first.
     */
    public Builder squaredSensitivity(long squaredSensitivity) {
      this.squaredSensitivity = NoiseParameters.requirePositive("squaredSensitivity",
          squaredSensitivity);
      return this;
    }

    public Builder randomSource(RandomSource random) {
      this.random = NoiseParameters.requireSet("randomSource", random);
      return this;
    }

    public DiscreteGaussianMechanism build() {
      return new DiscreteGaussianMechanism(this);
    }
  }
}
