package org.privet.accounting;

import java.util.Arrays;

/**
 * A Rényi differential privacy guarantee (Mironov 2017, "Rényi Differential Privacy", Def. 4) over a
 * finite grid of orders: for each order α<sub>i</sub> &gt; 1, D<sub>α</sub>(M(D) ‖ M(D')) ≤
 * ε<sub>i</sub> for all neighbours. Orders are strictly increasing; values may be +∞ (no bound at
 * that order). Immutable (arrays are copied in and out).
 *
 * <p>Since Rényi divergence is non-decreasing in α (van Erven &amp; Harremoës 2014, Thm. 3), the
 * curve bounds any order α ≤ α<sub>i</sub> by ε<sub>i</sub> ({@link #upperBoundAt}).
 */
public final class RdpCurve implements PrivacyLoss {
  private final double[] orders;
  private final double[] epsilons;

  /**
   * @param orders strictly increasing finite orders, each &gt; 1
   * @param epsilons the RDP bound at each order, non-negative (may be +∞)
   */
  public RdpCurve(double[] orders, double[] epsilons) {
    if (orders == null || epsilons == null || orders.length == 0 || orders.length != epsilons.length) {
      throw new IllegalArgumentException("orders and epsilons must be non-empty and of equal length");
    }
    for (int i = 0; i < orders.length; i++) {
      if (!(orders[i] > 1) || Double.isInfinite(orders[i])) {
        throw new IllegalArgumentException("orders must be finite and > 1, was " + orders[i]);
      }
      if (i > 0 && !(orders[i] > orders[i - 1])) {
        throw new IllegalArgumentException("orders must be strictly increasing");
      }
      if (Double.isNaN(epsilons[i]) || epsilons[i] < 0) {
        throw new IllegalArgumentException("epsilons must be non-negative, was " + epsilons[i]);
      }
    }
    this.orders = orders.clone();
    this.epsilons = epsilons.clone();
  }

  public double[] orders() {
    return orders.clone();
  }

  public double[] epsilons() {
    return epsilons.clone();
  }

  /** An upper bound on the RDP at any order α: the value at the smallest grid order ≥ α. */
  public double upperBoundAt(double alpha) {
    for (int i = 0; i < orders.length; i++) {
      if (orders[i] >= alpha) {
        return epsilons[i];
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  /** The smallest ε at which this curve gives (ε, δ)-DP ({@link RenyiConversion}). */
  public double epsilon(double delta) {
    return RenyiConversion.epsilon(orders, epsilons, delta);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RdpCurve c && Arrays.equals(orders, c.orders) && Arrays.equals(epsilons, c.epsilons);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(orders) + Arrays.hashCode(epsilons);
  }

  @Override
  public String toString() {
    return "RdpCurve" + Arrays.toString(orders) + "->" + Arrays.toString(epsilons);
  }
}
