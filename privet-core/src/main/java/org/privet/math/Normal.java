package org.privet.math;

/**
 * The standard normal distribution's tails, shared by the mechanisms (calibration, certification,
 * confidence intervals) and the accountants (Gaussian privacy profile, privacy loss
 * distributions, Rényi divergences of subsampled Gaussians).
 *
 * <p>erfc is computed to about 14 significant digits: for 0 ≤ x &lt; 2.12 as 1 − erf(x) with the
 * all-positive series erf(x) = (2/√π)e<sup>−x²</sup>Σ 2<sup>n</sup>x<sup>2n+1</sup>/(2n+1)!! (no
 * cancellation inside the series), beyond as e<sup>−x²</sup>/(√π·K(x)) with Laplace's continued
 * fraction K(x) = x + (1/2)/(x + 1/(x + (3/2)/(x + …))) evaluated bottom-up from depth 250
 * (Abramowitz &amp; Stegun 7.1.14); negative x by erfc(−x) = 2 − erfc(x). Callers that certify
 * privacy with these values add an explicit relative margin for this error.
 */
public final class Normal {
  private Normal() {}

  private static final double SQRT_PI = Math.sqrt(Math.PI);
  private static final double SQRT_2 = Math.sqrt(2.0);
  private static final double CONTINUED_FRACTION_FROM = 2.12;

  /** erfc(x) = 1 − erf(x), for every x (NaN for NaN). */
  public static double erfc(double x) {
    if (Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x < 0) {
      return 2.0 - erfc(-x);
    }
    if (x >= CONTINUED_FRACTION_FROM) {
      return x > 27.3 ? 0.0 : Math.exp(-x * x) / (SQRT_PI * continuedFraction(x));
    }
    double x2 = x * x;
    double term = x;
    double sum = x;
    for (int n = 1; n < 300; n++) {
      term *= 2 * x2 / (2 * n + 1);
      sum += term;
      if (term < 1e-17 * sum) {
        break;
      }
    }
    return 1 - 2 / SQRT_PI * Math.exp(-x2) * sum;
  }

  /** ln erfc(x), accurate also where erfc(x) underflows. */
  public static double logErfc(double x) {
    if (Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x < CONTINUED_FRACTION_FROM) {
      return Math.log(erfc(x));
    }
    return -x * x - 0.5 * Math.log(Math.PI) - Math.log(continuedFraction(x));
  }

  /** Φ(z) = P[N(0,1) ≤ z]. */
  public static double cdf(double z) {
    return upperTail(-z);
  }

  /** Q(z) = P[N(0,1) &gt; z]. */
  public static double upperTail(double z) {
    return scaledUpperTail(z, 0.0);
  }

  /** e<sup>logScale</sup>·Q(z), computed without overflow when Q is tiny and the scale huge. */
  public static double scaledUpperTail(double z, double logScale) {
    if (Double.isNaN(z)) {
      return Double.NaN;
    }
    double x = z / SQRT_2;
    if (x >= CONTINUED_FRACTION_FROM) {
      return Math.exp(logScale - z * z / 2) / (2 * SQRT_PI * continuedFraction(x));
    }
    return Math.exp(logScale) * 0.5 * erfc(x);
  }

  /** K(x) = x + (1/2)/(x + 1/(x + (3/2)/(x + …))), evaluated from depth 250 upward (x ≥ 2). */
  private static double continuedFraction(double x) {
    double t = x;
    for (int k = 250; k >= 1; k--) {
      t = x + (k / 2.0) / t;
    }
    return t;
  }
}
