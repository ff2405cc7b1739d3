package org.privet.noise;

import java.math.BigInteger;
import org.privet.random.RandomSource;

/**
 * Exact Bernoulli samplers: Bernoulli(p) for a rational p and Bernoulli(exp(−γ)) for a rational
 * γ ≥ 0, using integer arithmetic only.
 *
 * <p>Bernoulli(exp(−γ)) is Algorithm 1 of Canonne, Kamath, Steinke (2020), "The Discrete Gaussian
 * for Differential Privacy" (NeurIPS 2020, arXiv:2004.00010): for γ ∈ [0, 1], draw
 * A<sub>k</sub> ~ Bernoulli(γ/k) for k = 1, 2, … until the first failure at k = K and return
 * whether K is odd (the alternating series of exp(−γ)); for γ &gt; 1 it returns ⌊γ⌋ independent
 * Bernoulli(exp(−1)) draws and one Bernoulli(exp(−(γ − ⌊γ⌋))) draw, all required to succeed.
 *
 * <p>Decision: the fast path is pure {@code long} arithmetic; a product {@code den·k} that would
 * overflow is never wrapped but replaced by the identity Bernoulli(γ/k) = Bernoulli(γ) ∧
 * Bernoulli(1/k) with independent draws, so no input makes the sampler inexact. The
 * {@link BigInteger} overloads cover rationals that do not fit in a {@code long}.
 */
public final class Bernoulli {

  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private Bernoulli() {}

  /**
   * Returns {@code true} with probability exactly {@code num/den}.
   *
   * @throws IllegalArgumentException unless {@code 0 <= num <= den} and {@code den > 0}
   */
  public static boolean sample(RandomSource random, long num, long den) {
    if (den <= 0) {
      throw new IllegalArgumentException("den must be positive, was " + den);
    }
    if (num < 0 || num > den) {
      throw new IllegalArgumentException("num must be in [0, den], was " + num);
    }
    return uniform(random, den) < num;
  }

  /**
   * Returns {@code true} with probability exactly {@code num/den}.
   *
   * @throws IllegalArgumentException unless {@code 0 <= num <= den} and {@code den > 0}
   */
  public static boolean sample(RandomSource random, BigInteger num, BigInteger den) {
    if (den.signum() <= 0) {
      throw new IllegalArgumentException("den must be positive, was " + den);
    }
    if (num.signum() < 0 || num.compareTo(den) > 0) {
      throw new IllegalArgumentException("num must be in [0, den], was " + num);
    }
    if (den.compareTo(LONG_MAX) <= 0) {
      return uniform(random, den.longValue()) < num.longValue();
    }
    return random.nextBigInteger(den).compareTo(num) < 0;
  }

  /**
   * Returns {@code true} with probability exactly exp(−num/den) (CKS20, Algorithm 1).
   *
   * @throws IllegalArgumentException unless {@code num >= 0} and {@code den > 0}
   */
  public static boolean sampleExpMinus(RandomSource random, long num, long den) {
    if (den <= 0) {
      throw new IllegalArgumentException("den must be positive, was " + den);
    }
    if (num < 0) {
      throw new IllegalArgumentException("num must be non-negative, was " + num);
    }
    long whole = num / den;
    for (long i = 0; i < whole; i++) {
      if (!expMinusOne(random)) {
        return false;
      }
    }
    return expMinusFraction(random, num % den, den);
  }

  /**
   * Returns {@code true} with probability exactly exp(−num/den) (CKS20, Algorithm 1).
   *
   * @throws IllegalArgumentException unless {@code num >= 0} and {@code den > 0}
   */
  public static boolean sampleExpMinus(RandomSource random, BigInteger num, BigInteger den) {
    if (den.signum() <= 0) {
      throw new IllegalArgumentException("den must be positive, was " + den);
    }
    if (num.signum() < 0) {
      throw new IllegalArgumentException("num must be non-negative, was " + num);
    }
    if (den.compareTo(LONG_MAX) <= 0 && num.compareTo(LONG_MAX) <= 0) {
      return sampleExpMinus(random, num.longValue(), den.longValue());
    }
    BigInteger[] qr = num.divideAndRemainder(den);
    // exp(-q) for q beyond 2^63 is below any representable probability, but we stay exact.
    for (BigInteger i = BigInteger.ZERO; i.compareTo(qr[0]) < 0; i = i.add(BigInteger.ONE)) {
      if (!expMinusOne(random)) {
        return false;
      }
    }
    BigInteger a = qr[1];
    // Algorithm 1 with Bernoulli(a/(den k)) = Bernoulli(1/k) AND Bernoulli(a/den), independent.
    long k = 1;
    while ((k == 1 || uniform(random, k) == 0) && sampleBig(random, a, den)) {
      k++;
    }
    return (k & 1) == 1;
  }

  private static boolean sampleBig(RandomSource random, BigInteger num, BigInteger den) {
    if (den.compareTo(LONG_MAX) <= 0) {
      return uniform(random, den.longValue()) < num.longValue();
    }
    return random.nextBigInteger(den).compareTo(num) < 0;
  }

  /** Bernoulli(exp(−1)), exactly, in one random word with probability 1 − 2^−64. */
  static boolean expMinusOne(RandomSource random) {
    return ExpMinusOneBits.sample(random);
  }

  /** CKS20 Algorithm 1 at γ = 1, kept as the reference for {@link ExpMinusOneBits}. */
  static boolean expMinusOneByAlgorithm1(RandomSource random) {
    long k = 2;
    while (uniform(random, k) == 0) {
      k++;
    }
    return (k & 1) == 1;
  }

  /** Bernoulli(exp(−a/b)) for 0 ≤ a &lt; b (CKS20, Algorithm 1 with γ ≤ 1). */
  static boolean expMinusFraction(RandomSource random, long a, long b) {
    if (a == 0) {
      return true;
    }
    long k = 1;
    while (true) {
      boolean success;
      if (b <= Long.MAX_VALUE / k) {
        success = uniform(random, b * k) < a;
      } else {
        // Bernoulli(a/(b k)) as the conjunction of independent Bernoulli(1/k) and Bernoulli(a/b).
        success = uniform(random, k) == 0 && uniform(random, b) < a;
      }
      if (!success) {
        return (k & 1) == 1;
      }
      k++;
    }
  }

  /**
   * A uniform long in [0, bound) for bound &gt; 0, exactly: Lemire (2019), "Fast random integer
   * generation in an interval", whose rejection step needs a division only with probability
   * bound/2<sup>64</sup>.
   */
  static long uniform(RandomSource random, long bound) {
    long x = random.nextLong();
    long lo = x * bound;
    if (Long.compareUnsigned(lo, bound) < 0) {
      long threshold = Long.remainderUnsigned(-bound, bound);
      while (Long.compareUnsigned(lo, threshold) < 0) {
        x = random.nextLong();
        lo = x * bound;
      }
    }
    // Unsigned high word of x * bound (bound > 0).
    return Math.multiplyHigh(x, bound) + ((x >> 63) & bound);
  }
}
