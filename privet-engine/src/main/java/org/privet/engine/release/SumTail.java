package org.privet.engine.release;

/**
 * Rigorous upper bounds on the two-sided tail of a sum S<sub>m</sub> of m ≥ 2 independent copies
 * of the engine's integer noises, used for the simultaneous band of {@link QuantileTree}. Each
 * returns an integer a with P[|S<sub>m</sub>| &gt; a] ≤ γ; rounding errors of the double
 * arithmetic only move the coverage, never the privacy.
 *
 * <ul>
 *   <li>Discrete Laplace with q = e<sup>−1/t</sup>: Chernoff, P[S ≥ x] ≤ min<sub>0&lt;λ&lt;1/t</sub>
 *       e<sup>−λx</sup>M(λ)<sup>m</sup> with the exact moment generating function M(λ) =
 *       (1−q)²/((1−qe<sup>λ</sup>)(1−qe<sup>−λ</sup>)).
 *   <li>Discrete Gaussian N<sub>ℤ</sub>(0, σ²): it is σ²-subgaussian, E[e<sup>λX</sup>] ≤
 *       e<sup>λ²σ²/2</sup> (Canonne, Kamath, Steinke 2020, "The discrete Gaussian for differential
 *       privacy", NeurIPS: its moment generating function is at most the continuous Gaussian's),
 *       so P[S ≥ x] ≤ e<sup>−x²/(2mσ²)</sup>.
 * </ul>
 */
final class SumTail {
  private SumTail() {}

  /** Smallest a ≥ 0 with 2·P[S_m ≥ a + 1] ≤ γ by the Chernoff bound, discrete Laplace scale t. */
  static long laplace(double scale, int m, double gamma) {
    long hi = 1;
    while (laplaceUpper(scale, m, hi + 1) > gamma / 2) {
      hi *= 2;
      if (hi > (1L << 61)) {
        return Long.MAX_VALUE / 4;
      }
    }
    long lo = -1; // invariant: lo fails (or is −1), hi passes
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (laplaceUpper(scale, m, mid + 1) <= gamma / 2) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  /** min over λ ∈ (0, 1/t) of exp(−λx + m·ln M(λ)), by golden-section search (convex exponent). */
  static double laplaceUpper(double scale, int m, double x) {
    double r = 1 / scale; // −ln q
    double a = 0;
    double b = r;
    final double phi = (Math.sqrt(5) - 1) / 2;
    double c = b - phi * (b - a);
    double d = a + phi * (b - a);
    double fc = exponent(r, m, x, c);
    double fd = exponent(r, m, x, d);
    for (int i = 0; i < 200 && b - a > 1e-15 * r; i++) {
      if (fc < fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - phi * (b - a);
        fc = exponent(r, m, x, c);
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + phi * (b - a);
        fd = exponent(r, m, x, d);
      }
    }
    return Math.min(1.0, Math.exp(Math.min(fc, fd)));
  }

  /** −λx + m·[2 ln(1−q) − ln(1−qe^λ) − ln(1−qe^−λ)], q = e^−r, for 0 &lt; λ &lt; r. */
  private static double exponent(double r, int m, double x, double lambda) {
    double lnM = 2 * Math.log(-Math.expm1(-r)) - Math.log(-Math.expm1(lambda - r))
        - Math.log(-Math.expm1(-lambda - r));
    return -lambda * x + m * lnM;
  }

  /** Smallest a ≥ 0 with 2·exp(−(a+1)²/(2mσ²)) ≤ γ (subgaussian tail of a discrete Gaussian sum). */
  static long gaussian(double sigma, int m, double gamma) {
    double x = sigma * Math.sqrt(2.0 * m * Math.log(2 / gamma));
    long a = Math.max(0, (long) Math.ceil(x) - 1);
    while (2 * Math.exp(-Math.pow(a + 1.0, 2) / (2.0 * m * sigma * sigma)) > gamma) {
      a++;
    }
    return a;
  }
}
