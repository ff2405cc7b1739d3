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

  /** Trains (after the charge); total. */
  public Model train(TrainingSet set) {
    int d = set.encoder().dimension();
    int block = 2 * d + 1;
    double[] stats = new double[2 * block];
    for (int i = 0; i < set.rows; i++) {
      int c = set.y[i] > 0 ? 1 : 0;
      double w = set.weight[i];
      int base = c * block;
      stats[base] += w;
      int[] idx = set.index.get(i);
      double[] v = set.value.get(i);
      for (int a = 0; a < idx.length; a++) {
        if (idx[a] == 0) {
          continue; // the intercept carries no information
        }
        stats[base + 1 + idx[a]] += w * v[a];
        stats[base + 1 + d + idx[a]] += w * v[a] * v[a];
      }
    }
    double[] noisy = mechanism.release(stats);
    double scale = set.encoder().scale();
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
    return Model.naiveBayes(set.encoder(), (Label.Binary) set.label(), means, vars, priors, st);
  }
}
