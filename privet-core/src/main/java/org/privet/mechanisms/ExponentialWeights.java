package org.privet.mechanisms;

import java.math.BigInteger;
import org.privet.noise.Bernoulli;
import org.privet.random.RandomSource;

/**
 * Exact sampling from weights w<sub>i</sub> = exp(−(num/den)·g<sub>i</sub>) over non-negative
 * integer gaps g<sub>i</sub> (at least one of them zero), using only exact
 * Bernoulli(exp(−γ)) draws for rational γ (Canonne, Kamath, Steinke 2020, Algorithm 1,
 * implemented in {@link Bernoulli#sampleExpMinus}).
 *
 * <p>Two samplers share the acceptance step "accept candidate i with probability w<sub>i</sub>":
 *
 * <ul>
 *   <li>{@link #sampleProportional}: propose i uniformly, accept with probability w<sub>i</sub>,
 *       repeat. The accepted i has probability exactly w<sub>i</sub>/Σw (von Neumann rejection
 *       sampling with envelope 1 ≥ w<sub>i</sub>). Expected proposals k/Σw ≤ k, since the best
 *       candidate has w = 1; each proposal costs O(1) expected random words however large its gap
 *       (the Bernoulli(exp(−γ)) sampler stops at its first failed Bernoulli(exp(−1)) factor).
 *   <li>{@link #permuteAndFlip}: visit candidates in a uniformly random order and return the first
 *       accepted one (McKenna &amp; Sheldon 2020, Algorithm 1). A zero gap is always accepted, so
 *       this stops within k steps.
 * </ul>
 *
 * No floating-point number is ever involved in a probability. See
 * {@code docs/proofs/exponential-mechanism.md}.
 */
final class ExponentialWeights {

  private final long[] gaps;
  private final long num;
  private final long den;
  /** ⌊(2^63 − 1)/den⌋: a lower bound on γ whenever num·g overflows a long. */
  private final long wholeFloor;

  /**
   * @param gaps non-negative gaps, one of them zero
   * @param num rate numerator, positive
   * @param den rate denominator, positive
   */
  ExponentialWeights(long[] gaps, long num, long den) {
    this.gaps = gaps;
    this.num = num;
    this.den = den;
    this.wholeFloor = Long.MAX_VALUE / den;
  }

  /** Returns true with probability exactly exp(−(num/den)·gaps[i]). */
  boolean accept(RandomSource random, int i) {
    long g = gaps[i];
    if (g == 0) {
      return true;
    }
    long hi = Math.multiplyHigh(num, g);
    long lo = num * g;
    if (hi == 0 && lo >= 0) {
      return Bernoulli.sampleExpMinus(random, lo, den);
    }
    // num·g ≥ 2^63, so γ ≥ w0 = ⌊(2^63 − 1)/den⌋ ≥ 2^11. exp(−γ) = exp(−w0)·exp(−(γ − w0)), and the
    // first factor almost always fails fast, before any BigInteger is built.
    if (!Bernoulli.sampleExpMinus(random, wholeFloor, 1)) {
      return false;
    }
    BigInteger rest = BigInteger.valueOf(num).multiply(BigInteger.valueOf(g))
        .subtract(BigInteger.valueOf(wholeFloor).multiply(BigInteger.valueOf(den)));
    return Bernoulli.sampleExpMinus(random, rest, BigInteger.valueOf(den));
  }

  /** Returns i with probability exactly w_i / Σ_j w_j. */
  int sampleProportional(RandomSource random) {
    int k = gaps.length;
    while (true) {
      int i = (int) random.nextLong(k);
      if (accept(random, i)) {
        return i;
      }
    }
  }

  /** Permute-and-flip: the first candidate accepted in a uniformly random order. */
  int permuteAndFlip(RandomSource random) {
    int k = gaps.length;
    int[] order = new int[k];
    for (int i = 0; i < k; i++) {
      order[i] = i;
    }
    // Lazy Fisher-Yates: position t receives a uniform choice among the not yet visited.
    for (int t = 0; t < k; t++) {
      int j = t + (int) random.nextLong(k - t);
      int candidate = order[j];
      order[j] = order[t];
      order[t] = candidate;
      if (accept(random, candidate)) {
        return candidate;
      }
    }
    throw new IllegalStateException("permute-and-flip visited every candidate without accepting");
  }
}
