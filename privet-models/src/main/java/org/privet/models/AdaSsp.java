package org.privet.models;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.accounting.ApproxDp;
import org.privet.mechanisms.GaussianMechanism;
import org.privet.random.RandomSource;

/**
 * Linear regression by adaptive sufficient-statistics perturbation, AdaSSP (Wang 2018, "Revisiting
 * differentially private linear regression: optimal and adaptive prediction &amp; estimation in
 * unbounded domain", UAI, Algorithm 2): three Gaussian releases, each (ε/3, δ/3)-DP by the
 * project's {@link GaussianMechanism} (exact discrete Gaussian on a power-of-two grid), composed
 * basically to (ε, δ):
 *
 * <ol>
 *   <li>λ<sub>min</sub>(XᵀX), sensitivity ‖x‖² ≤ 1 (Weyl), released and shifted down by
 *       σ₁·√(ln(6/δ)) so that it under-estimates with high probability (Wang's λ̃<sub>min</sub>);
 *   <li>XᵀX (upper triangle as a vector), ℓ2 sensitivity ‖xxᵀ‖<sub>F</sub> = ‖x‖² ≤ 1;
 *   <li>Xᵀy, ℓ2 sensitivity ‖x‖·|y| ≤ 1.
 * </ol>
 *
 * Then θ = (XᵀX~ + λI)⁻¹ Xᵀy~ with the adaptive ridge λ = max(0, σ₂√(d·ln(2d²/ρ)) − λ̃<sub>min</sub>),
 * ρ = 0.05 (Wang's choice), all post-processing. A unit's rows enter with weights summing to at
 * most 1, so each sensitivity holds per unit (docs/proofs/dp-models.md, "AdaSSP"). These are
 * sufficient statistics, computed exactly in fixed point where the data lives by aggregate queries
 * ({@link BackendTraining}). Immutable.
 */
public final class AdaSsp {
  static final double RHO = 0.05;

  private final double epsilon;
  private final double delta;
  private final GaussianMechanism minEigen;
  private final GaussianMechanism gram;
  private final GaussianMechanism moment;
  private final int dimension;

  private AdaSsp(double epsilon, double delta, int dimension, RandomSource random) {
    this.epsilon = ObjectivePerturbation.requireEpsilon(epsilon);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1) for AdaSSP (Gaussian noise), was " + delta);
    }
    this.delta = delta;
    this.dimension = dimension;
    double e = third(epsilon);
    double d = third(delta);
    this.minEigen = mechanism(e, d, random);
    this.gram = mechanism(e, d, random);
    this.moment = mechanism(e, d, random);
  }

  /** The largest double a with a + a + a ≤ v in floating point (the parts never exceed the whole). */
  static double third(double v) {
    double a = v / 3;
    while (a + a + a > v) {
      a = Math.nextDown(a);
    }
    return a;
  }

  private static GaussianMechanism mechanism(double e, double d, RandomSource random) {
    return GaussianMechanism.builder().epsilon(e).delta(d).sensitivity(1.0).randomSource(random).build();
  }

  /** A calibrated mechanism drawing noise from {@code random} (the CSPRNG in production). */
  public static AdaSsp of(double epsilon, double delta, int dimension, RandomSource random) {
    return new AdaSsp(epsilon, delta, dimension, random);
  }

  /** (ε, δ): three (ε/3, δ/3) releases, basic composition (Dwork &amp; Roth 2014, Thm. 3.16). */
  public ApproxDp privacyLoss() {
    return new ApproxDp(epsilon, delta);
  }

  /** The three releases' stated losses, which compose to {@link #privacyLoss()}. */
  public java.util.List<ApproxDp> parts() {
    return java.util.List.of(minEigen.privacyLoss(), gram.privacyLoss(), moment.privacyLoss());
  }

  /** The privacy statement for the model file. */
  public Map<String, Object> statement() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mechanism", "AdaSSP (Wang 2018): three Gaussian releases at (epsilon/3, delta/3)");
    m.put("epsilon", epsilon);
    m.put("delta", delta);
    m.put("sigma_min_eigenvalue", minEigen.sigma());
    m.put("sigma_gram", gram.sigma(dimension * (dimension + 1) / 2));
    m.put("sigma_moment", moment.sigma(dimension));
    m.put("rho", RHO);
    return m;
  }

  /** Trains (after the charge) on a training set's rows, in Java; total. */
  public Model train(TrainingSet set) {
    return train(set.encoder(), set.label(), BackendTraining.gram(set));
  }

  /**
   * Trains (after the charge) from the exact sufficient statistics, computed where the data lives
   * ({@link BackendTraining#gram(org.privet.engine.spi.Backend, org.privet.engine.Source)}); total.
   */
  public Model train(FeatureEncoder encoder, Label label, BackendTraining.Gram stats) {
    int d = encoder.dimension();
    double[][] xtx = stats.xtxDouble(encoder.scale());
    double[] xty = stats.xtyDouble(encoder.scale());
    double sigma1 = minEigen.sigma();
    double lambdaMin = Math.max(0, minEigen.release(Linalg.minEigenvalue(xtx)) - sigma1 * Math.sqrt(Math.log(6 / delta)));
    double[] upper = new double[d * (d + 1) / 2];
    for (int r = 0, k = 0; r < d; r++) {
      for (int c = r; c < d; c++) {
        upper[k++] = xtx[r][c];
      }
    }
    double[] noisyUpper = gram.release(upper);
    double[] noisyXty = moment.release(xty);
    double sigma2 = gram.sigma(upper.length);
    double lambda = Math.max(0, sigma2 * Math.sqrt(d * Math.log(2.0 * d * d / RHO)) - lambdaMin);
    double[][] a = new double[d][d];
    for (int r = 0, k = 0; r < d; r++) {
      for (int c = r; c < d; c++) {
        a[r][c] = noisyUpper[k];
        a[c][r] = noisyUpper[k++];
      }
      a[r][r] += lambda;
    }
    double[] theta = Linalg.solveSpd(a, noisyXty);
    Map<String, Object> st = statement();
    st.put("ridge", lambda);
    return Model.linear("adassp", encoder, (Label.Numeric) label, theta, st);
  }

  /** Ordinary least squares with a tiny ridge, from the same code: the non-private baseline. */
  public static Model trainNonPrivate(TrainingSet set) {
    int d = set.encoder().dimension();
    double[][] xtx = new double[d][d];
    double[] xty = new double[d];
    for (int i = 0; i < set.rows; i++) {
      double[] x = set.dense(i);
      for (int r = 0; r < d; r++) {
        xty[r] += set.weight[i] * x[r] * set.y[i];
        for (int c = 0; c < d; c++) {
          xtx[r][c] += set.weight[i] * x[r] * x[c];
        }
      }
    }
    for (int r = 0; r < d; r++) {
      xtx[r][r] += 1e-9;
    }
    return Model.linear("non-private", set.encoder(), (Label.Numeric) set.label(), Linalg.solveSpd(xtx, xty),
        Map.of("mechanism", "none (NOT differentially private)"));
  }
}
