package org.privet.mechanisms;

import org.privet.math.Normal;

/**
 * Rigorous bounds on discrete Gaussian tails, from the continuous ones ({@link Normal}, about 14
 * significant digits), that the Gaussian mechanisms use for certification and confidence
 * intervals. Callers that certify privacy add an explicit relative margin for floating-point
 * error. (The continuous mechanism's privacy profile is {@link
 * org.privet.accounting.MechanismLoss.Gaussian#analyticDelta}.)
 */
final class DiscreteGaussianTails {
  private DiscreteGaussianTails() {}

  private static final double SQRT_2PI = Math.sqrt(2 * Math.PI);

  // ---- Discrete Gaussian N_Z(0, σ²): bounds on P[Y ≥ m] for integer m ----

  /**
   * An upper bound on P[Y ≥ m] for Y ~ N<sub>ℤ</sub>(0, σ²). With f(y) = e<sup>−y²/2σ²</sup>, for
   * m ≥ 1: Σ<sub>y≥m</sub> f(y) ≤ f(m) + ∫<sub>m</sub><sup>∞</sup>f, and the normaliser Z =
   * Σ<sub>y∈ℤ</sub> f(y) ≥ max(1, √(2π)σ − 1) (monotone sandwich); m ≤ 0 uses symmetry.
   */
  static double discreteTailUpper(double sigma, long m) {
    if (m <= 0) {
      return 1 - discreteTailLower(sigma, 1 - m);
    }
    double mass = Math.exp(-(double) m * m / (2 * sigma * sigma)) + SQRT_2PI * sigma * Normal.upperTail(m / sigma);
    double z = Math.max(1.0, SQRT_2PI * sigma - 1);
    return Math.min(1.0, mass / z);
  }

  /** A lower bound on P[Y ≥ m]: Σ<sub>y≥m</sub> f(y) ≥ ∫<sub>m</sub><sup>∞</sup>f, Z ≤ 1 + √(2π)σ. */
  static double discreteTailLower(double sigma, long m) {
    if (m <= 0) {
      return 1 - discreteTailUpper(sigma, 1 - m);
    }
    return Math.max(0.0, SQRT_2PI * sigma * Normal.upperTail(m / sigma) / (1 + SQRT_2PI * sigma));
  }

  /**
   * An upper bound on the δ(ε) of adding N<sub>ℤ</sub>(0, σ²) to an integer query whose values
   * on neighbours differ by μ: by Canonne, Kamath, Steinke (2020), Theorem 7, δ = P[Y &gt; εσ²/μ −
   * μ/2] − e<sup>ε</sup>P[Y &gt; εσ²/μ + μ/2]; we bound the first tail from above and the second
   * from below, round the cut points in the safe direction, and add a relative margin of
   * 10<sup>−9</sup> of the tails for floating-point error.
   */
  static double discreteDeltaUpper(double epsilon, long mu, double sigmaSq) {
    double sigma = Math.sqrt(sigmaSq);
    double a = epsilon * sigmaSq / mu - mu / 2.0;
    double b = epsilon * sigmaSq / mu + mu / 2.0;
    long ma = (long) Math.floor(a - 1e-9 * Math.max(1, Math.abs(a))) + 1;
    long mb = (long) Math.floor(b + 1e-9 * Math.max(1, Math.abs(b))) + 1;
    double first = discreteTailUpper(sigma, ma);
    double second = Math.exp(epsilon) * discreteTailLower(sigma, mb);
    return first - second + 1e-9 * (first + second);
  }

  /** P[|Y| &gt; k] ≤ this, for Y ~ N<sub>ℤ</sub>(0, σ²) and k ≥ 0. */
  static double discreteTwoSidedUpper(double sigma, long k) {
    return Math.min(1.0, 2 * discreteTailUpper(sigma, k + 1));
  }

  /** The smallest k ≥ 0 whose upper bound on P[|Y| &gt; k] is at most β. */
  static long discreteHalfWidth(double sigma, double beta) {
    long hi = Math.max(1, (long) Math.ceil(sigma * Math.sqrt(2 * Math.log(2 / beta))));
    while (discreteTwoSidedUpper(sigma, hi) > beta) {
      hi *= 2;
    }
    long lo = -1; // invariant: bound(lo) > beta (or lo = -1), bound(hi) <= beta
    while (hi - lo > 1) {
      long mid = lo + (hi - lo) / 2;
      if (discreteTwoSidedUpper(sigma, mid) <= beta) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }
}
