package org.privet.stattests.numeric;

import java.util.function.LongToDoubleFunction;
import org.privet.testing.ChiSquareTest;

/** Exact laws of the numeric samplers, and the chi-square p-value of samples against one. */
final class Laws {
  private Laws() {}

  /** Discrete Laplace with scale t: P[x] = (1 − q)/(1 + q)·q^|x|, q = e^(−1/t). */
  static LongToDoubleFunction discreteLaplace(double t) {
    double q = Math.exp(-1 / t);
    return x -> (1 - q) / (1 + q) * Math.pow(q, Math.abs(x));
  }

  /** Geometric with ratio q = e^(−γ): P[k] = (1 − q)q^k for k ≥ 0. */
  static LongToDoubleFunction geometric(double gamma) {
    double q = Math.exp(-gamma);
    return k -> k < 0 ? 0 : (1 - q) * Math.pow(q, k);
  }

  /** Discrete Gaussian N_Z(0, σ²), normalised by direct summation. */
  static LongToDoubleFunction discreteGaussian(double sigmaSq) {
    double z = 0;
    long range = (long) (Math.sqrt(sigmaSq) * 40) + 10;
    for (long y = -range; y <= range; y++) {
      z += Math.exp(-(double) y * y / (2 * sigmaSq));
    }
    double norm = z;
    return x -> Math.exp(-(double) x * x / (2 * sigmaSq)) / norm;
  }

  static double chiSquarePValue(long[] samples, LongToDoubleFunction pmf, long lo, long hi) {
    return ChiSquareTest.goodnessOfFit(
            ChiSquareTest.histogram(samples, lo, hi), ChiSquareTest.probabilities(pmf, lo, hi))
        .pValue();
  }

  /** Laplace distribution function with scale b, centred at 0. */
  static double laplaceCdf(double x, double b) {
    return x < 0 ? 0.5 * Math.exp(x / b) : 1 - 0.5 * Math.exp(-x / b);
  }

  /** Normal distribution function Φ(x/σ), via erfc computed by the complementary series. */
  static double normalCdf(double x, double sigma) {
    return 0.5 * erfc(-x / (sigma * Math.sqrt(2)));
  }

  /** erfc with absolute error below 1.2e-7 (Numerical Recipes' Chebyshev fit), enough for KS. */
  static double erfc(double x) {
    double z = Math.abs(x);
    double t = 1 / (1 + 0.5 * z);
    double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
        + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
        + t * (-0.82215223 + t * 0.17087277)))))))));
    return x >= 0 ? r : 2 - r;
  }
}
