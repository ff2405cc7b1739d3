package org.privet.models;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.accounting.ApproxDp;
import org.privet.random.RandomSource;

/**
 * L2-regularised logistic regression by objective perturbation, (ε, δ) variant: releases the exact
 * minimiser of J(θ) = Σ<sub>i</sub> w<sub>i</sub>ℓ(θ; x<sub>i</sub>, y<sub>i</sub>) + (Λ/2)‖θ‖² + ⟨b, θ⟩
 * with b Gaussian (Chaudhuri, Monteleoni, Sarwate 2011, "Differentially private empirical risk
 * minimization", JMLR 12, Alg. 2 (pure ε, Gamma-norm noise); Kifer, Smith, Thakurta 2012, "Private
 * convex empirical risk minimization and high-dimensional regression", COLT, Thm. 2 (Gaussian b,
 * (ε, δ)); the GLM-specific loss bound follows Redberg, Koskela, Wang 2023).
 *
 * <p>Privacy (docs/proofs/dp-models.md, "Objective perturbation"): ‖x‖ ≤ 1 and |ℓ'| ≤ 1 make a
 * unit's gradient a convex combination of at most k vectors s·x<sub>j</sub>, |s| ≤ 1; its Hessian
 * has trace ≤ β = 1/4. The θ ↔ b map is a bijection; the Jacobian ratio is at most 1 + β/Λ (k = 1)
 * or e<sup>β/Λ</sup>; the Gaussian density ratio is at most e<sup>(1 + 2σt)/(2σ²)</sup> unless some
 * |⟨b, x<sub>j</sub>⟩| &gt; σt, which has probability ≤ 2kΦ̄(t). Noise from
 * {@link DitheredGaussian} adds its transfer gap. The constructor solves for the smallest σ with
 * ε<sub>jac</sub> + 1/(2σ²) + t/σ + 2·gap ≤ ε and checks the δ total.
 *
 * <p>Decisions (fixed defaults, never tuned on private data): Λ such that ε<sub>jac</sub> = ε/10;
 * the minimiser is computed by Newton to a gradient norm of 10<sup>−10</sup> (the exact-minimiser
 * assumption holds to that tolerance: stated in the proof). Immutable.
 */
public final class ObjectivePerturbation {
  /** The logistic loss's curvature bound for ‖x‖ ≤ 1. */
  static final double BETA = 0.25;
  /** Share of ε spent on the Jacobian term when Λ is not given. */
  static final double JACOBIAN_SHARE = 0.1;

  private final double epsilon;
  private final double delta;
  private final int maxRowsPerUnit;
  private final double lambda;
  private final double epsilonJacobian;
  private final double t;
  private final DitheredGaussian noise;
  private final double epsilonClaimed;
  private final double deltaClaimed;
  private final double gap;
  private final double tailX;

  private ObjectivePerturbation(double epsilon, double delta, int maxRowsPerUnit, Double lambdaOrNull, int dimension) {
    this.epsilon = requireEpsilon(epsilon);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1) for objective perturbation (its Gaussian"
          + " variant), was " + delta);
    }
    this.delta = delta;
    if (maxRowsPerUnit < 1) {
      throw new IllegalArgumentException("max-rows-per-unit must be at least 1, was " + maxRowsPerUnit);
    }
    this.maxRowsPerUnit = maxRowsPerUnit;
    double target = JACOBIAN_SHARE * epsilon;
    double lam = lambdaOrNull != null ? lambdaOrNull
        : maxRowsPerUnit == 1 ? BETA / Math.expm1(target) : BETA / target;
    if (!(lam > 0) || !Double.isFinite(lam)) {
      throw new IllegalArgumentException("regularization must be positive and finite, was " + lam);
    }
    this.lambda = lam;
    this.epsilonJacobian = Math.nextUp(maxRowsPerUnit == 1 ? Math.log1p(BETA / lam) : BETA / lam);
    double deltaGauss = 0.98 * delta;
    this.tailX = Math.log((1 + Math.exp(epsilon + 1)) / (0.01 * delta));
    this.t = DitheredGaussian.twoSidedQuantile(deltaGauss / maxRowsPerUnit);
    // the gap at the smallest σ_g the noise can have (2^30 steps): an upper bound for the real one
    double gapBound = gapAt(Math.scalb(1.0, DitheredGaussian.GRID_BITS), dimension, tailX);
    double e2 = epsilon - epsilonJacobian - 2 * gapBound;
    if (!(e2 > 0)) {
      throw new IllegalArgumentException("regularization too small for epsilon " + epsilon
          + ": its Jacobian term alone is " + epsilonJacobian + " (raise --regularization)");
    }
    double sigma = (t + Math.sqrt(t * t + 2 * e2)) / (2 * e2);
    this.noise = new DitheredGaussian(Math.nextUp(sigma));
    this.gap = noise.logDensityGap(dimension, tailX);
    double s = noise.sigma();
    this.epsilonClaimed = epsilonJacobian + 1 / (2 * s * s) + t / s + 2 * gap;
    double deltaIdeal = 2 * maxRowsPerUnit * org.privet.math.Normal.upperTail(t);
    this.deltaClaimed = deltaIdeal * Math.exp(gap)
        + Math.exp(-tailX) * (1 + Math.exp(epsilonJacobian + 1 / (2 * s * s) + t / s + gap));
    if (!(epsilonClaimed <= epsilon) || !(deltaClaimed <= delta) || gap > 1e-3) {
      throw new IllegalStateException("objective perturbation calibration failed: (" + epsilonClaimed + ", "
          + deltaClaimed + ") exceeds (" + epsilon + ", " + delta + ")");
    }
  }

  private static double gapAt(double sigmaSteps, int dimension, double x) {
    double d = dimension;
    double r = Math.sqrt(d + 2 * Math.sqrt(d * x) + 2 * x);
    return Math.nextUp((Math.sqrt(d) * (sigmaSteps * r + Math.sqrt(d) / 2) + d / 4) / (2 * sigmaSteps * sigmaSteps)
        * (1 + 1e-12) + 1e-300);
  }

  static double requireEpsilon(double epsilon) {
    if (!(epsilon > 0) || !Double.isFinite(epsilon)) {
      throw new IllegalArgumentException("epsilon must be positive and finite, was " + epsilon);
    }
    return epsilon;
  }

  /**
   * A calibrated mechanism for models of the given encoded dimension.
   *
   * @param regularization Λ, or null for the default (ε<sub>jac</sub> = ε/10)
   */
  public static ObjectivePerturbation of(double epsilon, double delta, int maxRowsPerUnit,
      Double regularization, int dimension) {
    return new ObjectivePerturbation(epsilon, delta, maxRowsPerUnit, regularization, dimension);
  }

  /** What this release costs: the requested (ε, δ), which the calibration certifies. */
  public ApproxDp privacyLoss() {
    return new ApproxDp(epsilon, delta);
  }

  /** Λ. */
  public double regularization() {
    return lambda;
  }

  /** The noise σ per coordinate of b. */
  public double sigma() {
    return noise.sigma();
  }

  /** The certified (ε, δ) (at most the requested one), with its parts, for the model's statement. */
  public Map<String, Object> statement() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mechanism", "objective perturbation, Gaussian (Kifer-Smith-Thakurta 2012)");
    m.put("epsilon", epsilon);
    m.put("delta", delta);
    m.put("epsilon_certified", epsilonClaimed);
    m.put("delta_certified", deltaClaimed);
    m.put("epsilon_jacobian", epsilonJacobian);
    m.put("regularization", lambda);
    m.put("noise_sigma", noise.sigma());
    m.put("max_rows_per_unit", maxRowsPerUnit);
    return m;
  }

  /** Trains (after the charge): total, never throws on the data. */
  public Model train(TrainingSet set, RandomSource random) {
    if (set.maxRowsPerUnit() > maxRowsPerUnit) {
      throw new IllegalArgumentException("training set bounds " + set.maxRowsPerUnit()
          + " rows per unit, the mechanism " + maxRowsPerUnit);
    }
    double[] b = noise.sample(random, set.encoder().dimension());
    double[] theta = LogisticObjective.minimise(set, lambda, b);
    return Model.logistic("objective-perturbation", set.encoder(), (Label.Binary) set.label(), theta, statement());
  }

  /** The non-private model from the same code (b = 0, same Λ): the benchmark's baseline only. */
  public static Model trainNonPrivate(TrainingSet set, double regularization) {
    double[] theta = LogisticObjective.minimise(set, regularization, new double[set.encoder().dimension()]);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mechanism", "none (NOT differentially private)");
    m.put("regularization", regularization);
    return Model.logistic("non-private", set.encoder(), (Label.Binary) set.label(), theta, m);
  }
}
