package org.privet.stattests.choice;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;
import org.privet.mechanisms.ExponentialMechanism;
import org.privet.mechanisms.PermuteAndFlip;
import org.privet.mechanisms.RandomizedResponse;
import org.privet.mechanisms.ReportNoisyMax;
import org.privet.mechanisms.SparseVector;
import org.privet.testing.ChiSquareTest;
import org.privet.testing.SeededRandomSource;

/**
 * Distribution tests of the choice mechanisms against their exact laws (chi-square goodness of
 * fit, {@value #N} draws, fixed seeds). A correct mechanism fails a check with probability
 * {@value #ALPHA} (p-value below α); each test also shows power: the same mechanism run with ε 30%
 * too large (noise 30% too small) must be rejected at the same α.
 */
class ChoiceDistributionStatTest {
  static final int N = 200_000;
  static final double ALPHA = 1e-4;

  private static double pValue(IntSupplier sampler, double[] law) {
    long[] counts = new long[law.length];
    for (int i = 0; i < N; i++) {
      counts[sampler.getAsInt()]++;
    }
    return ChiSquareTest.goodnessOfFit(counts, law).pValue();
  }

  private static void assertFitsAndPowerful(IntSupplier good, IntSupplier bad, double[] law) {
    double p = pValue(good, law);
    assertTrue(p > ALPHA, "correct mechanism rejected, p = " + p);
    double pBad = pValue(bad, law);
    assertTrue(pBad < ALPHA, "epsilon 30% too large not detected, p = " + pBad);
  }

  private static final double[] UTILITIES = {0, 1, 2, 3.5, 5, 4.25};

  private static ExponentialMechanism em(double eps, boolean monotone, long seed) {
    return ExponentialMechanism.builder().epsilon(eps).sensitivity(1).monotone(monotone)
        .randomSource(new SeededRandomSource(seed)).build();
  }

  @Test
  void exponentialMechanism_standard_matchesExactLaw() {
    ExponentialMechanism good = em(1, false, 401);
    ExponentialMechanism bad = em(1.3, false, 402);
    assertFitsAndPowerful(() -> good.select(UTILITIES), () -> bad.select(UTILITIES),
        ChoiceLaws.exponential(UTILITIES, 0.5));
  }

  @Test
  void exponentialMechanism_monotone_matchesExactLaw() {
    ExponentialMechanism good = em(0.5, true, 403);
    ExponentialMechanism bad = em(0.65, true, 404);
    assertFitsAndPowerful(() -> good.select(UTILITIES), () -> bad.select(UTILITIES),
        ChoiceLaws.exponential(UTILITIES, 0.5));
  }

  @Test
  void exponentialMechanism_largeSensitivityAndOffset_matchesExactLaw() {
    // Δ = 1000 and utilities around 1e9: the grid spacing is 2^-1 ... exactness must hold.
    double[] u = {1e9, 1e9 + 1500, 1e9 - 700, 1e9 + 3000};
    ExponentialMechanism good = ExponentialMechanism.builder().epsilon(2).sensitivity(1000)
        .randomSource(new SeededRandomSource(405)).build();
    ExponentialMechanism bad = ExponentialMechanism.builder().epsilon(2.6).sensitivity(1000)
        .randomSource(new SeededRandomSource(406)).build();
    double[] law = ChoiceLaws.exponential(new double[] {0, 1500, -700, 3000}, 2 / 2000.0);
    assertFitsAndPowerful(() -> good.select(u), () -> bad.select(u), law);
  }

  @Test
  void permuteAndFlip_matchesExactLaw() {
    PermuteAndFlip good = PermuteAndFlip.builder().epsilon(1).sensitivity(1)
        .randomSource(new SeededRandomSource(407)).build();
    PermuteAndFlip bad = PermuteAndFlip.builder().epsilon(1.3).sensitivity(1)
        .randomSource(new SeededRandomSource(408)).build();
    assertFitsAndPowerful(() -> good.select(UTILITIES), () -> bad.select(UTILITIES),
        ChoiceLaws.permuteAndFlip(UTILITIES, 0.5));
  }

  @Test
  void reportNoisyMax_gumbel_matchesExponentialLaw() {
    ReportNoisyMax good = ReportNoisyMax.builder().epsilon(1).sensitivity(1)
        .noise(ReportNoisyMax.Noise.GUMBEL).randomSource(new SeededRandomSource(409)).build();
    ReportNoisyMax bad = ReportNoisyMax.builder().epsilon(1.3).sensitivity(1)
        .noise(ReportNoisyMax.Noise.GUMBEL).randomSource(new SeededRandomSource(410)).build();
    assertFitsAndPowerful(() -> good.select(UTILITIES), () -> bad.select(UTILITIES),
        ChoiceLaws.exponential(UTILITIES, 0.5));
  }

  @Test
  void reportNoisyMax_laplace_matchesExactLaw() {
    double[] u = {2, 0, 1.5, 1.5};
    long[] grid = {2048, 0, 1536, 1536}; // u / 2^-10
    ReportNoisyMax good = ReportNoisyMax.builder().epsilon(1).sensitivity(1)
        .randomSource(new SeededRandomSource(411)).build();
    ReportNoisyMax bad = ReportNoisyMax.builder().epsilon(1.3).sensitivity(1)
        .randomSource(new SeededRandomSource(412)).build();
    // Scale 2Δ/ε = 2 utility units = 2048 grid units.
    assertFitsAndPowerful(() -> good.select(u), () -> bad.select(u),
        ChoiceLaws.noisyMaxLaplace(grid, 2048));
  }

  @Test
  void reportNoisyMax_laplaceMonotone_matchesExactLaw() {
    double[] counts = {30, 28, 29};
    long[] grid = {30 * 1024, 28 * 1024, 29 * 1024};
    ReportNoisyMax good = ReportNoisyMax.builder().epsilon(1).sensitivity(1).monotone(true)
        .randomSource(new SeededRandomSource(413)).build();
    ReportNoisyMax bad = ReportNoisyMax.builder().epsilon(1.3).sensitivity(1).monotone(true)
        .randomSource(new SeededRandomSource(414)).build();
    assertFitsAndPowerful(() -> good.select(counts), () -> bad.select(counts),
        ChoiceLaws.noisyMaxLaplace(grid, 1024));
  }

  @Test
  void randomizedResponse_binary_matchesExactLaw() {
    RandomizedResponse good = RandomizedResponse.builder().epsilon(1)
        .randomSource(new SeededRandomSource(415)).build();
    RandomizedResponse bad = RandomizedResponse.builder().epsilon(1.3)
        .randomSource(new SeededRandomSource(416)).build();
    double p = Math.E / (1 + Math.E);
    assertFitsAndPowerful(() -> good.respond(true) ? 1 : 0, () -> bad.respond(true) ? 1 : 0,
        new double[] {1 - p, p});
  }

  @Test
  void randomizedResponse_kary_matchesExactLaw() {
    RandomizedResponse good = RandomizedResponse.builder().epsilon(0.75).categories(4)
        .randomSource(new SeededRandomSource(417)).build();
    RandomizedResponse bad = RandomizedResponse.builder().epsilon(0.975).categories(4)
        .randomSource(new SeededRandomSource(418)).build();
    double e = Math.exp(0.75);
    double[] law = {1 / (e + 3), e / (e + 3), 1 / (e + 3), 1 / (e + 3)};
    assertFitsAndPowerful(() -> good.respond(1), () -> bad.respond(1), law);
  }

  @Test
  void randomizedResponse_twoCoin_matchesThreeQuarters() {
    RandomizedResponse good = RandomizedResponse.builder().twoCoin()
        .randomSource(new SeededRandomSource(419)).build();
    // ln 3 · 1.3 as binary randomized response: the "30% less private" version.
    RandomizedResponse bad = RandomizedResponse.builder().epsilon(Math.log(3) * 1.3)
        .randomSource(new SeededRandomSource(420)).build();
    assertFitsAndPowerful(() -> good.respond(false) ? 1 : 0, () -> bad.respond(false) ? 1 : 0,
        new double[] {0.75, 0.25});
  }

  @Test
  void sparseVector_aboveThreshold_matchesExactLaw() {
    double[] answers = {0, 0.5, 1, 1.5, 2};
    long[] grid = {0, 512, 1024, 1536, 2048};
    double eps1 = 1 / (1 + Math.pow(2, 2.0 / 3));
    double eps2 = 1 - eps1;
    // Dyadic rounding changes these scales by a relative 2^-19 at most: invisible at this N.
    double[] law = ChoiceLaws.aboveThreshold(grid, 1024, 1024 / eps1, 2 * 1024 / eps2);
    SeededRandomSource goodRandom = new SeededRandomSource(421);
    SeededRandomSource badRandom = new SeededRandomSource(422);
    assertFitsAndPowerful(() -> firstAbove(1, goodRandom, answers),
        () -> firstAbove(1.3, badRandom, answers), law);
  }

  private static int firstAbove(double eps, SeededRandomSource random, double[] answers) {
    SparseVector sv = SparseVector.builder().epsilon(eps).sensitivity(1).threshold(1)
        .randomSource(random).build();
    for (int i = 0; i < answers.length; i++) {
      if (sv.test(answers[i])) {
        return i;
      }
    }
    return answers.length;
  }
}
