package org.privet.models;

import java.util.LinkedHashMap;
import java.util.Map;
import org.privet.accounting.ApproxDp;
import org.privet.mechanisms.GaussianMechanism;
import org.privet.random.RandomSource;

/**
 * Gaussian naive Bayes for a binary label, as in diffprivlib's {@code GaussianNB} (Vaidya, Shafiq,
 * Basu, Hong 2013, "Differentially private naive Bayes classification"; IBM diffprivlib), with one
 * Gaussian release instead of per-statistic Laplace ones: for each class c the vector
 * (n<sub>c</sub>, Σx, Σx²) over encoded rows (2·(2d' + 1) coordinates for the d' non-intercept
 * coordinates) gets the project's {@link GaussianMechanism}. A row x (‖x‖ ≤ 1) changes one class's
 * block by (1, x, x∘x), of norm ≤ √(1 + ‖x‖² + ‖x‖⁴) ≤ √3, and a unit's rows weigh at most 1 in
 * total, so the ℓ2 sensitivity is √3 (docs/proofs/dp-models.md, "Naive Bayes"). Means, variances
 * (floored at 0.01/(k + 1), a fixed default: a tenth of the encoding's coordinate scale, squared)
 * and log-priors (from the clamped noisy counts) are post-processing. Immutable.
 */
public final class GaussianNaiveBayes {
  private final double epsilon;
  private final double delta;
  private final GaussianMechanism mechanism;

  private GaussianNaiveBayes(double epsilon, double delta, RandomSource random) {
    this.epsilon = ObjectivePerturbation.requireEpsilon(epsilon);
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in (0, 1) for Gaussian naive Bayes (Gaussian noise), was "
          + delta);
    }
    this.delta = delta;
    this.mechanism = GaussianMechanism.builder().epsilon(epsilon).delta(delta).sensitivity(Math.sqrt(3))
        .randomSource(random).build();
  }

  public static GaussianNaiveBayes of(double epsilon, double delta, RandomSource random) {
    return new GaussianNaiveBayes(epsilon, delta, random);
  }

  public ApproxDp privacyLoss() {
    return mechanism.privacyLoss();
  }

  /** Trains (after the charge) on a training set's rows, in Java; total. */
  public Model train(TrainingSet set) {
    return train(set.encoder(), set.label(), BackendTraining.classMoments(set));
  }

  /**
   * Trains (after the charge) from the exact per-class moments, computed where the data lives
   * ({@link BackendTraining#classMoments(org.privet.engine.spi.Backend, org.privet.engine.Source)});
   * total.
   */
  public Model train(FeatureEncoder encoder, Label label, BackendTraining.ClassMoments moments) {
    int d = encoder.dimension();
    int block = 2 * d + 1;
    double scale0 = encoder.scale();
    double[] stats = new double[2 * block];
    for (int c = 0; c < 2; c++) {
      int base = c * block;
      stats[base] = BackendTraining.toDouble(moments.count()[c], 0, 1.0, moments.denominator());
      for (int j = 1; j < d; j++) {
        stats[base + 1 + j] = BackendTraining.toDouble(moments.sum()[c][j], Feature.GRID_BITS, scale0, moments.denominator());
        stats[base + 1 + d + j] = BackendTraining.toDouble(moments.sumSquares()[c][j], 2 * Feature.GRID_BITS,
            scale0 * scale0, moments.denominator());
      }
    }
    double[] noisy = mechanism.release(stats);
    double scale = encoder.scale();
    double floor = 0.01 * scale * scale;
    double[][] means = new double[2][d];
    double[][] vars = new double[2][d];
    double[] counts = new double[2];
    for (int c = 0; c < 2; c++) {
      int base = c * block;
      counts[c] = Math.max(1.0, noisy[base]);
      for (int j = 1; j < d; j++) {
        double m = Math.max(0, Math.min(scale, noisy[base + 1 + j] / counts[c]));
        double q = noisy[base + 1 + d + j] / counts[c];
        means[c][j] = m;
        vars[c][j] = Math.max(floor, q - m * m);
      }
    }
    double total = counts[0] + counts[1];
    double[] priors = {Math.log(counts[0] / total), Math.log(counts[1] / total)};
    Map<String, Object> st = new LinkedHashMap<>();
    st.put("mechanism", "Gaussian naive Bayes: one Gaussian release of per-class counts, sums and sums of squares");
    st.put("epsilon", epsilon);
    st.put("delta", delta);
    st.put("noise_sigma", mechanism.sigma(stats.length));
    return Model.naiveBayes(encoder, (Label.Binary) label, means, vars, priors, st);
  }
}
