package org.privet.mechanisms;

import java.util.concurrent.ConcurrentHashMap;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.ZcdpConversion;
import org.privet.noise.DiscreteGaussian;
import org.privet.random.RandomSource;

/**
 * The Gaussian mechanism for real-valued queries of ℓ2 sensitivity Δ, floating-point safe: the
 * release is a point of the grid g·ℤ (g a power of two) equal to the input snapped to the grid
 * plus exact discrete Gaussian noise N<sub>ℤ</sub>(0, σ<sub>g</sub>²) in grid units (Canonne,
 * Kamath, Steinke 2020, Algorithm 3).
 *
 * <p>Calibration ({@link GaussianCalibration}): {@code CLASSIC} σ = Δ·√(2 ln(1.25/δ))/ε (Dwork
 * &amp; Roth 2014, Theorem A.1; only for ε &lt; 1) or {@code ANALYTIC}, the smallest σ with
 * Φ(Δ/(2σ) − εσ/Δ) − e<sup>ε</sup>Φ(−Δ/(2σ) − εσ/Δ) ≤ δ (Balle &amp; Wang 2018, "Improving the
 * Gaussian Mechanism for Differential Privacy", Theorem 8), found by bisection and rounded up.
 *
 * <p>Decisions (argument in {@code docs/proofs/grid-noise.md}):
 *
 * <ul>
 *   <li>Grid g = 2<sup>⌊log2 σ₀⌋ − 13</sup> for the continuous σ₀: σ spans 2<sup>13</sup>–
 *       2<sup>14</sup> grid steps, which keeps the exact sampler in {@code long} arithmetic.
 *   <li>Scalar inputs at distance ≤ Δ snap to indices at most s = ⌈Δ/g⌉ apart; σ<sub>g</sub> is
 *       calibrated for sensitivity s in grid units, σ<sub>g</sub>² rounded up to an integer.
 *   <li>The (ε, δ) claim is then <em>certified for the discrete Gaussian</em>, not borrowed from
 *       the continuous one: by CKS20 Theorem 7 the exact δ of N<sub>ℤ</sub>(0, σ²) with integer
 *       shift μ is P[Y &gt; εσ²/μ − μ/2] − e<sup>ε</sup>P[Y &gt; εσ²/μ + μ/2]; we bound both discrete
 *       tails rigorously (integral sandwich) for μ = s (and every μ ≤ 256) and raise σ<sub>g</sub>
 *       until the bound is ≤ δ.
 *   <li>Vectors of dimension m ≥ 2: the snapped ℓ2 distance is below Δ/g + √m; the claim goes
 *       through ρ-zCDP of the multivariate discrete Gaussian (CKS20, Proposition 5, summed over coordinates) and the
 *       zCDP-to-(ε, δ) conversion of {@link ZcdpConversion}, so vectors get a somewhat larger σ
 *       ({@link #sigma(int)}).
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
public final class GaussianMechanism {
  /** σ spans 2^13 to 2^14 grid steps. */
  static final int GRID_BITS = 13;
  private static final int CERTIFY_ALL_SHIFTS_UP_TO = 256;

  private final double epsilon;
  private final double delta;
  private final double sensitivity;
  private final PowerOfTwoGrid grid;
  private final long gridSensitivity;
  private final long sigmaSqSteps;
  private final RandomSource random;
  private final ConcurrentHashMap<Integer, Long> vectorSigmaSqSteps = new ConcurrentHashMap<>();

  private GaussianMechanism(Builder b) {
    this.epsilon = NoiseParameters.requireEpsilon(b.epsilon);
    this.delta = requirePositiveDelta(b.delta);
    this.sensitivity = NoiseParameters.requirePositive("sensitivity", b.sensitivity);
    this.random = NoiseParameters.requireSet("randomSource", b.random);
    GaussianCalibration calibration = NoiseParameters.requireSet("calibration", b.calibration);
    double sigma0 = sigmaFor(calibration, epsilon, delta, sensitivity);
    this.grid = PowerOfTwoGrid.below(sigma0, GRID_BITS);
    double steps = Math.ceil(grid.steps(sensitivity));
    if (steps > 0x1p40) {
      throw new IllegalArgumentException("epsilon is too large for the Gaussian grid");
    }
    this.gridSensitivity = (long) steps;
    double sigmaSteps = sigmaFor(calibration, epsilon, delta, gridSensitivity);
    long n = (long) Math.ceil(sigmaSteps * sigmaSteps);
    while (!certified(n)) {
      n += Math.max(1, n >>> 12);
    }
    this.sigmaSqSteps = n;
  }

  public static Builder builder() {
    return new Builder();
  }

  private static double requirePositiveDelta(double delta) {
    NoiseParameters.requireDelta(delta);
    if (delta == 0) {
      throw new IllegalArgumentException("delta must be positive for the Gaussian mechanism (use Laplace for delta = 0)");
    }
    return delta;
  }

  private static double sigmaFor(GaussianCalibration c, double epsilon, double delta, double sensitivity) {
    return c == GaussianCalibration.CLASSIC
        ? classicSigma(epsilon, delta, sensitivity)
        : analyticSigma(epsilon, delta, sensitivity);
  }

  /** Whether N_Z(0, n) in grid units satisfies (ε, δ) for every integer shift up to s. */
  private boolean certified(long n) {
    double sigmaSq = n;
    if (DiscreteGaussianTails.discreteDeltaUpper(epsilon, gridSensitivity, sigmaSq) > delta) {
      return false;
    }
    long upTo = Math.min(gridSensitivity, CERTIFY_ALL_SHIFTS_UP_TO);
    for (long mu = 1; mu <= upTo; mu++) {
      if (DiscreteGaussianTails.discreteDeltaUpper(epsilon, mu, sigmaSq) > delta) {
        return false;
      }
    }
    return true;
  }

  /**
   * The classic σ = Δ·√(2 ln(1.25/δ))/ε of Dwork &amp; Roth (2014), Theorem A.1, rounded up.
   *
   * @throws IllegalArgumentException if ε ≥ 1 (the theorem does not hold; use the analytic one)
   */
  public static double classicSigma(double epsilon, double delta, double l2Sensitivity) {
    NoiseParameters.requireEpsilon(epsilon);
    requirePositiveDelta(delta);
    NoiseParameters.requirePositive("sensitivity", l2Sensitivity);
    if (epsilon >= 1) {
      throw new IllegalArgumentException(
          "epsilon must be below 1 for the CLASSIC Gaussian calibration, was " + epsilon
              + "; use GaussianCalibration.ANALYTIC");
    }
    double s = l2Sensitivity * Math.sqrt(2 * Math.log(1.25 / delta)) / epsilon;
    return Math.nextUp(Math.nextUp(Math.nextUp(s)));
  }

  /**
   * The analytic σ of Balle &amp; Wang (2018), Theorem 8: the smallest σ with δ(σ) =
   * Φ(Δ/(2σ) − εσ/Δ) − e<sup>ε</sup>Φ(−Δ/(2σ) − εσ/Δ) ≤ δ, by bisection on the exact formula (δ(σ)
   * is decreasing), aiming at δ·(1 − 10<sup>−9</sup>) to absorb floating-point error and
   * returning the upper end of the bracket.
   */
  public static double analyticSigma(double epsilon, double delta, double l2Sensitivity) {
    NoiseParameters.requireEpsilon(epsilon);
    requirePositiveDelta(delta);
    NoiseParameters.requirePositive("sensitivity", l2Sensitivity);
    double target = delta * (1 - 1e-9);
    double hi = l2Sensitivity;
    while (MechanismLoss.Gaussian.analyticDelta(epsilon, l2Sensitivity, hi) > target) {
      hi *= 2;
    }
    double lo = hi;
    while (lo > Double.MIN_NORMAL && MechanismLoss.Gaussian.analyticDelta(epsilon, l2Sensitivity, lo) <= target) {
      lo /= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
      double mid = lo + (hi - lo) / 2;
      if (MechanismLoss.Gaussian.analyticDelta(epsilon, l2Sensitivity, mid) > target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return Math.nextUp(hi);
  }

  /** Releases {@code value} (snapped to the grid) plus exact discrete Gaussian noise; (ε, δ)-DP. */
  public double release(double value) {
    return noisy(value, sigmaSqSteps);
  }

  /**
   * Releases every coordinate plus independent noise; (ε, δ)-DP for a vector query of ℓ2
   * sensitivity Δ (σ per dimension: {@link #sigma(int)}).
   */
  public double[] release(double[] values) {
    long n = values.length <= 1 ? sigmaSqSteps : vectorSigmaSqSteps(values.length);
    double[] out = new double[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = noisy(values[i], n);
    }
    return out;
  }

  private double noisy(double value, long sigmaSq) {
    long k = GeometricMechanism.saturatingAdd(grid.snap(value), DiscreteGaussian.sample(random, sigmaSq, 1));
    return grid.toReal(k);
  }

  private long vectorSigmaSqSteps(int m) {
    return vectorSigmaSqSteps.computeIfAbsent(m, dim -> {
      double s2 = Math.nextUp(grid.steps(sensitivity) + Math.nextUp(Math.sqrt(dim)));
      // Largest ρ whose zCDP-to-(ε, δ) conversion meets δ.
      double lo = ZcdpConversion.largestRhoAtEpsilon(epsilon, delta);
      if (lo == 0) {
        throw new IllegalArgumentException("cannot calibrate the vector Gaussian for these epsilon and delta");
      }
      double sigmaSq = Math.nextUp(s2 * s2 / (2 * lo));
      return Math.max(sigmaSqSteps, (long) Math.ceil(Math.nextUp(sigmaSq)));
    });
  }

  /** (ε, δ)-DP as requested. */
  public ApproxDp privacyLoss() {
    return new ApproxDp(epsilon, delta);
  }

  /**
   * The full privacy-loss description of a scalar release, for tight accountants (RDP, PLD): the
   * discrete Gaussian on the grid, σ<sub>g</sub> steps (rounded down, so toward more loss) for the
   * snapped sensitivity s = ⌈Δ/g⌉ steps. Its exact δ(ε) is what the constructor certified to be at
   * most δ (CKS20 Theorem 7), so it is (ε, δ)-DP as {@link #privacyLoss()} states.
   */
  public MechanismLoss.DiscreteGaussian mechanismLoss() {
    return new MechanismLoss.DiscreteGaussian(NoiseParameters.sqrtDownward(sigmaSqSteps, 1), gridSensitivity);
  }

  /** The σ of the noise of a scalar release (in the query's units), at least the calibrated σ. */
  public double sigma() {
    return grid.granularity() * Math.sqrt((double) sigmaSqSteps);
  }

  /** The σ of the per-coordinate noise of a vector release of the given dimension. */
  public double sigma(int dimension) {
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be positive, was " + dimension);
    }
    long n = dimension == 1 ? sigmaSqSteps : vectorSigmaSqSteps(dimension);
    return grid.granularity() * Math.sqrt((double) n);
  }

  /** The output grid's step g (a power of two). */
  public double granularity() {
    return grid.granularity();
  }

  /**
   * An interval around a scalar release holding the true value with probability ≥ 1 − β: k·g
   * with k from a rigorous upper bound on the discrete Gaussian tail, widened by g/2 for the
   * snapping.
   */
  public ConfidenceInterval confidenceInterval(double released, double beta) {
    NoiseParameters.requireBeta(beta);
    long k = DiscreteGaussianTails.discreteHalfWidth(Math.sqrt((double) sigmaSqSteps), beta);
    double half = grid.toReal(k) + grid.granularity() / 2;
    return new ConfidenceInterval(released - half, released + half, 1 - beta);
  }

  /** Validating builder; sensitivity defaults to 1, calibration to ANALYTIC, the source to the CSPRNG. */
  public static final class Builder {
    private double epsilon = Double.NaN;
    private double delta = Double.NaN;
    private double sensitivity = 1;
    private GaussianCalibration calibration = GaussianCalibration.ANALYTIC;
    private RandomSource random = RandomSource.secure();

    private Builder() {}

    public Builder epsilon(double epsilon) {
      this.epsilon = NoiseParameters.requireEpsilon(epsilon);
      return this;
    }

    public Builder delta(double delta) {
      this.delta = requirePositiveDelta(delta);
      return this;
    }

    /** The ℓ2 sensitivity Δ &gt; 0. */
    public Builder sensitivity(double sensitivity) {
      this.sensitivity = NoiseParameters.requirePositive("sensitivity", sensitivity);
      return this;
    }

    public Builder calibration(GaussianCalibration calibration) {
      this.calibration = NoiseParameters.requireSet("calibration", calibration);
      return this;
    }

    public Builder randomSource(RandomSource random) {
      this.random = NoiseParameters.requireSet("randomSource", random);
      return this;
    }

    /**
     * @throws IllegalArgumentException if ε or δ is unset, or CLASSIC is chosen with ε ≥ 1
     */
    public GaussianMechanism build() {
      return new GaussianMechanism(this);
    }
  }
}
