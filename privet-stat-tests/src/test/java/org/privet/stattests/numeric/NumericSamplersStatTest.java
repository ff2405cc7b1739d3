package org.privet.stattests.numeric;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.LongToDoubleFunction;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.privet.noise.Bernoulli;
import org.privet.noise.DiscreteGaussian;
import org.privet.noise.DiscreteLaplace;
import org.privet.noise.Geometric;
import org.privet.random.RandomSource;
import org.privet.testing.ChiSquareTest;
import org.privet.testing.KolmogorovSmirnovTest;
import org.privet.testing.SeededRandomSource;

/**
 * Distribution tests of the exact samplers against their exact laws (chi-square goodness of fit).
 * Every test uses a fixed seed and rejects at p &lt; {@value #ALPHA}: over random seeds a correct
 * sampler fails each test with probability {@value #ALPHA}. Each test also shows power: the same
 * test, on a sampler whose scale is 30% too small, must reject.
 */
class NumericSamplersStatTest {
  static final double ALPHA = 1e-4;
  static final int N = 100_000;

  static long[] draw(LongSupplier s) {
    long[] out = new long[N];
    for (int i = 0; i < N; i++) {
      out[i] = s.getAsLong();
    }
    return out;
  }

  private static void assertFitsAndPower(long[] good, long[] small, LongToDoubleFunction law, long lo, long hi) {
    double p = Laws.chiSquarePValue(good, law, lo, hi);
    assertTrue(p >= ALPHA, "correct sampler rejected, p = " + p);
    double pSmall = Laws.chiSquarePValue(small, law, lo, hi);
    assertTrue(pSmall < ALPHA, "sampler with 30% smaller scale not rejected, p = " + pSmall);
  }

  @Test
  void discreteLaplace_scaleThreeHalves_matchesExactLaw() {
    RandomSource r = new SeededRandomSource(101);
    long[] good = draw(() -> DiscreteLaplace.sample(r, 3, 2));
    long[] small = draw(() -> DiscreteLaplace.sample(r, 21, 20)); // scale 1.05 = 0.7 * 1.5
    assertFitsAndPower(good, small, Laws.discreteLaplace(1.5), -20, 20);
  }

  @Test
  void discreteLaplace_largeScale_matchesExactLaw() {
    RandomSource r = new SeededRandomSource(102);
    long[] good = draw(() -> DiscreteLaplace.sample(r, 40, 1));
    long[] small = draw(() -> DiscreteLaplace.sample(r, 28, 1));
    assertFitsAndPower(good, small, Laws.discreteLaplace(40), -300, 300);
  }

  @Test
  void geometric_scaleTwo_matchesExactLaw() {
    RandomSource r = new SeededRandomSource(103);
    long[] good = draw(() -> Geometric.sample(r, 1, 2)); // ratio e^(-1/2), scale 2
    long[] small = draw(() -> Geometric.sample(r, 5, 7)); // scale 1.4
    assertFitsAndPower(good, small, Laws.geometric(0.5), 0, 30);
  }

  @Test
  void discreteGaussian_sigmaSquaredFourAndHalf_matchesExactLaw() {
    RandomSource r = new SeededRandomSource(104);
    long[] good = draw(() -> DiscreteGaussian.sample(r, 9, 2));
    long[] small = draw(() -> DiscreteGaussian.sample(r, 441, 200)); // σ·0.7
    assertFitsAndPower(good, small, Laws.discreteGaussian(4.5), -15, 15);
  }

  @Test
  void discreteGaussian_smallSigma_matchesExactLaw() {
    RandomSource r = new SeededRandomSource(105);
    long[] good = draw(() -> DiscreteGaussian.sample(r, 1, 4)); // σ = 0.5
    long[] small = draw(() -> DiscreteGaussian.sample(r, 49, 400)); // σ = 0.35
    assertFitsAndPower(good, small, Laws.discreteGaussian(0.25), -5, 5);
  }

  @Test
  void discreteGaussian_gridSizedSigma_matchesNormalByKolmogorovSmirnov() {
    // σ = 2^13.5 as used by the Gaussian mechanism's grid. KS against the continuous normal is
    // conservative here (the discrete and continuous laws differ by O(1/σ) in distribution).
    RandomSource r = new SeededRandomSource(106);
    long sigmaSq = 1L << 27;
    double sigma = Math.sqrt(sigmaSq);
    double[] good = new double[20_000];
    double[] small = new double[20_000];
    for (int i = 0; i < good.length; i++) {
      good[i] = DiscreteGaussian.sample(r, sigmaSq, 1);
      small[i] = DiscreteGaussian.sample(r, (long) (sigmaSq * 0.49), 1);
    }
    double p = KolmogorovSmirnovTest.oneSample(good, x -> Laws.normalCdf(x, sigma)).pValue();
    assertTrue(p >= ALPHA, "p = " + p);
    double pSmall = KolmogorovSmirnovTest.oneSample(small, x -> Laws.normalCdf(x, sigma)).pValue();
    assertTrue(pSmall < ALPHA, "p = " + pSmall);
  }

  @Test
  void bernoulliExpMinus_gammaAboveOne_matchesExp() {
    RandomSource r = new SeededRandomSource(107);
    long[] good = draw(() -> Bernoulli.sampleExpMinus(r, 5, 3) ? 1 : 0);
    long[] off = draw(() -> Bernoulli.sampleExpMinus(r, 50, 21) ? 1 : 0); // γ / 0.7
    double p1 = Math.exp(-5.0 / 3);
    double[] law = {1 - p1, p1};
    assertTrue(ChiSquareTest.goodnessOfFit(ChiSquareTest.histogram(good, 0, 1), withTails(law)).pValue() >= ALPHA);
    assertTrue(ChiSquareTest.goodnessOfFit(ChiSquareTest.histogram(off, 0, 1), withTails(law)).pValue() < ALPHA);
  }

  @Test
  void bernoulli_rational_matchesProbability() {
    RandomSource r = new SeededRandomSource(108);
    long[] good = draw(() -> Bernoulli.sample(r, 2, 7) ? 1 : 0);
    long[] off = draw(() -> Bernoulli.sample(r, 2, 10) ? 1 : 0); // p 30% too small
    double[] law = {5.0 / 7, 2.0 / 7};
    assertTrue(ChiSquareTest.goodnessOfFit(ChiSquareTest.histogram(good, 0, 1), withTails(law)).pValue() >= ALPHA);
    assertTrue(ChiSquareTest.goodnessOfFit(ChiSquareTest.histogram(off, 0, 1), withTails(law)).pValue() < ALPHA);
  }

  /** The histogram layout adds empty tail cells below 0 and above 1. */
  private static double[] withTails(double[] law) {
    return new double[] {0, law[0], law[1], 0};
  }
}
