package org.privet.accounting;

import org.privet.math.Normal;

/**
 * The exact privacy profile of the Gaussian mechanism (Balle &amp; Wang 2018, "Improving the Gaussian
 * mechanism for differential privacy", Thm. 8): with μ = Δ/σ,
 *
 * <pre>  δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ).</pre>
 *
 * <p>The k-fold composition of Gaussians with ratios μ<sub>i</sub> is exactly a Gaussian with μ =
 * √(Σμ<sub>i</sub>²) (Dong, Roth, Su 2019, Gaussian DP), so this also gives the exact k-fold
 * profile. Package-private; used as the ground truth in tests and as a tight accountant for pure
 * Gaussian compositions.
 */
final class GaussianProfile {
  private GaussianProfile() {}

  /** δ(ε) for μ = Δ/σ. */
  static double delta(double mu, double epsilon) {
    double a = Normal.cdf(mu / 2 - epsilon / mu);
    double b = Normal.cdf(-mu / 2 - epsilon / mu);
    return Math.max(0.0, a - Math.exp(epsilon) * b);
  }

  /** The smallest ε with δ(ε) ≤ delta, by bisection (δ(ε) is decreasing in ε). */
  static double epsilon(double mu, double delta) {
    if (delta(mu, 0.0) <= delta) {
      return 0.0;
    }
    double lo = 0.0;
    double hi = 1.0;
    while (delta(mu, hi) > delta) {
      hi *= 2;
    }
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
      double mid = 0.5 * (lo + hi);
      if (delta(mu, mid) > delta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }
}
