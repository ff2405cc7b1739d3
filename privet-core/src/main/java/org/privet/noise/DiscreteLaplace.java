package org.privet.noise;

import org.privet.random.RandomSource;

/**
 * Exact discrete Laplace sampler: returns x ∈ ℤ with probability
 * (e<sup>1/t</sup> − 1)/(e<sup>1/t</sup> + 1) · e<sup>−|x|/t</sup> for a rational scale t =
 * num/den &gt; 0.
 *
 * <p>Canonne, Kamath, Steinke (2020), "The Discrete Gaussian for Differential Privacy",
 * Algorithm 2: a geometric magnitude Y with ratio e<sup>−1/t</sup> ({@link Geometric}) and a fair
 * sign B, rejecting (B = −, Y = 0) so that zero is not counted twice. Adding this noise to an
 * integer query of sensitivity Δ gives (Δ/t)-DP (the geometric mechanism, Ghosh, Roughgarden,
 * Sundararajan 2009).
 */
public final class DiscreteLaplace {

  private DiscreteLaplace() {}

  /**
   * Samples x with probability proportional to exp(−|x|·den/num), i.e. scale t = num/den.
   *
   * @throws IllegalArgumentException unless {@code num > 0} and {@code den > 0}
   */
  public static long sample(RandomSource random, long num, long den) {
    if (num <= 0) {
      throw new IllegalArgumentException("num (scale numerator) must be positive, was " + num);
    }
    if (den <= 0) {
      throw new IllegalArgumentException("den (scale denominator) must be positive, was " + den);
    }
    return sampleUnchecked(random, num, den);
  }

  static long sampleUnchecked(RandomSource random, long num, long den) {
    while (true) {
      // Geometric with ratio exp(-den/num): Geometric.sample(s = den, t = num).
      long y = Geometric.sampleUnchecked(random, den, num);
      boolean negative = random.nextBoolean();
      if (negative && y == 0) {
        continue;
      }
      return negative ? -y : y;
    }
  }
}
