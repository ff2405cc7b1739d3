package org.privet.noise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.privet.random.RandomSource;

/**
 * Validation and moment checks of the exact samplers. The full distribution tests with power
 * checks are in privet-stat-tests; here each moment check uses a fixed seed and a tolerance of at
 * least 5 standard errors (false-failure probability below 1e-6 per check for a correct sampler).
 */
class SamplersTest {

  /** A seeded test-only source (SplittableRandom is allowed in test code). */
  static RandomSource seeded(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return r::nextLong;
  }

  private static void assertIae(String name, Executable e) {
    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
    assertTrue(ex.getMessage().contains(name), ex.getMessage());
  }

  @Test
  void sample_invalidArguments_throwNamingParameter() {
    RandomSource r = seeded(1);
    assertIae("den", () -> Bernoulli.sample(r, 0, 0));
    assertIae("num", () -> Bernoulli.sample(r, 3, 2));
    assertIae("num", () -> Bernoulli.sample(r, -1, 2));
    assertIae("den", () -> Bernoulli.sampleExpMinus(r, 1, -1));
    assertIae("num", () -> Bernoulli.sampleExpMinus(r, -1, 1));
    assertIae("num", () -> Bernoulli.sample(r, BigInteger.TEN, BigInteger.ONE));
    assertIae("den", () -> Bernoulli.sampleExpMinus(r, BigInteger.ONE, BigInteger.ZERO));
    assertIae("num", () -> Geometric.sample(r, 0, 1));
    assertIae("den", () -> Geometric.sample(r, 1, 0));
    assertIae("num", () -> DiscreteLaplace.sample(r, 0, 1));
    assertIae("den", () -> DiscreteLaplace.sample(r, 1, -5));
    assertIae("sigmaSqNum", () -> DiscreteGaussian.sample(r, 0, 1));
    assertIae("sigmaSqDen", () -> DiscreteGaussian.sample(r, 1, 0));
  }

  @Test
  void uniform_allBounds_inRangeAndUnbiasedOnSmallBound() {
    RandomSource r = seeded(2);
    for (long bound : new long[] {1, 2, 3, 5, 1L << 40, (1L << 62) + 1, Long.MAX_VALUE}) {
      for (int i = 0; i < 2000; i++) {
        long v = Bernoulli.uniform(r, bound);
        assertTrue(v >= 0 && v < bound, "uniform out of range for bound " + bound);
      }
    }
    int[] counts = new int[3];
    int n = 300_000;
    for (int i = 0; i < n; i++) {
      counts[(int) Bernoulli.uniform(r, 3)]++;
    }
    for (int c : counts) { // sd = sqrt(n * 1/3 * 2/3) ~ 258
      assertEquals(n / 3.0, c, 6 * 258);
    }
  }

  @Test
  void sample_edgeProbabilities_areDeterministic() {
    RandomSource r = seeded(3);
    for (int i = 0; i < 1000; i++) {
      assertTrue(Bernoulli.sample(r, 5, 5));
      assertTrue(!Bernoulli.sample(r, 0, 5));
      assertTrue(Bernoulli.sampleExpMinus(r, 0, 7));
      assertTrue(Bernoulli.sampleExpMinus(r, BigInteger.ZERO, BigInteger.TEN.pow(30)));
    }
  }

  @Test
  void sampleExpMinus_variousGamma_matchesExp() {
    RandomSource r = seeded(4);
    long[][] cases = {{1, 3}, {1, 1}, {5, 2}, {7, 1}, {Long.MAX_VALUE / 3, Long.MAX_VALUE / 2}};
    int n = 200_000;
    for (long[] c : cases) {
      double p = Math.exp(-(double) c[0] / c[1]);
      int hits = 0;
      for (int i = 0; i < n; i++) {
        if (Bernoulli.sampleExpMinus(r, c[0], c[1])) {
          hits++;
        }
      }
      double se = Math.sqrt(n * p * (1 - p)) + 1;
      assertEquals(n * p, hits, 6 * se, "gamma = " + c[0] + "/" + c[1]);
    }
  }

  @Test
  void sampleExpMinus_bigInteger_matchesLongVersion() {
    RandomSource r = seeded(5);
    BigInteger den = BigInteger.TEN.pow(25);
    BigInteger num = den.multiply(BigInteger.valueOf(3)).divide(BigInteger.TWO); // gamma = 1.5
    double p = Math.exp(-1.5);
    int n = 100_000;
    int hits = 0;
    for (int i = 0; i < n; i++) {
      if (Bernoulli.sampleExpMinus(r, num, den)) {
        hits++;
      }
    }
    assertEquals(n * p, hits, 6 * Math.sqrt(n * p * (1 - p)));
  }

  @Test
  void discreteLaplace_scaleTwo_hasExactVarianceAndSymmetry() {
    RandomSource r = seeded(6);
    double q = Math.exp(-0.5);
    double variance = 2 * q / ((1 - q) * (1 - q)); // Var of discrete Laplace with ratio q
    int n = 200_000;
    double sum = 0;
    double sumSq = 0;
    for (int i = 0; i < n; i++) {
      long x = DiscreteLaplace.sample(r, 2, 1);
      sum += x;
      sumSq += (double) x * x;
    }
    double sdMean = Math.sqrt(variance / n);
    assertEquals(0, sum / n, 6 * sdMean);
    // Var of x^2 for this law is < 60 * variance^2 here, so 6 * sqrt(60/n) * variance bounds it.
    assertEquals(variance, sumSq / n, 6 * Math.sqrt(60.0 / n) * variance);
  }

  @Test
  void discreteGaussian_sigmaSquaredNine_hasVarianceNearNine() {
    RandomSource r = seeded(7);
    int n = 200_000;
    double sumSq = 0;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      long x = DiscreteGaussian.sample(r, 9, 1);
      sum += x;
      sumSq += (double) x * x;
    }
    // For sigma >= 1 the discrete Gaussian's variance is sigma^2 up to ~1e-16 (CKS20, Prop. 19).
    assertEquals(0, sum / n, 6 * Math.sqrt(9.0 / n));
    assertEquals(9.0, sumSq / n, 6 * Math.sqrt(2 * 81.0 / n));
  }

  @Test
  void discreteGaussian_hugeSigma_usesBigIntegerPathAndStaysFinite() {
    RandomSource r = seeded(8);
    long sigmaSq = 1L << 60;
    double sumSq = 0;
    int n = 2000;
    for (int i = 0; i < n; i++) {
      double x = DiscreteGaussian.sample(r, sigmaSq, 1);
      sumSq += x * x;
    }
    double ratio = sumSq / n / sigmaSq; // chi-square(n)/n: sd sqrt(2/n) ~ 0.032
    assertEquals(1.0, ratio, 0.2);
  }

  @Test
  void geometric_ratioHalf_hasMeanOne() {
    RandomSource r = seeded(9);
    // ratio exp(-ln 2) is irrational-free only approximately; use gamma = 1: mean = q/(1-q).
    double q = Math.exp(-1);
    int n = 200_000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      sum += Geometric.sample(r, 1, 1);
    }
    double mean = q / (1 - q);
    double sd = Math.sqrt(q) / (1 - q);
    assertEquals(mean, sum / n, 6 * sd / Math.sqrt(n));
  }

  @Test
  void floorSqrt_boundaries_exact() {
    assertEquals(0, DiscreteGaussian.floorSqrt(0));
    assertEquals(1, DiscreteGaussian.floorSqrt(3));
    assertEquals(2, DiscreteGaussian.floorSqrt(4));
    assertEquals(3037000499L, DiscreteGaussian.floorSqrt(Long.MAX_VALUE));
    long s = 1L << 31;
    assertEquals(s - 1, DiscreteGaussian.floorSqrt(s * s - 1));
    assertEquals(s, DiscreteGaussian.floorSqrt(s * s));
  }

  @Test
  void expMinusOneBits_words_matchDecimalExpansion() {
    // Reference: Python decimal, int(exp(-1) * 2**256) split into 64-bit words.
    long[] expected = {0x5e2d58d8b3bcdf1aL, 0xbadec7829054f90dL, 0xda9805aab56c7733L, 0x3024b9d0a507daedL};
    long[] words = ExpMinusOneBits.words(4);
    for (int i = 0; i < 4; i++) {
      assertEquals(expected[i], words[i], "word " + i);
    }
    long[] longer = ExpMinusOneBits.words(6);
    for (int i = 0; i < 4; i++) {
      assertEquals(expected[i], longer[i], "prefix word " + i);
    }
  }

  @Test
  void expMinusOne_fastAndReferenceAlgorithms_agreeInFrequency() {
    RandomSource r = seeded(10);
    int n = 300_000;
    int fast = 0;
    int reference = 0;
    for (int i = 0; i < n; i++) {
      fast += Bernoulli.expMinusOne(r) ? 1 : 0;
      reference += Bernoulli.expMinusOneByAlgorithm1(r) ? 1 : 0;
    }
    double p = Math.exp(-1);
    double sd = Math.sqrt(n * p * (1 - p));
    assertEquals(n * p, fast, 6 * sd);
    assertEquals(n * p, reference, 6 * sd);
  }
}
