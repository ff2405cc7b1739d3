package org.privet.accounting;

/**
 * The standard normal distribution function, computed to about 12 significant digits: a power
 * series for erf on |x| &lt; 2 and Lentz's continued fraction for erfc beyond (Abramowitz &amp; Stegun
 * 7.1.5 and 7.1.14). Package-private; used by the exact Gaussian privacy profile and the Gaussian
 * privacy loss distributions, which add a relative safety margin for this error.
 */
final class Normal {
  private Normal() {}

  private static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);

  /** Φ(x) = P[Z ≤ x]. */
  static double cdf(double x) {
    return 0.5 * erfc(-x / Math.sqrt(2.0));
  }

  /** erfc(x) = 1 − erf(x). */
  static double erfc(double x) {
    if (Double.isNaN(x)) {
      return Double.NaN;
    }
    if (x < 0) {
      return 2.0 - erfc(-x);
    }
    if (x < 2.0) {
      return 1.0 - erfSeries(x);
    }
    if (x > 27.3) {
      return 0.0; // below the smallest double
    }
    return Math.exp(-x * x) / Math.sqrt(Math.PI) * continuedFraction(x);
  }

  private static double erfSeries(double x) {
    // erf(x) = 2/√π Σ (−1)^n x^(2n+1) / (n! (2n+1))
    double x2 = x * x;
    double term = x;
    double sum = x;
    for (int n = 1; n < 200; n++) {
      term *= -x2 / n;
      double add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17 * Math.abs(sum)) {
        break;
      }
    }
    return TWO_OVER_SQRT_PI * sum;
  }

  /** 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...)))) by the modified Lentz algorithm. */
  private static double continuedFraction(double x) {
    double tiny = 1e-300;
    double f = x;
    double c = x;
    double d = 0.0;
    for (int k = 1; k < 5000; k++) {
      double a = k / 2.0;
      d = x + a * d;
      d = d == 0 ? tiny : d;
      c = x + a / c;
      c = c == 0 ? tiny : c;
      d = 1.0 / d;
      double delta = c * d;
      f *= delta;
      if (Math.abs(delta - 1.0) < 1e-16) {
        break;
      }
    }
    return 1.0 / f;
  }

  /** ln erfc(x), accurate also where erfc(x) underflows. */
  static double logErfc(double x) {
    if (x < 2.0) {
      return Math.log(erfc(x));
    }
    return -x * x - 0.5 * Math.log(Math.PI) + Math.log(continuedFraction(x));
  }
}
