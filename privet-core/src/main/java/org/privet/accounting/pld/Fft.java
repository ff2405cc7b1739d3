package org.privet.accounting.pld;

/**
 * An in-place iterative radix-2 complex FFT (Cooley &amp; Tukey 1965) on separate real and
 * imaginary arrays. Twiddle factors are computed directly with {@link Math#cos}/{@link Math#sin}
 * (not by recurrence), which keeps the error within the classical bound ‖ŷ − y‖₂ ≤ c·u·log₂N·‖y‖₂
 * (Higham, "Accuracy and Stability of Numerical Algorithms", Thm. 24.2). Package-private.
 */
final class Fft {
  private final int n;
  private final int logN;
  private final double[] cos;
  private final double[] sin;

  Fft(int n) {
    if (n < 1 || Integer.bitCount(n) != 1) {
      throw new IllegalArgumentException("FFT size must be a power of two, was " + n);
    }
    this.n = n;
    this.logN = Integer.numberOfTrailingZeros(n);
    cos = new double[Math.max(1, n / 2)];
    sin = new double[Math.max(1, n / 2)];
    for (int k = 0; k < n / 2; k++) {
      double angle = -2.0 * Math.PI * k / n;
      cos[k] = Math.cos(angle);
      sin[k] = Math.sin(angle);
    }
  }

  int size() {
    return n;
  }

  int log2Size() {
    return logN;
  }

  /** Forward transform (e^{−2πi jk/N}), unnormalised. */
  void forward(double[] re, double[] im) {
    transform(re, im, false);
  }

  /** Inverse transform, normalised by 1/N. */
  void inverse(double[] re, double[] im) {
    transform(re, im, true);
    double scale = 1.0 / n;
    for (int i = 0; i < n; i++) {
      re[i] *= scale;
      im[i] *= scale;
    }
  }

  private void transform(double[] re, double[] im, boolean inverse) {
    // Bit reversal permutation.
    for (int i = 1, j = 0; i < n; i++) {
      int bit = n >> 1;
      for (; (j & bit) != 0; bit >>= 1) {
        j ^= bit;
      }
      j ^= bit;
      if (i < j) {
        double t = re[i];
        re[i] = re[j];
        re[j] = t;
        t = im[i];
        im[i] = im[j];
        im[j] = t;
      }
    }
    double sign = inverse ? -1.0 : 1.0;
    for (int len = 2; len <= n; len <<= 1) {
      int half = len >> 1;
      int step = n / len;
      for (int start = 0; start < n; start += len) {
        for (int k = 0; k < half; k++) {
          double wr = cos[k * step];
          double wi = sign * sin[k * step];
          int a = start + k;
          int b = a + half;
          double xr = re[b] * wr - im[b] * wi;
          double xi = re[b] * wi + im[b] * wr;
          re[b] = re[a] - xr;
          im[b] = im[a] - xi;
          re[a] += xr;
          im[a] += xi;
        }
      }
    }
  }
}
