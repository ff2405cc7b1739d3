package org.privet.mechanisms;

import java.math.BigDecimal;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PureDp;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * The Laplace mechanism for real-valued queries, floating-point safe: releases a point of the grid
 * g·ℤ (g a power of two) equal to the input snapped to the grid plus exact discrete Laplace noise
 * in grid units.
 *
 * <p>Theorem (Dwork, McSherry, Nissim, Smith 2006, "Calibrating noise to sensitivity in private
 * data analysis"; Dwork &amp; Roth 2014, Theorem 3.6, here in its discrete form of Ghosh et al.
 * 2009): if the query has ℓ1 sensitivity Δ, the release is ε-DP. The written argument for the grid
 * is {@code docs/proofs/grid-noise.md}.
 *
 * <p>Decisions:
 *
 * <ul>
 *   <li>Grid g = 2<sup>⌊log2(Δ/ε)⌋ − 40</sup>: the noise scale spans 2<sup>40</sup>–2<sup>41</sup>
 *       grid steps, so the output is indistinguishable from continuous Laplace noise at any
 *       practical resolution while all arithmetic stays in {@code long} (as in Google's "Secure
 *       Noise Generation" note, which uses the same 2<sup>40</sup> resolution).
 *   <li>Sensitivity is inflated for the snapping: scalar inputs at distance ≤ Δ snap to indices at
 *       most s = ⌈Δ/g⌉ apart; for a vector of dimension m the ℓ1 distance of the snapped indices is
 *       below Δ/g + m, so s = ⌈Δ/g⌉ + m − 1. The noise scale in grid units is ⌈s/ε⌉, so the
 *       realised privacy loss s/⌈s/ε⌉ never exceeds ε.
 *   <li>Output defeats Mironov's (2012) attack: every released double is k·g for an integer k
 *       whose law is exactly the discrete Laplace mechanism, so low-order bits carry nothing.
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class LaplaceMechanism {
  /** The noise scale spans 2^40 to 2^41 grid steps. */
  static final int GRID_BITS = 40;

  private final double epsilon;
  private final double sensitivity;
  private final PowerOfTwoGrid grid;
  private final long gridSensitivity;
  private final long scaleSteps;
  private final RandomSource random;

  private LaplaceMechanism(Builder b) {
    this.epsilon = NoiseParameters.requireEpsilon(b.epsilon);
    this.sensitivity = NoiseParameters.requirePositive("sensitivity", b.sensitivity);
    this.random = NoiseParameters.requireSet("randomSource", b.random);
    double lambda = sensitivity / epsilon;
    if (!(lambda > 0) || Double.isInfinite(lambda)) {
      throw new IllegalArgumentException("sensitivity/epsilon must be a positive finite number");
    }
    this.grid = PowerOfTwoGrid.below(lambda, GRID_BITS);
    double steps = Math.ceil(grid.steps(sensitivity));
    if (steps > 0x1p61) {
      throw new IllegalArgumentException("epsilon is too large for the Laplace grid (epsilon must be below 2^20)");
    }
    this.gridSensitivity = (long) steps;
    this.scaleSteps = scaleSteps(gridSensitivity);
  }

  public static Builder builder() {
    return new Builder();
  }

  private long scaleSteps(long s) {
    return NoiseParameters.ceilDiv(new BigDecimal(s), new BigDecimal(epsilon), "sensitivity/epsilon");
  }

  /** Releases {@code value} (snapped to the grid) plus exact Laplace noise; ε-DP. */
  public double release(double value) {
    long k = GeometricMechanism.saturatingAdd(grid.snap(value), DiscreteLaplace.sample(random, scaleSteps, 1));
    return grid.toReal(k);
  }

  /**
   * Releases every coordinate plus independent noise; ε-DP for a vector query of ℓ1 sensitivity
   * Δ. The noise scale grows by (m − 1) grid steps for dimension m to cover the snapping.
   */
  public double[] release(double[] values) {
    long scale = values.length <= 1 ? scaleSteps : scaleSteps(Math.addExact(gridSensitivity, values.length - 1L));
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      long k = GeometricMechanism.saturatingAdd(grid.snap(values[i]), DiscreteLaplace.sample(random, scale, 1));
      out[i] = grid.toReal(k);
    }
    return out;
  }

  /** Pure ε-DP. */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  /**
   * The full privacy-loss description of a scalar release, for tight accountants (RDP, PLD): the
   * discrete Laplace mechanism on the grid, scale {@code ⌈s/ε⌉} steps for the snapped sensitivity
   * s = ⌈Δ/g⌉ steps, whose pure ε = s/⌈s/ε⌉ is at most {@link #privacyLoss()}'s.
   */
  public MechanismLoss.DiscreteLaplace mechanismLoss() {
    return new MechanismLoss.DiscreteLaplace(NoiseParameters.downward(scaleSteps, 1), gridSensitivity);
  }

  /** The realised noise scale b of a scalar release (noise ∝ exp(−|z|/b)), at least Δ/ε. */
  public double scale() {
    return grid.toReal(scaleSteps);
  }

  /** The output grid's step g (a power of two). */
  public double granularity() {
    return grid.granularity();
  }

  /**
   * An interval around {@code released} holding the true value with probability ≥ 1 − β: the
   * exact discrete Laplace quantile k·g (P[|Z| &gt; k] = 2q<sup>k+1</sup>/(1+q), q =
   * e<sup>−1/scale</sup> in grid units), widened by g/2 for the snapping. Close to the continuous
   * (Δ/ε)·ln(1/β).
   */
  public ConfidenceInterval confidenceInterval(double released, double beta) {
    NoiseParameters.requireBeta(beta);
    long k = DiscreteLaplaceTail.halfWidth(1.0 / scaleSteps, beta);
    double half = grid.toReal(k) + grid.granularity() / 2;
    return new ConfidenceInterval(released - half, released + half, 1 - beta);
  }

  /** Validating builder; {@code sensitivity} defaults to 1, the source to the CSPRNG. */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private double sensitivity = 1;
    private RandomSource random = RandomSource.secure();

    private Builder() {}

    public Builder epsilon(double epsilon) {
      this.epsilon = NoiseParameters.requireEpsilon(epsilon);
      return this;
    }

    /** The ℓ1 sensitivity Δ &gt; 0. */
    public Builder sensitivity(double sensitivity) {
      this.sensitivity = NoiseParameters.requirePositive("sensitivity", sensitivity);
      return this;
    }

    public Builder randomSource(RandomSource random) {
      this.random = NoiseParameters.requireSet("randomSource", random);
      return this;
    }

    public LaplaceMechanism build() {
      return new LaplaceMechanism(this);
    }
  }
}
