package org.privet.engine.release;

import java.util.Arrays;
import org.privet.engine.compile.MeanPlanner;
import org.privet.math.Normal;

/**
 * Confidence intervals for the ratio outputs (MEAN, VARIANCE, STDDEV) by test inversion (Fieller
 * 1954, "Some problems in interval estimation", JRSS B 16(2)): a pivot that is a weighted sum of
 * the independent noises of the released sum, sum of squares and count, inverted over the
 * parameter. This replaces a union bound over separate intervals of the parts, which was 1.3–1.9×
 * wider than the error. Post-processing of the noisy values and public scales only; the argument
 * is in {@code docs/proofs/engine-ratio-intervals.md}.
 */
public final class RatioIntervals {
  private RatioIntervals() {}

  private static final int ITERATIONS = 60;

  /**
   * An x with P[|Σ w<sub>i</sub>Z<sub>i</sub>| &gt; x] ≤ β for independent noises Z<sub>i</sub>
   * of one kind; NaN when the kinds differ (the caller then uses a union bound).
   *
   * <p>Discrete Laplace: Z = ⌊E₁⌋ − ⌊E₂⌋ and L = E₁ − E₂ (E exponential of mean t) couple the
   * noise with a Laplace(t) within 1, so the sum is within Σ|w<sub>i</sub>| of a sum of Laplaces
   * with scales b<sub>i</sub> = |w<sub>i</sub>|t<sub>i</sub>, whose two-sided tail is
   * Σ<sub>i</sub> c<sub>i</sub>e<sup>−x/b<sub>i</sub></sup>, c<sub>i</sub> = Π<sub>j≠i</sub>
   * b<sub>i</sub>²/(b<sub>i</sub>² − b<sub>j</sub>²) (partial fractions of the characteristic
   * function Π 1/(1 + b<sub>i</sub>²s²)). Near-equal scales are first spread apart upward, which
   * only widens (Anderson's theorem: the mass of a symmetric interval under a symmetric unimodal
   * law falls as the scale of an independent symmetric unimodal summand grows). Discrete
   * Gaussian: the normal quantile at variance Σ w<sub>i</sub>²σ<sub>i</sub>² plus the same lattice
   * allowance Σ|w<sub>i</sub>|.
   */
  static double quantile(double[] w, Releases.Noise[] z, double beta) {
    boolean gaussian = z[0].gaussian();
    double lattice = 0;
    for (int i = 0; i < w.length; i++) {
      if (z[i].gaussian() != gaussian) {
        return Double.NaN;
      }
      lattice += Math.abs(w[i]);
    }
    if (gaussian) {
      double var = 0;
      for (int i = 0; i < w.length; i++) {
        var += w[i] * w[i] * z[i].scale() * z[i].scale();
      }
      double lo = 0;
      double hi = 40;
      for (int it = 0; it < 100; it++) {
        double mid = (lo + hi) / 2;
        if (2 * Normal.upperTail(mid) > beta) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      return hi * Math.sqrt(var) + lattice;
    }
    double[] b = new double[w.length];
    int k = 0;
    double total = 0;
    for (int i = 0; i < w.length; i++) {
      double s = Math.abs(w[i]) * z[i].scale();
      if (s > 0) {
        b[k++] = s;
        total += s;
      }
    }
    if (k == 0) {
      return lattice;
    }
    b = Arrays.copyOf(b, k);
    Arrays.sort(b);
    for (int i = 1; i < k; i++) {
      b[i] = Math.max(b[i], b[i - 1] * 1.001); // only wider (see above)
    }
    double[] c = new double[k];
    for (int i = 0; i < k; i++) {
      c[i] = 1;
      for (int j = 0; j < k; j++) {
        if (j != i) {
          c[i] *= b[i] * b[i] / ((b[i] - b[j]) * (b[i] + b[j]));
        }
      }
    }
    double lo = 0;
    double hi = total * 1.01 * Math.log(k / beta) + 1; // union bound: k·e^{−x/Σb} ≤ β
    for (int it = 0; it < 100; it++) {
      double mid = (lo + hi) / 2;
      double tail = 0;
      for (int i = 0; i < k; i++) {
        tail += c[i] * Math.exp(-mid / b[i]);
      }
      if (tail > beta) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi + lattice;
  }

  /**
   * A mean's confidence set: an interval [a, b] ⊆ [lo, hi] that contains every m ∈ [lo, hi] with
   * |sv − m·n| ≤ q(m), where q(m) is {@link #quantile} of u·Z<sub>S</sub> − m·Z<sub>C</sub> at β.
   * For the true centred mean m = S/N (value units), sv − m·n = u·Z<sub>S</sub> − m·Z<sub>C</sub>
   * exactly (sv = u·s the released centred sum, n = N + Z<sub>C</sub> the released count), so
   * the set covers it with probability ≥ 1 − β. The ends are the limits of monotone iterations
   * b ← min(b, m̂ + q(max(|b|, |m̂|))/n) (m̂ = sv/n, q nondecreasing in |m|), each a valid bound.
   * Null when the noises are of different kinds.
   */
  public static double[] meanSet(double sv, long n, double u, Releases.Noise zs, Releases.Noise zc,
      double lo, double hi, double beta) {
    if (zs.gaussian() != zc.gaussian()) {
      return null;
    }
    if (n <= 0) {
      return new double[] {lo, hi};
    }
    double mhat = sv / n;
    Releases.Noise[] z = {zs, zc};
    double b = hi;
    for (int it = 0; it < ITERATIONS; it++) {
      double m = Math.max(Math.abs(b), Math.abs(mhat));
      double nb = Math.min(b, mhat + quantile(new double[] {u, m}, z, beta) / n);
      if (!(nb < b - 1e-12 * (hi - lo))) {
        break;
      }
      b = nb;
    }
    double a = lo;
    for (int it = 0; it < ITERATIONS; it++) {
      double m = Math.max(Math.abs(a), Math.abs(mhat));
      double na = Math.max(a, mhat - quantile(new double[] {u, m}, z, beta) / n);
      if (!(na > a + 1e-12 * (hi - lo))) {
        break;
      }
      a = na;
    }
    if (a > b) { // an empty set: the β event happened; report the point
      double p = MeanPlanner.clamp(mhat, lo, hi);
      return new double[] {p, p};
    }
    return new double[] {a, b};
  }

  /**
   * A variance's confidence interval within [0, vmax], or null when the noises differ in kind.
   * Inputs in value units: {@code sv} = u<sub>S</sub>·s the released sum centred at c<sub>S</sub>,
   * {@code qv} = u<sub>Q</sub>·q the released sum of squares centred at c<sub>Q</sub>, {@code d} =
   * c<sub>S</sub> − c<sub>Q</sub>, the value range [lower, upper]. With m₁ = μ − c<sub>Q</sub> and
   * v the variance, T = qv − 2m₁(sv + n·d) − (v − m₁²)·n equals u<sub>Q</sub>Z<sub>Q</sub> −
   * 2m₁u<sub>S</sub>Z<sub>S</sub> − (v − m₁² + 2m₁d)Z<sub>C</sub> exactly, and T = n(v̂ − v) +
   * n(m₁ − m̂₁)² with m̂₁ = sv/n + d, v̂ = qv/n − m̂₁². The mean's set at β/20 bounds m₁; the test
   * |T| ≤ q₃ at 19β/20, with q₃ at the worst weights over the current ranges, then bounds v, by
   * monotone iteration as for the mean. Coverage ≥ 1 − β by a union bound over the two tests.
   */
  public static double[] varianceSet(double sv, double qv, long n, double us, double uq, double cs,
      double cq, Releases.Noise zs, Releases.Noise zq, Releases.Noise zc, double lower,
      double upper, double vmax, double beta) {
    if (zs.gaussian() != zc.gaussian() || zq.gaussian() != zc.gaussian()) {
      return null;
    }
    if (n <= 0) {
      return new double[] {0, vmax};
    }
    double d = cs - cq;
    double[] ms = meanSet(sv, n, us, zs, zc, lower - cs, upper - cs, beta / 20);
    double a1 = ms[0] + d; // m₁ = (μ − c_S) + d
    double b1 = ms[1] + d;
    double m1hat = sv / n + d;
    double vhat = qv / n - m1hat * m1hat;
    double dmin = m1hat >= a1 && m1hat <= b1 ? 0
        : Math.min(Math.pow(a1 - m1hat, 2), Math.pow(b1 - m1hat, 2));
    double dmax = Math.max(Math.pow(a1 - m1hat, 2), Math.pow(b1 - m1hat, 2));
    // g(m₁) = −m₁² + 2m₁d over [a1, b1] (concave: max at d when inside).
    double ga = -a1 * a1 + 2 * a1 * d;
    double gb = -b1 * b1 + 2 * b1 * d;
    double gmin = Math.min(ga, gb);
    double gmax = d >= a1 && d <= b1 ? d * d : Math.max(ga, gb);
    double wS = 2 * Math.max(Math.abs(a1), Math.abs(b1)) * us;
    Releases.Noise[] z = {zq, zs, zc};
    double lo = 0;
    double hi = vmax;
    for (int it = 0; it < ITERATIONS; it++) {
      double wC = Math.max(Math.abs(lo + gmin), Math.abs(hi + gmax));
      double q3 = quantile(new double[] {uq, wS, wC}, z, beta * 19 / 20);
      double nlo = Math.max(lo, vhat + dmin - q3 / n);
      double nhi = Math.min(hi, vhat + dmax + q3 / n);
      boolean moved = nlo > lo + 1e-12 * vmax || nhi < hi - 1e-12 * vmax;
      lo = nlo;
      hi = nhi;
      if (!moved || lo > hi) {
        break;
      }
    }
    if (lo > hi) { // an empty set: the β event happened; report the point
      double p = MeanPlanner.clamp(vhat, 0, vmax);
      return new double[] {p, p};
    }
    return new double[] {lo, hi};
  }
}
