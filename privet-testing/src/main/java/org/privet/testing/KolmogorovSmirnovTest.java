package org.privet.testing;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * One- and two-sample Kolmogorov–Smirnov tests. The p-value uses the limiting Kolmogorov
 * distribution P[K &gt; λ] = 2Σ(−1)<sup>k−1</sup>e<sup>−2k²λ²</sup> at λ = (√n + 0.12 + 0.11/√n)·D
 * (Stephens 1970), accurate for n ≳ 35; for the two-sample test n = n₁n₂/(n₁+n₂). Against a
 * discrete or grid-valued law the test is conservative (its true false-rejection rate is at most
 * the nominal one).
 */
public final class KolmogorovSmirnovTest {
  private KolmogorovSmirnovTest() {}

  /** The statistic D (sup distance of distribution functions) and its p-value. */
  public record Result(double statistic, double pValue) {}

  /** Tests a sample against a continuous distribution function. */
  public static Result oneSample(double[] sample, DoubleUnaryOperator cdf) {
    if (sample.length == 0) {
      throw new IllegalArgumentException("sample must not be empty");
    }
    double[] x = sample.clone();
    Arrays.sort(x);
    int n = x.length;
    double d = 0;
    for (int i = 0; i < n; i++) {
      double f = cdf.applyAsDouble(x[i]);
      d = Math.max(d, Math.max((i + 1.0) / n - f, f - (double) i / n));
    }
    return new Result(d, kolmogorovTail(d, n));
  }

  /** Tests whether two samples come from the same distribution. */
  public static Result twoSample(double[] a, double[] b) {
    if (a.length == 0 || b.length == 0) {
      throw new IllegalArgumentException("samples must not be empty");
    }
    double[] x = a.clone();
    double[] y = b.clone();
    Arrays.sort(x);
    Arrays.sort(y);
    int i = 0;
    int j = 0;
    double d = 0;
    while (i < x.length && j < y.length) {
      double v = Math.min(x[i], y[j]);
      while (i < x.length && x[i] == v) {
        i++;
      }
      while (j < y.length && y[j] == v) {
        j++;
      }
      d = Math.max(d, Math.abs((double) i / x.length - (double) j / y.length));
    }
    double ne = (double) x.length * y.length / (x.length + y.length);
    return new Result(d, kolmogorovTail(d, ne));
  }

  /** P[D &gt; d] for effective sample size n, via Stephens' corrected λ. */
  static double kolmogorovTail(double d, double n) {
    double sn = Math.sqrt(n);
    double lambda = (sn + 0.12 + 0.11 / sn) * d;
    if (lambda < 0.2) {
      return 1.0;
    }
    double sum = 0;
    for (int k = 1; k <= 200; k++) {
      double term = Math.exp(-2.0 * k * k * lambda * lambda);
      sum += (k % 2 == 1 ? term : -term);
      if (term < 1e-17) {
        break;
      }
    }
    return Math.max(0, Math.min(1, 2 * sum));
  }
}
