package org.privet.noise;

import java.math.BigInteger;
import org.privet.random.RandomSource;

/**
 * Exact discrete Gaussian sampler N<sub>ℤ</sub>(0, σ²): returns x ∈ ℤ with probability
 * proportional to exp(−x²/(2σ²)), for a rational σ² = num/den &gt; 0.
 *
 * <p>Canonne, Kamath, Steinke (2020), "The Discrete Gaussian for Differential Privacy",
 * Algorithm 3: with t = ⌊σ⌋ + 1, draw Y from the discrete Laplace with scale t and accept it with
 * probability exp(−(|Y| − σ²/t)²/(2σ²)). In integers, with σ² = n/d, the exponent is
 * (|Y|·d·t − n)² / (2·n·d·t²). The expected number of rejections is below 2 for every σ (CKS20,
 * Theorem 24 ff.). Adding this noise to an integer query of ℓ2 sensitivity Δ is
 * ½(Δ/σ)²-zCDP (CKS20, Proposition 5).
 *
 * <p>Decision: the exponent is computed with {@code Math.multiplyExact}; on overflow (huge σ² or
 * an extreme candidate Y) the same step runs in {@link BigInteger}, so the output is exact for
 * every input.
 */
public final class DiscreteGaussian {

  private DiscreteGaussian() {}

  /**
   * Samples x with probability proportional to exp(−x²/(2σ²)), σ² = sigmaSqNum/sigmaSqDen.
   *
   * @throws IllegalArgumentException unless both arguments are positive
   */
  public static long sample(RandomSource random, long sigmaSqNum, long sigmaSqDen) {
    if (sigmaSqNum <= 0) {
      throw new IllegalArgumentException("sigmaSqNum must be positive, was " + sigmaSqNum);
    }
    if (sigmaSqDen <= 0) {
      throw new IllegalArgumentException("sigmaSqDen must be positive, was " + sigmaSqDen);
    }
    long n = sigmaSqNum;
    long d = sigmaSqDen;
    long t = floorSqrt(n / d) + 1; // floor(sqrt(n/d)) = floor(sqrt(floor(n/d)))
    while (true) {
      long y = DiscreteLaplace.sampleUnchecked(random, t, 1);
      long abs = Math.abs(y);
      boolean accept;
      try {
        long diff = Math.subtractExact(Math.multiplyExact(Math.multiplyExact(abs, d), t), n);
        long num = Math.multiplyExact(diff, diff);
        long den = Math.multiplyExact(Math.multiplyExact(Math.multiplyExact(2, n), d),
            Math.multiplyExact(t, t));
        accept = Bernoulli.sampleExpMinus(random, num, den);
      } catch (ArithmeticException overflow) {
        BigInteger bt = BigInteger.valueOf(t);
        BigInteger bn = BigInteger.valueOf(n);
        BigInteger bd = BigInteger.valueOf(d);
        BigInteger diff = BigInteger.valueOf(abs).multiply(bd).multiply(bt).subtract(bn);
        BigInteger num = diff.multiply(diff);
        BigInteger den = BigInteger.TWO.multiply(bn).multiply(bd).multiply(bt).multiply(bt);
        accept = Bernoulli.sampleExpMinus(random, num, den);
      }
      if (accept) {
        return y;
      }
    }
  }

  /** ⌊√x⌋ for x ≥ 0, exactly. */
  static long floorSqrt(long x) {
    long r = (long) Math.sqrt((double) x);
    while (r > 0 && (r > 3037000499L || r * r > x)) {
      r--;
    }
    while (r < 3037000499L && (r + 1) * (r + 1) <= x) {
      r++;
    }
    return r;
  }
}
