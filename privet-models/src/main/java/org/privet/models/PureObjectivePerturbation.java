package org.privet.models;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.accounting.PureDp;
import org.privet.random.RandomSource;

/**
 * L2-regularised logistic regression by objective perturbation under pure ε-DP: releases the
 * exact minimiser of J(θ) = Σ<sub>i</sub> w<sub>i</sub>ℓ(θ; x<sub>i</sub>, y<sub>i</sub>) + (Λ/2)‖θ‖²
 * + ⟨b, θ⟩ with b of density ∝ e<sup>−‖b‖₁/λ</sup> (independent Laplace coordinates). This is
 * Chaudhuri, Monteleoni, Sarwate 2011 ("Differentially private empirical risk minimization", JMLR
 * 12, Algorithm 2 and Theorem 9: pure ε for a smooth, strongly convex regularised loss), with the
 * noise's norm taken as ℓ1 instead of ℓ2 (Kifer, Smith, Thakurta 2012, COLT, state the argument for
 * a general norm and its dual gradient bound): the density ratio of b and b − g is at most
 * e<sup>‖g‖₁/λ</sup>, and a unit's gradient g (a convex combination of s·x<sub>j</sub>, |s| ≤ 1)
 * has ‖g‖₁ ≤ max‖x‖₁ ≤ √(m + 1) for m features (every block of the encoding has ℓ1 norm ≤ 1, times
 * 1/√(m + 1)). With the Jacobian term ε<sub>jac</sub> of {@link ObjectivePerturbation} the ideal
 * mechanism is (ε<sub>jac</sub> + √(m + 1)/λ)-DP; noise from {@link DitheredLaplace} adds twice its
 * log-density gap, with no δ (docs/proofs/dp-models.md, "Pure-ε objective perturbation").
 *
 * <p>Why Laplace and not Chaudhuri's Gamma-norm ℓ2 noise: the project has an exact discrete Laplace
 * sampler whose dithered density is uniformly close to the Laplace one (no tail set, so no δ), and
 * in the dimensions of the Adult encodings the ℓ1 noise is smaller: E‖b‖₂ ≈ √(m+1)·√(2d)/ε against
 * 2d/ε for the Gamma-norm noise (d = 106, m = 14: 56/ε against 212/ε).
 *
 * <p>Decisions (fixed defaults, never tuned on private data): Λ such that ε<sub>jac</sub> = ε/10,
 * as {@link ObjectivePerturbation}; the same Newton minimiser. Immutable.
 */
public final class PureObjectivePerturbation {
  private final double epsilon;
  private final int maxRowsPerUnit;
  private final double lambda;
  private final double epsilonJacobian;
  private final double l1;
  private final DitheredLaplace noise;
  private final double gap;
  private final double epsilonClaimed;

  private PureObjectivePerturbation(double epsilon, int maxRowsPerUnit, Double lambdaOrNull, FeatureEncoder encoder) {
    this.epsilon = ObjectivePerturbation.requireEpsilon(epsilon);
    if (maxRowsPerUnit < 1) {
      throw new IllegalArgumentException("max-rows-per-unit must be at least 1, was " + maxRowsPerUnit);
    }
    this.maxRowsPerUnit = maxRowsPerUnit;
    this.lambda = ObjectivePerturbation.regularization(epsilon, maxRowsPerUnit, lambdaOrNull);
    this.epsilonJacobian = ObjectivePerturbation.jacobianEpsilon(lambda, maxRowsPerUnit);
    int d = encoder.dimension();
    // ‖x‖₁ ≤ (m + 1)·scale = √(m + 1), with a margin for the encoding's rounding
    this.l1 = Math.nextUp((encoder.features().size() + 1) * encoder.scale() * (1 + 1e-12));
    // the gap at the smallest t the noise can have (2^30 steps): an upper bound for the real one
    double gapBound = d * (0x1p-31 + 1 / (6 * 0x1p60)) * (1 + 1e-9);
    double eNoise = epsilon - epsilonJacobian - 2 * gapBound;
    if (!(eNoise > 0)) {
      throw new IllegalArgumentException("regularization too small for epsilon " + epsilon
          + ": its Jacobian term alone is " + epsilonJacobian + " (raise --regularization)");
    }
    this.noise = new DitheredLaplace(l1 / eNoise);
    this.gap = noise.logDensityGap(d);
    this.epsilonClaimed = epsilonJacobian + l1 / noise.scale() + 2 * gap;
    if (!(epsilonClaimed <= epsilon) || gap > 1e-3) {
      throw new IllegalStateException("pure objective perturbation calibration failed: " + epsilonClaimed
          + " exceeds " + epsilon);
    }
  }

  private PureObjectivePerturbation(PureObjectivePerturbation o, DitheredLaplace weaker) {
    this.epsilon = o.epsilon;
    this.maxRowsPerUnit = o.maxRowsPerUnit;
    this.lambda = o.lambda;
    this.epsilonJacobian = o.epsilonJacobian;
    this.l1 = o.l1;
    this.noise = weaker;
    this.gap = o.gap;
    this.epsilonClaimed = o.epsilonClaimed;
  }

  /**
   * A calibrated mechanism for models of this encoding.
   *
   * @param regularization Λ, or null for the default (ε<sub>jac</sub> = ε/10)
   */
  public static PureObjectivePerturbation of(double epsilon, int maxRowsPerUnit, Double regularization,
      FeatureEncoder encoder) {
    return new PureObjectivePerturbation(epsilon, maxRowsPerUnit, regularization, encoder);
  }

  /** A copy whose noise is {@code factor} times smaller (audit power tests only). */
  PureObjectivePerturbation withLessNoiseForAudit(double factor) {
    return new PureObjectivePerturbation(this, new DitheredLaplace(noise.scale() / factor));
  }

  /** What this release costs: pure ε, which the calibration certifies. */
  public PureDp privacyLoss() {
    return new PureDp(epsilon);
  }

  /** The certified ε (at most the requested one). */
  double epsilonCertified() {
    return epsilonClaimed;
  }

  /** Λ. */
  public double regularization() {
    return lambda;
  }

  /** The Laplace scale λ per coordinate of b. */
  public double scale() {
    return noise.scale();
  }

  /** The privacy statement for the model file. */
  public Map<String, Object> statement() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mechanism", "objective perturbation, pure epsilon (Chaudhuri-Monteleoni-Sarwate 2011, Laplace noise)");
    m.put("epsilon", epsilon);
    m.put("delta", 0.0);
    m.put("epsilon_certified", epsilonClaimed);
    m.put("epsilon_jacobian", epsilonJacobian);
    m.put("regularization", lambda);
    m.put("noise_scale", noise.scale());
    m.put("gradient_l1_bound", l1);
    m.put("max_rows_per_unit", maxRowsPerUnit);
    return m;
  }

  /** Trains (after the charge): total, never throws on the data. */
  public Model train(TrainingSet set, RandomSource random) {
    if (set.maxRowsPerUnit() > maxRowsPerUnit) {
      throw new IllegalArgumentException("training set bounds " + set.maxRowsPerUnit()
          + " rows per unit, the mechanism " + maxRowsPerUnit);
    }
    if ((set.encoder().features().size() + 1) * set.encoder().scale() > l1) {
      throw new IllegalArgumentException("the training set's encoding has more features than the mechanism's");
    }
    double[] b = noise.sample(random, set.encoder().dimension());
    double[] theta = LogisticObjective.minimise(set, lambda, b);
    return Model.logistic("objective-perturbation", set.encoder(), (Label.Binary) set.label(), theta, statement());
  }
}
