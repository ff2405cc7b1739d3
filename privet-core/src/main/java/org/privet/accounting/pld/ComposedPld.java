package org.privet.accounting.pld;

import java.util.List;
import org.privet.accounting.UpwardRounding;

/**
 * The composition of discretised PLDs (one direction of the add/remove relation), computed by one
 * FFT per distinct event and pointwise powers (Koskela, Jälkö, Honkela 2020; Doroshenko et al.
 * 2022). Holds upper bounds on every error term so that {@link #delta} is an upper bound on the
 * true δ(ε) of the composition. Package-private; the argument is in docs/proofs/pld-accountant.md.
 */
final class ComposedPld {
  private static final double U = Math.ulp(1.0) / 2;
  /** Largest FFT size used. */
  static final int MAX_FFT = 1 << 23;

  final double interval;
  /** Grid index of masses[0]. */
  final long start;
  /** Masses on the window (may carry tiny negative FFT noise; treated as max(·, 0)). */
  final double[] masses;
  /** P(some event's loss is +∞), rounded up. */
  final double infinityMass;
  /** Chernoff bound on the finite mass above the window, rounded up. */
  final double tailMass;
  /** Bound on ‖computed − exact cyclic convolution‖₂ from floating point. */
  final double fftError;

  private ComposedPld(
      double interval, long start, double[] masses, double infinityMass, double tailMass, double fftError) {
    this.interval = interval;
    this.start = start;
    this.masses = masses;
    this.infinityMass = infinityMass;
    this.tailMass = tailMass;
    this.fftError = fftError;
  }

  /**
   * Composes {@code counts[e]} copies of each {@code plds[e]}.
   *
   * @param windowTail target bound on the composed loss mass outside the window
   */
  static ComposedPld compose(List<DiscretePld> plds, long[] counts, double windowTail) {
    double interval = plds.get(0).interval;
    int events = plds.size();
    double logFinite = 0;
    long s0 = 0;
    long maxR = 0;
    long total = 0;
    int maxLen = 1;
    double mean = 0;
    double var = 0;
    for (int e = 0; e < events; e++) {
      DiscretePld d = plds.get(e);
      long c = counts[e];
      total += c;
      logFinite += c * Math.log1p(-d.infinityMass);
      s0 = Math.addExact(s0, Math.multiplyExact(c, d.start));
      maxR = Math.addExact(maxR, Math.multiplyExact(c, (long) d.masses.length - 1));
      maxLen = Math.max(maxLen, d.masses.length);
      double[] mv = d.meanAndVariance();
      mean += c * mv[0];
      var += c * mv[1];
    }
    double infinity = Math.min(1.0, UpwardRounding.up(-Math.expm1(logFinite)) * (1 + 1e-12));

    // Window from Chernoff bounds on both tails of the composed finite part.
    double logTail = Math.log(windowTail);
    double sd = Math.sqrt(var);
    double[] upperFit = chernoff(plds, counts, logTail, true, sd);
    double[] lowerFit = chernoff(plds, counts, logTail, false, sd);
    long jHi = s0 + maxR;
    if (Double.isFinite(upperFit[0])) {
      jHi = Math.min(jHi, (long) Math.ceil(upperFit[0] / interval));
    }
    long jLo = s0;
    if (Double.isFinite(lowerFit[0])) {
      jLo = Math.max(jLo, (long) Math.floor(lowerFit[0] / interval));
    }
    jHi = Math.max(jHi, jLo);
    long span = jHi - jLo + 1;
    long size = Long.highestOneBit(Math.max(span, maxLen));
    if (size < Math.max(span, maxLen)) {
      size <<= 1;
    }
    size = Math.max(size, 2);
    if (size > MAX_FFT) {
      throw new IllegalArgumentException(
          "privacy loss window too wide (" + span + " grid points); use a larger value discretisation interval");
    }
    int n = (int) size;
    long top = jLo + n - 1;
    double tailMass = 0.0;
    if (top < s0 + maxR) {
      // P(S ≥ (top+1)Δ) ≤ exp(K(t) − t(top+1)Δ) at the Chernoff optimum t for the upper tail.
      double t = upperFit[1];
      double k = 0;
      for (int e = 0; e < events; e++) {
        k += counts[e] * plds.get(e).logMgf(t);
      }
      tailMass = Math.min(1.0, UpwardRounding.up(Math.exp(UpwardRounding.withMargin(k - t * (top + 1) * interval, Math.abs(k) + Math.abs(t * (top + 1) * interval)))));
    }

    Fft fft = new Fft(n);
    // Per-frequency bound g on the error of each forward FFT output: log₂N stages, each adding at
    // most η‖a‖₁ with η ≤ 8u (Higham 2002, §24.1; ‖a‖₁ ≤ 1 + 10⁻⁹ for our masses).
    double g = 8 * U * fft.log2Size() * (1 + 1e-9);
    double[] logMod = new double[n];
    double[] logModUp = new double[n];
    double[] arg = new double[n];
    double[] re = new double[n];
    double[] im = new double[n];
    for (int e = 0; e < events; e++) {
      forward(fft, plds.get(e), re, im);
      long c = counts[e];
      for (int f = 0; f < n; f++) {
        double mod = Math.hypot(re[f], im[f]);
        logMod[f] += mod == 0 ? Double.NEGATIVE_INFINITY : c * Math.log(mod);
        logModUp[f] += c * Math.log(mod + g);
        arg[f] += c * Math.atan2(im[f], re[f]);
      }
    }
    // Error of the product Π ẑ_e^{c_e} at each frequency, to first order: Σ_e c_e·g·Π(|ẑ|+g)/(|ẑ_e|+g)
    // (mean value theorem), plus the relative error of the polar power, u(π + 4) per unit of
    // exponent (log, hypot, atan2, exp, cos/sin each within 1 ulp).
    double[] err = new double[n];
    for (int e = 0; e < events; e++) {
      forward(fft, plds.get(e), re, im);
      long c = counts[e];
      for (int f = 0; f < n; f++) {
        double mod = Math.hypot(re[f], im[f]);
        err[f] += c * g * Math.exp(logModUp[f] - Math.log(mod + g));
      }
    }
    double errSq = 0;
    for (int f = 0; f < n; f++) {
      double mod = Math.exp(logMod[f]);
      double ef = err[f] + U * (Math.PI + 4) * total * Math.exp(logModUp[f]);
      errSq += ef * ef;
      re[f] = mod * Math.cos(arg[f]);
      im[f] = mod * Math.sin(arg[f]);
    }
    fft.inverse(re, im);
    double[] out = new double[n];
    double outSq = 0;
    for (long j = jLo; j <= top; j++) {
      double v = re[(int) Math.floorMod(j - s0, (long) n)];
      out[(int) (j - jLo)] = v;
      outSq += v * v;
    }
    // Parseval: the inverse transform maps a frequency-domain error of 2-norm E to (1/√N)·E; the
    // inverse FFT itself adds at most g‖c‖₂ (Higham 2002, Thm. 24.2). A factor 1.01 covers the
    // second-order terms.
    double fftError = 1.01 * (Math.sqrt(errSq / n) + g * (Math.sqrt(outSq) + Math.sqrt(errSq / n)));
    return new ComposedPld(interval, jLo, out, infinity, tailMass, fftError);
  }

  private static void forward(Fft fft, DiscretePld d, double[] re, double[] im) {
    java.util.Arrays.fill(re, 0.0);
    java.util.Arrays.fill(im, 0.0);
    System.arraycopy(d.masses, 0, re, 0, d.masses.length);
    fft.forward(re, im);
  }

  /**
   * Chernoff fit for one tail: {bound on the loss, optimal t}. For the upper tail, the smallest u
   * with min_t K(t) − t·u ≤ ln τ (t &gt; 0); for the lower tail the largest such l (t &lt; 0).
   */
  private static double[] chernoff(List<DiscretePld> plds, long[] counts, double logTail, boolean upper, double sd) {
    double scale = sd > 0 ? 1 / sd : 1.0;
    double bestU = upper ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
    double bestT = Double.NaN;
    double lo = Math.log(scale * 1e-3);
    double hi = Math.log(scale * 1e3 + 1.0);
    int grid = 48;
    for (int i = 0; i <= grid; i++) {
      double t = Math.exp(lo + (hi - lo) * i / grid);
      double u = boundAt(plds, counts, logTail, upper ? t : -t);
      if (upper ? u < bestU : u > bestU) {
        bestU = u;
        bestT = upper ? t : -t;
      }
    }
    return new double[] {bestU, bestT};
  }

  private static double boundAt(List<DiscretePld> plds, long[] counts, double logTail, double t) {
    double k = 0;
    for (int e = 0; e < plds.size(); e++) {
      k += counts[e] * plds.get(e).logMgf(t);
    }
    // K(t) − t·u ≤ ln τ  ⇔  u ≥ (K(t) − ln τ)/t for t > 0;  l ≤ (K(t) − ln τ)/t for t < 0.
    return (k - logTail) / t;
  }

  double lossAt(int i) {
    return (start + i) * interval;
  }

  /** An upper bound on δ(ε) of the composition. */
  double delta(double epsilon) {
    double sum = 0;
    double fSq = 0;
    for (int i = masses.length - 1; i >= 0; i--) {
      double l = lossAt(i);
      if (l <= epsilon) {
        break;
      }
      double f = -Math.expm1(epsilon - l);
      fSq += f * f;
      double m = masses[i];
      if (m > 0) {
        sum += m * f;
      }
    }
    return bound(sum, fSq);
  }

  /**
   * δ bound from the window sum Σ max(ĉ_J, 0)·f_J, where f_J = (1 − e^{ε − l_J})_+ ≤ 1: by
   * Cauchy–Schwarz the FFT error changes the sum by at most fftError·‖f‖₂.
   */
  private double bound(double sum, double fSquared) {
    double d = infinityMass + tailMass + sum * (1 + 1e-9) + fftError * Math.sqrt(fSquared) * (1 + 1e-9);
    return Math.min(1.0, UpwardRounding.up(d));
  }

  /** The smallest ε ≥ 0 (up to rounding up) with δ(ε) ≤ target, or NaN if none. */
  double epsilon(double target) {
    if (delta(0.0) <= target) {
      return 0.0;
    }
    int n = masses.length;
    double topLoss = lossAt(n - 1);
    if (bound(0, 0) > target) {
      return Double.NaN;
    }
    // δ at grid points from the top via suffix sums: A_k = Σ_{J>k} m_J, B_k = Σ_{J>k} m_J e^{l_k − l_J}.
    double e1 = Math.exp(-interval);
    double a = 0;
    double b = 0;
    int count = 0;
    int k = n - 1;
    // Walk down until δ(l_k) > target; the answer lies in (l_k, l_{k+1}].
    while (k >= 0) {
      double l = lossAt(k);
      if (l < 0) {
        break;
      }
      double dk = bound(Math.max(0, a - b), count);  // ‖f‖₂² ≤ count
      if (dk > target) {
        break;
      }
      double m = Math.max(0, masses[k]);
      a += m;
      b = e1 * (b + m);
      count++;
      k--;
    }
    if (k == n - 1) {
      return topLoss; // only the top point works (cannot happen given the check above, kept safe)
    }
    double lk = k >= 0 ? lossAt(k) : lossAt(0) - interval;
    double lk1 = lk + interval;
    // On (l_k, l_{k+1}]: δ(ε) = const + A − e^{ε − l_k}·B' with the terms J ≥ k+1.
    double lo = Math.max(0, lk);
    double hi = lk1;
    for (int it = 0; it < 100 && hi - lo > 1e-15 * Math.max(1, hi); it++) {
      double mid = 0.5 * (lo + hi);
      if (delta(mid) <= target) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return UpwardRounding.up(hi);
  }
}
