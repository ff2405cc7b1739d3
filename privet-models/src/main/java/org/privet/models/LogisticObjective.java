package org.privet.models;

/**
 * The (perturbed) regularised logistic objective
 * J(θ) = Σ<sub>i</sub> w<sub>i</sub>·ln(1 + e<sup>−y<sub>i</sub>⟨θ, x<sub>i</sub>⟩</sup>) + (Λ/2)‖θ‖² + ⟨b, θ⟩
 * and its exact minimiser by damped Newton steps (J is Λ-strongly convex and smooth, so the
 * minimiser is unique and Newton with backtracking converges). Total: on any input it returns a
 * vector after at most {@link #MAX_ITERATIONS} steps.
 */
final class LogisticObjective {
  static final int MAX_ITERATIONS = 100;
  /** Stop when ‖∇J‖ ≤ 10⁻¹⁰·(1 + Σw): the minimiser is then within that over Λ of the exact one. */
  static final double TOLERANCE = 1e-10;

  private LogisticObjective() {}

  static double[] minimise(TrainingSet set, double lambda, double[] b) {
    int d = set.encoder.dimension();
    double totalWeight = 0;
    for (int i = 0; i < set.rows; i++) {
      totalWeight += set.weight[i];
    }
    double tolerance = TOLERANCE * (1 + totalWeight);
    double[] theta = new double[d];
    double f = value(set, lambda, b, theta);
    for (int it = 0; it < MAX_ITERATIONS; it++) {
      double[] g = new double[d];
      double[][] h = new double[d][d];
      for (int i = 0; i < set.rows; i++) {
        double m = set.y[i] * set.dot(i, theta);
        double p = sigmoid(-m); // = −dℓ/dm
        double w = set.weight[i];
        double curv = w * p * (1 - p);
        int[] idx = set.index.get(i);
        double[] v = set.value.get(i);
        for (int a = 0; a < idx.length; a++) {
          g[idx[a]] -= w * p * set.y[i] * v[a];
          for (int c = 0; c <= a; c++) {
            h[idx[a]][idx[c]] += curv * v[a] * v[c];
          }
        }
      }
      double norm = 0;
      for (int j = 0; j < d; j++) {
        g[j] += lambda * theta[j] + b[j];
        h[j][j] += lambda;
        norm += g[j] * g[j];
      }
      for (int r = 0; r < d; r++) {
        for (int c = 0; c < r; c++) {
          double s = h[r][c] + h[c][r];
          h[r][c] = s;
          h[c][r] = s;
        }
      }
      if (Math.sqrt(norm) <= tolerance) {
        break;
      }
      double[] step = Linalg.solveSpd(h, g);
      double t = 1;
      double[] next = new double[d];
      double fn = f;
      for (int ls = 0; ls < 30; ls++) {
        for (int j = 0; j < d; j++) {
          next[j] = theta[j] - t * step[j];
        }
        fn = value(set, lambda, b, next);
        if (fn <= f) {
          break;
        }
        t /= 2;
      }
      if (!(fn <= f)) {
        break;
      }
      boolean moved = false;
      for (int j = 0; j < d; j++) {
        moved |= next[j] != theta[j];
      }
      theta = next.clone();
      if (!moved || f - fn <= 1e-15 * Math.abs(f)) {
        f = fn;
        break;
      }
      f = fn;
    }
    return theta;
  }

  static double value(TrainingSet set, double lambda, double[] b, double[] theta) {
    double s = 0;
    for (int i = 0; i < set.rows; i++) {
      s += set.weight[i] * logOnePlusExp(-set.y[i] * set.dot(i, theta));
    }
    for (int j = 0; j < theta.length; j++) {
      s += 0.5 * lambda * theta[j] * theta[j] + b[j] * theta[j];
    }
    return s;
  }

  static double sigmoid(double z) {
    return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
  }

  static double logOnePlusExp(double z) {
    return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
  }
}
