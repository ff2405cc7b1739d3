package org.privet.models;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.accounting.ApproxDp;
import org.privet.mechanisms.GaussianMechanism;
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
 * or e<sup>β/Λ</sup>; the Gaussian part of the privacy loss is at most 1/(2σ²) + max<sub>j</sub>
 * |⟨b, x<sub>j</sub>⟩|/σ², a folded Gaussian loss, so the ideal mechanism is (ε<sub>jac</sub> + ε',
 * 2k·δ<sub>G</sub>(ε'))-DP for every ε' ≥ 1/(2σ²), with δ<sub>G</sub> the Balle–Wang profile of
 * the Gaussian mechanism of sensitivity 1. Noise from {@link DitheredGaussian} adds its transfer
 * gap. The constructor takes the smallest σ with 2k·δ<sub>G</sub>(ε − ε<sub>jac</sub> − 2·gap) ≤
 * 0.98·δ ({@link GaussianMechanism#analyticSigma}) and checks the totals.
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
  private final double epsilonGauss;
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
    this.lambda = regularization(epsilon, maxRowsPerUnit, lambdaOrNull);
    this.epsilonJacobian = jacobianEpsilon(lambda, maxRowsPerUnit);
    double deltaGauss = 0.98 * delta;
    this.tailX = Math.log((1 + Math.exp(epsilon + 1)) / (0.01 * delta));
    // the gap at the smallest σ_g the noise can have (2^30 steps): an upper bound for the real one
    double gapBound = gapAt(Math.scalb(1.0, DitheredGaussian.GRID_BITS), dimension, tailX);
    double e2 = epsilon - epsilonJacobian - 2 * gapBound;
    if (!(e2 > 0)) {
      throw new IllegalArgumentException("regularization too small for epsilon " + epsilon
          + ": its Jacobian term alone is " + epsilonJacobian + " (raise --regularization)");
    }
    this.epsilonGauss = e2;
    double sigma = GaussianMechanism.analyticSigma(e2, deltaGauss / (2.0 * maxRowsPerUnit), 1.0);
    this.noise = new DitheredGaussian(sigma);
    this.gap = noise.logDensityGap(dimension, tailX);
    double s = noise.sigma();
    if (!(e2 >= 1 / (2 * s * s))) {
      throw new IllegalArgumentException("epsilon " + epsilon + " and delta " + delta + " are outside the range"
          + " objective perturbation is calibrated for here (the Gaussian part needs epsilon >= 1/(2 sigma^2))");
    }
    double deltaIdeal = 2.0 * maxRowsPerUnit * org.privet.accounting.MechanismLoss.Gaussian.analyticDelta(e2, 1.0, s);
    this.epsilonClaimed = epsilonJacobian + e2 + 2 * gap;
    this.deltaClaimed = deltaIdeal * Math.exp(gap) * (1 + 1e-9)
        + Math.exp(-tailX) * (1 + Math.exp(epsilonJacobian + e2 + gap));
    if (!(epsilonClaimed <= epsilon) || !(deltaClaimed <= delta) || gap > 1e-3) {
      throw new IllegalStateException("objective perturbation calibration failed: (" + epsilonClaimed + ", "
          + deltaClaimed + ") exceeds (" + epsilon + ", " + delta + ")");
    }
  }

  /**
   * The ideal mechanism's privacy profile, an upper bound on its δ at ε' ≥ ε<sub>jac</sub> +
   * 1/(2σ²): 2k·δ<sub>G</sub>(ε' − ε<sub>jac</sub>) with δ<sub>G</sub> the Balle–Wang profile of
   * the Gaussian mechanism of sensitivity 1 and this σ (docs/proofs/dp-models.md). For audits.
   */
  double idealDelta(double epsilonPrime) {
    double e = epsilonPrime - epsilonJacobian;
    double s = noise.sigma();
    if (e < 1 / (2 * s * s)) {
      return 1.0;
    }
    return Math.min(1.0, 2.0 * maxRowsPerUnit * org.privet.accounting.MechanismLoss.Gaussian.analyticDelta(e, 1.0, s));
  }

  /**
   * The δ this mechanism states at ε' (its whole privacy profile, of which the calibrated (ε, δ) is
   * one point): the ideal profile at ε' − 2·gap, times e<sup>gap</sup>, plus the transfer tails.
   */
  double claimedDelta(double epsilonPrime) {
    double ideal = idealDelta(epsilonPrime - 2 * gap);
    return Math.min(1.0, ideal * Math.exp(gap) * (1 + 1e-9) + Math.exp(-tailX) * (1 + Math.exp(epsilonPrime)));
  }

  /** A copy whose noise is {@code factor} times smaller (audit power tests only). */
  ObjectivePerturbation withLessNoiseForAudit(double factor) {
    return new ObjectivePerturbation(this, new DitheredGaussian(noise.sigma() / factor));
  }

  private ObjectivePerturbation(ObjectivePerturbation o, DitheredGaussian weaker) {
    this.epsilon = o.epsilon;
    this.delta = o.delta;
    this.maxRowsPerUnit = o.maxRowsPerUnit;
    this.lambda = o.lambda;
    this.epsilonJacobian = o.epsilonJacobian;
    this.epsilonGauss = o.epsilonGauss;
    this.noise = weaker;
    this.epsilonClaimed = o.epsilonClaimed;
    this.deltaClaimed = o.deltaClaimed;
    this.gap = o.gap;
    this.tailX = o.tailX;
  }

  private static double gapAt(double sigmaSteps, int dimension, double x) {
    double d = dimension;
    double r = Math.sqrt(d + 2 * Math.sqrt(d * x) + 2 * x);
    return Math.nextUp((Math.sqrt(d) * (sigmaSteps * r + Math.sqrt(d) / 2) + d / 4) / (2 * sigmaSteps * sigmaSteps)
        * (1 + 1e-12) + 1e-300);
  }

  /** Λ: the given one (checked), or the default that spends ε/10 on the Jacobian term. */
  static double regularization(double epsilon, int maxRowsPerUnit, Double lambdaOrNull) {
    double target = JACOBIAN_SHARE * epsilon;
    double lam = lambdaOrNull != null ? lambdaOrNull
        : maxRowsPerUnit == 1 ? BETA / Math.expm1(target) : BETA / target;
    if (!(lam > 0) || !Double.isFinite(lam)) {
      throw new IllegalArgumentException("regularization must be positive and finite, was " + lam);
    }
    return lam;
  }

  /** ε_jac = ln(1 + β/Λ) for one row per unit, β/Λ otherwise (docs/proofs/dp-models.md), rounded up. */
  static double jacobianEpsilon(double lambda, int maxRowsPerUnit) {
    return Math.nextUp(maxRowsPerUnit == 1 ? Math.log1p(BETA / lambda) : BETA / lambda);
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
