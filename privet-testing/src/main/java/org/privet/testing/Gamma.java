package org.privet.testing;

/**
 * The log-gamma function and the regularized incomplete gamma functions, for p-values of
 * chi-square statistics. Lanczos (1964) approximation with g = 7, n = 9 (about 15 digits), the
 * series of P(a, x) for x &lt; a + 1 and the Legendre continued fraction of Q(a, x) otherwise
 * (evaluated by the modified Lentz method).
 */
final class Gamma {
  private Gamma() {}

  private static final double[] LANCZOS = {
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7
  };

  /** ln Γ(x) for x &gt; 0. */
  static double logGamma(double x) {
    if (x < 0.5) {
      // Reflection: Γ(x)Γ(1−x) = π / sin(πx)
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    }
    double z = x - 1;
    double sum = LANCZOS[0];
    for (int i = 1; i < LANCZOS.length; i++) {
      sum += LANCZOS[i] / (z + i);
    }
    double t = z + 7.5;
    return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
  }

  /** The regularized upper incomplete gamma Q(a, x) = Γ(a, x)/Γ(a), a &gt; 0, x ≥ 0. */
  static double regularizedQ(double a, double x) {
    if (x <= 0) {
      return 1.0;
    }
    if (x < a + 1) {
      return 1.0 - seriesP(a, x);
    }
    return continuedFractionQ(a, x);
  }

  private static double seriesP(double a, double x) {
    double term = 1.0 / a;
    double sum = term;
    for (int n = 1; n < 10_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-16) {
        break;
      }
    }
    return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
  }

  private static double continuedFractionQ(double a, double x) {
    double tiny = 1e-300;
    double b = x + 1 - a;
    double c = 1 / tiny;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < 10_000; i++) {
      double an = -i * (i - a);
      b += 2;
      d = an * d + b;
      if (Math.abs(d) < tiny) {
        d = tiny;
      }
      c = b + an / c;
      if (Math.abs(c) < tiny) {
        c = tiny;
      }
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-16) {
        break;
      }
    }
    return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
  }

  /**
   * The regularized incomplete beta I<sub>x</sub>(a, b), by its continued fraction (modified
   * Lentz), using the symmetry I<sub>x</sub>(a, b) = 1 − I<sub>1−x</sub>(b, a) where it converges
   * faster.
   */
  static double regularizedBeta(double x, double a, double b) {
    if (x <= 0) {
      return 0.0;
    }
    if (x >= 1) {
      return 1.0;
    }
    double logFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
    if (x < (a + 1) / (a + b + 2)) {
      return Math.exp(logFront) * betaFraction(x, a, b) / a;
    }
    return 1.0 - Math.exp(logFront) * betaFraction(1 - x, b, a) / b;
  }

  private static double betaFraction(double x, double a, double b) {
    double tiny = 1e-300;
    double c = 1;
    double d = 1 - (a + b) * x / (a + 1);
    if (Math.abs(d) < tiny) {
      d = tiny;
    }
    d = 1 / d;
    double h = d;
    for (int m = 1; m < 10_000; m++) {
      int m2 = 2 * m;
      double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      h *= d * c;
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
      d = 1 + aa * d;
      d = Math.abs(d) < tiny ? tiny : d;
      c = 1 + aa / c;
      c = Math.abs(c) < tiny ? tiny : c;
      d = 1 / d;
      double delta = d * c;
      h *= delta;
      if (Math.abs(delta - 1) < 1e-15) {
        break;
      }
    }
    return h;
  }
}
