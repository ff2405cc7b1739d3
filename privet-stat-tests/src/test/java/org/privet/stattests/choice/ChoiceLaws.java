package org.privet.stattests.choice;

/**
 * Exact output laws of the choice mechanisms, computed independently of the code under test
 * (closed forms, subset sums and direct summation over the discrete Laplace law).
 */
final class ChoiceLaws {
  private ChoiceLaws() {}

  /** Exponential mechanism: P[i] ∝ exp(rate·u_i). */
  static double[] exponential(double[] u, double rate) {
    double max = Double.NEGATIVE_INFINITY;
    for (double x : u) {
      max = Math.max(max, x);
    }
    double[] p = new double[u.length];
    double sum = 0;
    for (int i = 0; i < u.length; i++) {
      p[i] = Math.exp(rate * (u[i] - max));
      sum += p[i];
    }
    for (int i = 0; i < u.length; i++) {
      p[i] /= sum;
    }
    return p;
  }

  /**
   * Permute-and-flip: candidate r with acceptance a_r is output iff it is accepted and every
   * candidate before it in the random order is rejected. Summing over the set S placed before r:
   * P[r] = a_r Σ_S |S|!(k−1−|S|)!/k! Π_{j∈S}(1 − a_j).
   */
  static double[] permuteAndFlip(double[] u, double rate) {
    int k = u.length;
    double max = Double.NEGATIVE_INFINITY;
    for (double x : u) {
      max = Math.max(max, x);
    }
    double[] a = new double[k];
    for (int i = 0; i < k; i++) {
      a[i] = Math.exp(rate * (u[i] - max));
    }
    double[] fact = new double[k + 1];
    fact[0] = 1;
    for (int i = 1; i <= k; i++) {
      fact[i] = fact[i - 1] * i;
    }
    double[] p = new double[k];
    for (int r = 0; r < k; r++) {
      double total = 0;
      for (int mask = 0; mask < (1 << k); mask++) {
        if ((mask & (1 << r)) != 0) {
          continue;
        }
        int size = Integer.bitCount(mask);
        double prod = 1;
        for (int j = 0; j < k; j++) {
          if ((mask & (1 << j)) != 0) {
            prod *= 1 - a[j];
          }
        }
        total += fact[size] * fact[k - 1 - size] / fact[k] * prod;
      }
      p[r] = a[r] * total;
    }
    return p;
  }

  /** Discrete Laplace pmf with scale t: (1 − q)/(1 + q)·q^|z|, q = e^{−1/t}. */
  static double pmf(double t, long z) {
    double q = Math.exp(-1 / t);
    return (1 - q) / (1 + q) * Math.exp(-Math.abs(z) / t);
  }

  /** Discrete Laplace CDF P[Z ≤ m]. */
  static double cdf(double t, long m) {
    double q = Math.exp(-1 / t);
    if (m >= 0) {
      return 1 - Math.exp(-(m + 1) / t) / (1 + q);
    }
    return Math.exp(m / t) / (1 + q);
  }

  /**
   * Report noisy max with discrete Laplace noise of scale t on integer utilities v, ties to the
   * lowest index: i wins iff v_i + z > v_j + Z_j (j &lt; i) and ≥ (j &gt; i).
   */
  static double[] noisyMaxLaplace(long[] v, double t) {
    int k = v.length;
    long span = (long) Math.ceil(t * 45);
    double[] p = new double[k];
    for (int i = 0; i < k; i++) {
      double total = 0;
      for (long z = -span; z <= span; z++) {
        double prod = pmf(t, z);
        for (int j = 0; j < k && prod > 0; j++) {
          if (j == i) {
            continue;
          }
          long limit = v[i] + z - v[j]; // Z_j < limit (j < i) or Z_j ≤ limit (j > i)
          prod *= j < i ? cdf(t, limit - 1) : cdf(t, limit);
        }
        total += prod;
      }
      p[i] = total;
    }
    return p;
  }

  /**
   * AboveThreshold (c = 1) on integer answers q against threshold tt: P[first ⊤ at i] for i &lt;
   * q.length, and P[no ⊤] in the last cell. ρ ~ DLap(t1), ν ~ DLap(t2).
   */
  static double[] aboveThreshold(long[] q, long tt, double t1, double t2) {
    int k = q.length;
    double[] p = new double[k + 1];
    long span = (long) Math.ceil(t1 * 45);
    for (long rho = -span; rho <= span; rho++) {
      double w = pmf(t1, rho);
      double below = 1; // all earlier answers were ⊥
      for (int i = 0; i < k; i++) {
        // ⊤ iff q_i + ν ≥ tt + ρ iff ν ≥ tt + ρ − q_i.
        double pBelow = cdf(t2, tt + rho - q[i] - 1);
        p[i] += w * below * (1 - pBelow);
        below *= pBelow;
      }
      p[k] += w * below;
    }
    return p;
  }
}
