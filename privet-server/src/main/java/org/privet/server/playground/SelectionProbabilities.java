package org.privet.server.playground;

import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.ReportNoisyMax;
import org.privet.mechanisms.SelectionMechanism;

/**
 * The playground's selection view: candidate utilities, and how often privet-core's exponential
 * mechanism or report-noisy-max (Laplace noise) picks each one. The observed frequencies come from
 * {@code trials} real draws of the library's {@link SelectionMechanism#select}; next to them, the
 * exponential mechanism's ideal law exp(εu<sub>i</sub>/(2Δ))/Σ<sub>j</sub>exp(εu<sub>j</sub>/(2Δ))
 * (McSherry &amp; Talwar 2007; Dwork &amp; Roth 2014, Def. 3.4), which the library samples exactly
 * after rounding utilities to its power-of-two grid. Report-noisy-max with Laplace noise has no
 * closed form, so only its observed frequencies are shown.
 */
record SelectionProbabilities(String mechanism, double epsilon, double sensitivity, double[] utilities, int trials) {

  SelectionProbabilities {
    if (!mechanism.equals("exponential") && !mechanism.equals("noisy-max")) {
      throw new IllegalArgumentException("mechanism must be exponential or noisy-max, was " + mechanism);
    }
  }

  SelectionMechanism build() {
    return mechanism.equals("exponential")
        ? ExponentialMechanism.builder().epsilon(epsilon).sensitivity(sensitivity).build()
        : ReportNoisyMax.builder().noise(ReportNoisyMax.Noise.LAPLACE).epsilon(epsilon).sensitivity(sensitivity).build();
  }

  /** Observed selection frequencies over {@code trials} draws of the library's mechanism. */
  double[] observed() {
    SelectionMechanism m = build();
    long[] counts = new long[utilities.length];
    for (int t = 0; t < trials; t++) {
      counts[m.select(utilities)]++;
    }
    double[] f = new double[utilities.length];
    for (int i = 0; i < f.length; i++) {
      f[i] = (double) counts[i] / trials;
    }
    return f;
  }

  /** The exponential mechanism's ideal probabilities (null for report-noisy-max). */
  double[] ideal() {
    if (!mechanism.equals("exponential")) {
      return null;
    }
    double max = Double.NEGATIVE_INFINITY;
    for (double u : utilities) {
      max = Math.max(max, u);
    }
    double[] w = new double[utilities.length];
    double sum = 0;
    for (int i = 0; i < w.length; i++) {
      w[i] = Math.exp(epsilon * (utilities[i] - max) / (2 * sensitivity));
      sum += w[i];
    }
    for (int i = 0; i < w.length; i++) {
      w[i] /= sum;
    }
    return w;
  }
}
