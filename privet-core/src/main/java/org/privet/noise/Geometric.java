package org.privet.noise;

import org.privet.random.RandomSource;

/**
 * Exact geometric sampler: returns k ∈ {0, 1, 2, …} with probability
 * (1 − e<sup>−γ</sup>)·e<sup>−γk</sup> for a rational γ = num/den &gt; 0.
 *
 * <p>This is the one-sided core of Canonne, Kamath, Steinke (2020), "The Discrete Gaussian for
 * Differential Privacy", Algorithm 2: with t = den, draw U uniform on {0, …, t−1} and keep it with
 * probability exp(−U/t) (so U ∝ e<sup>−U/t</sup>), draw V ~ Geometric(1 − e<sup>−1</sup>) by
 * counting Bernoulli(exp(−1)) successes, set X = U + t·V (so X ∝ e<sup>−X/t</sup> on ℕ), and
 * return ⌊X/num⌋. Integer arithmetic only; the expected number of random words is a small
 * constant, independent of num and den.
 */
public final class Geometric {

  private Geometric() {}

  /**
   * Samples k ≥ 0 with probability proportional to exp(−k·num/den).
   *
   * @throws IllegalArgumentException unless {@code num > 0} and {@code den > 0}
   */
  public static long sample(RandomSource random, long num, long den) {
    if (num <= 0) {
      throw new IllegalArgumentException("num must be positive, was " + num);
    }
    if (den <= 0) {
      throw new IllegalArgumentException("den must be positive, was " + den);
    }
    return sampleUnchecked(random, num, den);
  }

  static long sampleUnchecked(RandomSource random, long num, long den) {
    long u;
    do {
      u = Bernoulli.uniform(random, den);
    } while (!Bernoulli.expMinusFraction(random, u, den));
    long v = 0;
    while (Bernoulli.expMinusOne(random)) {
      v++;
    }
    // X = u + den * v; computed as floor(X / num) without overflow where possible.
    long x;
    try {
      x = Math.addExact(u, Math.multiplyExact(den, v));
    } catch (ArithmeticException e) {
      return java.math.BigInteger.valueOf(den)
          .multiply(java.math.BigInteger.valueOf(v))
          .add(java.math.BigInteger.valueOf(u))
          .divide(java.math.BigInteger.valueOf(num))
          .longValueExact();
    }
    return x / num;
  }
}
