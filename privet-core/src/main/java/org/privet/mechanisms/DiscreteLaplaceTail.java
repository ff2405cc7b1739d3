package org.privet.mechanisms;

/**
 * Exact tails of the discrete Laplace law with ratio q = e<sup>−r</sup>:
 * P[|Z| &gt; k] = 2q<sup>k+1</sup>/(1 + q).
 */
final class DiscreteLaplaceTail {
  private DiscreteLaplaceTail() {}

  /** P[|Z| &gt; k] for the discrete Laplace law with ratio exp(−r). */
  static double tail(double r, long k) {
    double q = Math.exp(-r);
    return 2 * Math.exp(-r * (k + 1.0)) / (1 + q);
  }

  /** The smallest k ≥ 0 with P[|Z| &gt; k] ≤ β (checked against the exact formula, with slack). */
  static long halfWidth(double r, double beta) {
    double q = Math.exp(-r);
    double kReal = Math.log(2 / (beta * (1 + q))) / r - 1;
    long k = Math.max(0, (long) Math.ceil(kReal));
    while (k > 0 && tail(r, k - 1) <= beta * (1 - 1e-12)) {
      k--;
    }
    while (tail(r, k) > beta * (1 - 1e-12)) {
      k++;
    }
    return k;
  }
}
