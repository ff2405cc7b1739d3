package org.privet.noise;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import org.privet.random.RandomSource;

/**
 * Bernoulli(e<sup>−1</sup>) by lazy comparison of a uniform U ∈ [0, 1), drawn 64 bits at a time,
 * with the binary expansion of e<sup>−1</sup>: the answer is decided at the first 64-bit word where
 * they differ, so one random word suffices except with probability 2<sup>−64</sup>. The expansion
 * is computed exactly (to as many words as a run of ties ever needs) from the alternating series
 * Σ(−1)<sup>k</sup>/k! in {@link BigDecimal} with a certified error bound; e<sup>−1</sup> is
 * irrational, so every prefix is well defined. This replaces CKS20 Algorithm 1 at γ = 1 (about
 * 1.7 words per call) with an equally exact sampler.
 */
final class ExpMinusOneBits {
  private ExpMinusOneBits() {}

  /** The first 4 words of e^-1 in binary, most significant first. */
  private static final long[] WORDS = words(4);

  static boolean sample(RandomSource random) {
    for (int i = 0; ; i++) {
      long w = i < WORDS.length ? WORDS[i] : words(i + 1)[i];
      long u = random.nextLong();
      if (u != w) {
        return Long.compareUnsigned(u, w) < 0;
      }
    }
  }

  /** The first n 64-bit words of the binary expansion of e^-1. */
  static long[] words(int n) {
    int bits = 64 * n;
    for (int digits = (int) (bits * 0.30103) + 30; ; digits += 30) {
      MathContext mc = new MathContext(digits + 10, RoundingMode.HALF_EVEN);
      BigDecimal sum = BigDecimal.ZERO;
      BigDecimal term = BigDecimal.ONE;
      int k = 0;
      BigDecimal eps = BigDecimal.ONE.movePointLeft(digits + 5);
      while (term.abs().compareTo(eps) > 0) {
        sum = sum.add(term, mc);
        k++;
        term = term.divide(BigDecimal.valueOf(-k), mc);
      }
      // |e^-1 - sum| <= |term| + rounding (< 10^-(digits+5) in total, generously below 2 eps).
      BigDecimal scale = new BigDecimal(BigInteger.ONE.shiftLeft(bits));
      BigDecimal err = eps.multiply(BigDecimal.valueOf(4)).multiply(scale);
      BigDecimal scaled = sum.multiply(scale);
      BigInteger lo = scaled.subtract(err).setScale(0, RoundingMode.FLOOR).toBigInteger();
      BigInteger hi = scaled.add(err).setScale(0, RoundingMode.FLOOR).toBigInteger();
      if (lo.equals(hi)) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
          out[i] = lo.shiftRight(64 * (n - 1 - i)).longValue();
        }
        return out;
      }
    }
  }
}
