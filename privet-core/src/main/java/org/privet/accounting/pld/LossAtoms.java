package org.privet.accounting.pld;

import java.util.Arrays;

/**
 * A dominating pair with finitely many privacy-loss values: atom i has loss {@code loss[i]} (±∞
 * allowed) and mass {@code p[i]} under P and {@code q[i]} under Q. The arrays are owned by this
 * value from construction on (they can hold millions of atoms, so they are not copied): callers
 * must not modify them afterwards. Package-private readers only.
 */
public final class LossAtoms implements DominatingPair {
  final double[] loss;
  final double[] p;
  final double[] q;
  final int size;

  /**
   * @throws IllegalArgumentException if the arrays differ in length
   */
  public LossAtoms(double[] loss, double[] p, double[] q) {
    if (loss.length != p.length || loss.length != q.length) {
      throw new IllegalArgumentException("loss, p and q must have the same length");
    }
    this.loss = loss;
    this.p = p;
    this.q = q;
    this.size = loss.length;
  }

  /**
   * The worst-case pair of (ε, δ)-DP: mass δ at +∞ under P (−∞ under Q), the rest binary randomized
   * response with ε (Kairouz, Oh, Viswanath 2015).
   */
  public static LossAtoms approxDp(double eps, double delta) {
    double keep = 1 - delta;
    if (eps == 0) {
      return new LossAtoms(
          new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.0},
          new double[] {delta, 0, keep},
          new double[] {0, delta, keep});
    }
    double em = Math.exp(-eps);
    double high = 1 / (1 + em);
    double low = em / (1 + em);
    return new LossAtoms(
        new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, eps, -eps},
        new double[] {delta, 0, keep * high, keep * low},
        new double[] {0, delta, keep * low, keep * high});
  }

  /** The atoms of the Poisson-subsampled pair in the given direction. */
  LossAtoms subsample(double rate, boolean remove) {
    double[] l2 = new double[size];
    double[] p2 = new double[size];
    double[] q2 = new double[size];
    for (int i = 0; i < size; i++) {
      double mix = (1 - rate) * q[i] + rate * p[i];
      double g = MechanismPld.subsampledLoss(loss[i], rate);
      if (remove) {
        l2[i] = g;
        p2[i] = mix;
        q2[i] = q[i];
      } else {
        l2[i] = -g;
        p2[i] = q[i];
        q2[i] = mix;
      }
    }
    return new LossAtoms(l2, p2, q2);
  }

  @Override
  public String toString() {
    return "LossAtoms" + Arrays.toString(loss);
  }
}
