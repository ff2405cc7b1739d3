package org.privet.accounting.pld;

/**
 * One mechanism's privacy loss distribution under P, discretised on the grid {jΔ}: mass
 * {@code masses[i]} at loss (start + i)·Δ, plus {@code infinityMass} at +∞. Built pessimistically
 * by {@link MechanismPld} (see docs/proofs/pld-accountant.md). Package-private and immutable by
 * convention (arrays are never exposed).
 */
final class DiscretePld {
  final double interval;
  final long start;
  final double[] masses;
  final double infinityMass;

  DiscretePld(double interval, long start, double[] masses, double infinityMass) {
    this.interval = interval;
    this.start = start;
    this.masses = masses;
    this.infinityMass = Math.min(1.0, infinityMass);
  }

  double lossAt(int i) {
    return (start + i) * interval;
  }

  /** Mean and variance of the finite part, renormalised (for window estimates only). */
  double[] meanAndVariance() {
    double total = 0;
    double mean = 0;
    for (int i = 0; i < masses.length; i++) {
      total += masses[i];
      mean += masses[i] * lossAt(i);
    }
    if (total <= 0) {
      return new double[] {0, 0};
    }
    mean /= total;
    double var = 0;
    for (int i = 0; i < masses.length; i++) {
      double d = lossAt(i) - mean;
      var += masses[i] * d * d;
    }
    return new double[] {mean, var / total};
  }

  /** ln Σ m_i e^{t·l_i} over the finite part (−∞ if empty). */
  double logMgf(double t) {
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < masses.length; i++) {
      if (masses[i] > 0) {
        max = Math.max(max, t * lossAt(i));
      }
    }
    if (max == Double.NEGATIVE_INFINITY) {
      return max;
    }
    double sum = 0;
    for (int i = 0; i < masses.length; i++) {
      if (masses[i] > 0) {
        sum += masses[i] * Math.exp(t * lossAt(i) - max);
      }
    }
    return max + Math.log(sum);
  }

  /** The Euclidean norm of the mass vector (for the FFT error bound). */
  double l2Norm() {
    double s = 0;
    for (double m : masses) {
      s += m * m;
    }
    return Math.sqrt(s);
  }
}
