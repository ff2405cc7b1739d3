package org.privet.engine;

import org.privet.accounting.ApproxDp;
import org.privet.noise.DiscreteLaplace;
import org.privet.random.RandomSource;

/**
 * Private partition selection by Laplace thresholding on the number of distinct privacy units per
 * group (Korolova, Kenthapadi, Mishra, Ntoulas 2009, "Releasing search queries and clicks
 * privately"; Desfontaines, Voss, Gipson, Mandayam 2022, "Differentially private partition
 * selection", PoPETs; Google's {@code PreAggSelectPartition}/Laplace thresholding strategy).
 *
 * <p>After L0 bounding each unit adds 1 to the unit count of at most L0 groups. A group is released
 * iff units + Z ≥ τ, with Z exact discrete Laplace of scale t ≥ L0/ε (so each group's noisy count
 * is (ε/L0)-DP and the vector over all groups ε-DP), and τ = m + 1 with m the least integer ≥ 1
 * such that P[Z ≥ m] = q<sup>m</sup>/(1+q) ≤ δ/L0, q = e<sup>−1/t</sup>. A group that exists only
 * because of the added unit has count 1 and is released with probability ≤ δ/L0; at most L0 such
 * groups exist, so the selection is (ε, δ)-DP. Groups with no units are never released. Argument:
 * {@code docs/proofs/engine-partition-selection.md}.
 */
final class PartitionSelection {
  private final double epsilon;
  private final double delta;
  private final int l0;
  private final long scaleNum;
  private final long scaleDen;
  private final long threshold;

  private PartitionSelection(double epsilon, double delta, int l0, long num, long den, long tau) {
    this.epsilon = epsilon;
    this.delta = delta;
    this.l0 = l0;
    this.scaleNum = num;
    this.scaleDen = den;
    this.threshold = tau;
  }

  static PartitionSelection of(double epsilon, double delta, int l0) {
    if (!(delta > 0 && delta < 1)) {
      throw new IllegalArgumentException("delta for partition selection must be in (0, 1)");
    }
    // scale t = num/den ≥ l0/ε, rounded upward on a power-of-two denominator.
    double ratio = l0 / epsilon;
    int j = Math.min(40, 60 - Math.getExponent(ratio));
    if (j < 0) {
      throw new IllegalArgumentException(
          "epsilon too small for partition selection with maxGroupsContributed " + l0);
    }
    long den = 1L << j;
    long num = (long) Math.ceil(Math.scalb(ratio, j));
    while ((double) num / den < ratio) {
      num++;
    }
    double t = (double) num / den;
    // The release direction D → D' needs δ/L0 ≤ 1 − e^{−ε/L0} (docs/proofs): spend no more δ.
    delta = Math.min(delta, Math.nextDown(-Math.expm1(-epsilon / l0)) * l0 * (1 - 1e-12));
    double logQ = -1 / t; // ln q
    double target = Math.log(delta / l0);
    // m·ln q − ln(1 + q) ≤ ln(δ/L0), with a safety margin against rounding.
    double lnOnePlusQ = Math.log1p(Math.exp(logQ));
    double m0 = (target + lnOnePlusQ) / logQ;
    long m = Math.max(1, (long) Math.ceil(m0 * (1 + 1e-9) + 1e-9));
    while (m * logQ - lnOnePlusQ > target - 1e-12 * Math.abs(target)) {
      m++;
    }
    return new PartitionSelection(epsilon, delta, l0, num, den, Math.addExact(m, 1));
  }

  /** Whether a group with {@code units} distinct units is released (draws fresh noise). */
  boolean keep(long units, RandomSource random) {
    if (units <= 0) {
      return false;
    }
    long noisy = units + DiscreteLaplace.sample(random, scaleNum, scaleDen);
    return noisy >= threshold;
  }

  /** Exact probability that a group with exactly one unit is released: q^m/(1+q). */
  double singleUnitReleaseProbability() {
    double q = Math.exp(-(double) scaleDen / scaleNum);
    return Math.pow(q, threshold - 1) / (1 + q);
  }

  long threshold() {
    return threshold;
  }

  double scale() {
    return (double) scaleNum / scaleDen;
  }

  ApproxDp privacyLoss() {
    return new ApproxDp(epsilon, delta);
  }

  String describe() {
    return "LaplaceThreshold(ε=" + Slot.fmt(epsilon) + ", δ=" + Slot.fmt(delta) + ", L0=" + l0
        + ", scale=" + Slot.fmt(scale()) + ", τ=" + threshold + ")";
  }
}
