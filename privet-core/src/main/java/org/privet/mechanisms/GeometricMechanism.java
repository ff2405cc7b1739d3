package org.privet.mechanisms;

import java.math.BigDecimal;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PureDp;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * The geometric mechanism for integer-valued queries: releases q(x) + Z with Z drawn exactly from
 * the discrete Laplace (two-sided geometric) law P[Z = z] ∝ exp(−|z|·ε/Δ).
 *
 * <p>Theorem (Ghosh, Roughgarden, Sundararajan 2009, "Universally utility-maximizing privacy
 * mechanisms", STOC; CKS20 Section 1): if |q(x) − q(x')| ≤ Δ for neighbours (ℓ1 for vectors), the
 * release is ε-differentially private. Noise is sampled by Canonne, Kamath, Steinke (2020),
 * Algorithm 2 ({@link DiscreteLaplace}).
 *
 * <p>Decision: the scale Δ/ε is represented as an exact rational num/2<sup>j</sup> rounded
 * <em>upward</em> (61 significant bits), so the realised privacy loss Δ·2<sup>j</sup>/num never
 * exceeds the ε reported by {@link #privacyLoss()}.
 *
 * <p>Immutable and thread-safe.
 */
public final class GeometricMechanism {
  private final double epsilon;
  private final long sensitivity;
  private final long scaleNum;
  private final long scaleDen;
  private final RandomSource random;

  private GeometricMechanism(Builder b) {
    this.epsilon = NoiseParameters.requireEpsilon(b.epsilon);
    this.sensitivity = NoiseParameters.requirePositive("sensitivity", b.sensitivity);
    this.random = NoiseParameters.requireSet("randomSource", b.random);
    double ratio = sensitivity / epsilon;
    int j = NoiseParameters.denominatorExponent(ratio);
    this.scaleDen = 1L << j;
    this.scaleNum =
        NoiseParameters.ceilDiv(
            new BigDecimal(sensitivity).multiply(new BigDecimal(scaleDen)),
            new BigDecimal(epsilon),
            "sensitivity/epsilon");
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Releases {@code value} plus discrete Laplace noise (saturating at the long range). */
  public long release(long value) {
    return saturatingAdd(value, DiscreteLaplace.sample(random, scaleNum, scaleDen));
  }

  /**
   * Releases each coordinate plus independent noise; ε-DP when the vector query has ℓ1
   * sensitivity at most {@code sensitivity}.
   */
  public long[] release(long[] values) {
    return java.util.Arrays.stream(values).map(this::release).toArray();
  }

  /** Pure ε-DP (Ghosh et al. 2009). */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  /**
   * The full privacy-loss description, for tight accountants (RDP, PLD): the discrete Laplace
   * mechanism of the realised scale (rounded down, so toward more loss) and sensitivity Δ; its pure
   * ε is at most {@link #privacyLoss()}'s.
   */
  public MechanismLoss.DiscreteLaplace mechanismLoss() {
    return new MechanismLoss.DiscreteLaplace(NoiseParameters.downward(scaleNum, scaleDen), sensitivity);
  }

  /** The noise scale t (noise ∝ exp(−|z|/t)), at least Δ/ε. */
  public double scale() {
    return (double) scaleNum / scaleDen;
  }

  /**
   * An interval [released − k, released + k] holding the true value with probability ≥ 1 − β,
   * where k is the smallest integer with P[|Z| &gt; k] = 2q<sup>k+1</sup>/(1+q) ≤ β, q =
   * exp(−1/t) (the exact tail of the discrete Laplace law).
   */
  public ConfidenceInterval confidenceInterval(long released, double beta) {
    NoiseParameters.requireBeta(beta);
    long k = DiscreteLaplaceTail.halfWidth((double) scaleDen / scaleNum, beta);
    return new ConfidenceInterval((double) released - k, (double) released + k, 1 - beta);
  }

  static long saturatingAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  /** Validating builder; {@code sensitivity} defaults to 1, the source to the CSPRNG. */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private long sensitivity = 1;
    private RandomSource random = RandomSource.secure();

    private Builder() {}

    public Builder epsilon(double epsilon) {
      this.epsilon = NoiseParameters.requireEpsilon(epsilon);
      return this;
    }

    public Builder sensitivity(long sensitivity) {
      this.sensitivity = NoiseParameters.requirePositive("sensitivity", sensitivity);
      return this;
    }

    public Builder randomSource(RandomSource random) {
      this.random = NoiseParameters.requireSet("randomSource", random);
      return this;
    }

    public GeometricMechanism build() {
      return new GeometricMechanism(this);
    }
  }
}
