package org.privet.mechanisms.truncation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.privet.random.RandomSource;

/** Hand-computed truncated sums, R2T's thresholds and bias, and the builders' validation. */
class TruncationMechanismsTest {

  private static RandomSource seeded(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return r::nextLong;
  }

  @Test
  void evaluate_handComputedContributions_matchesSumOfMinima() {
    UnitContributions c = UnitContributions.of(new long[] {10, 0, 3, 1, 5});
    // Σ min(c, τ) by hand: τ=1: 0+1+1+1+1; τ=2: 0+1+2+2+2; τ=4: 0+1+3+4+4; τ=10 and beyond: 19.
    assertEquals(0, c.evaluate(0));
    assertEquals(4, c.evaluate(1));
    assertEquals(7, c.evaluate(2));
    assertEquals(12, c.evaluate(4));
    assertEquals(17, c.evaluate(8));
    assertEquals(19, c.evaluate(10));
    assertEquals(19, c.evaluate(1L << 40));
    assertEquals(19, c.total());
    assertEquals(10, c.maxContribution());
    assertEquals(5, c.units());
  }

  @Test
  void evaluate_hugeContributions_saturatesAtCap() {
    UnitContributions c = UnitContributions.of(new long[] {Long.MAX_VALUE, Long.MAX_VALUE, 7});
    assertEquals(UnitContributions.SUM_CAP, c.total());
    assertEquals(2 * (1L << 40) + 7, c.evaluate(1L << 40));
    assertEquals(UnitContributions.SUM_CAP, c.evaluate(Long.MAX_VALUE));
  }

  @Test
  void of_negativeOrNull_refusedNamingParameter() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> UnitContributions.of(new long[] {1, -4}));
    assertEquals("contributions must be non-negative", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> UnitContributions.of(null));
    assertThrows(
        IllegalArgumentException.class, () -> UnitContributions.of(new long[] {1}).evaluate(-1));
  }

  @Test
  void r2t_thresholdsAndBias_followThePaperFormula() {
    // ε = 1, GS = 16: L = 4 thresholds 2, 4, 8, 16; scale L·τ/ε = 4τ; bias ⌈4τ·ln(4/0.1)⌉.
    R2TMechanism m = R2TMechanism.builder().epsilon(1).globalSensitivity(16).beta(0.1).build();
    assertEquals(4, m.levels());
    assertEquals(8.0, m.noiseScale(1), 1e-12);
    assertEquals(64.0, m.noiseScale(4), 1e-12);
    assertEquals(30, m.bias(1)); // 8·3.68888 = 29.51
    assertEquals(237, m.bias(4)); // 64·3.68888 = 236.09
    // GS that is not a power of two rounds up: 17 → L = 5.
    assertEquals(5, R2TMechanism.builder().epsilon(1).globalSensitivity(17).build().levels());
    // Step 3 (base 8): GS = 10^6 < 2^20 → ⌈20/3⌉ = 7 thresholds 8, 64, …, 8^7 = 2^21.
    R2TMechanism base8 =
        R2TMechanism.builder().epsilon(1).globalSensitivity(1_000_000).thresholdStep(3).build();
    assertEquals(7, base8.levels());
    assertEquals(8, base8.threshold(1));
    assertEquals(1L << 21, base8.threshold(7));
    // Theorem 5.1's bound 4·L·ln(L/β)·DS/ε at DS = 10.
    assertEquals(4 * 4 * Math.log(40) * 10, m.errorBound(10), 1e-9);
  }

  @Test
  void r2t_gridExponent_scalesThresholdsNoiseAndBiasByTwoToTheK() {
    // k = 3 (values in eighths): GS = 16 value units → L = 4, τ_j = 2^(j+3) grid units; each
    // scale and bias is the k = 0 one times 8 (bias ⌈8·4τ·ln 40⌉ by hand: 236.09 and 1888.7).
    R2TMechanism m = R2TMechanism.builder().epsilon(1).globalSensitivity(16).beta(0.1)
        .gridExponent(3).build();
    assertEquals(4, m.levels());
    assertEquals(16, m.threshold(1));
    assertEquals(128, m.threshold(4));
    assertEquals(64.0, m.noiseScale(1), 1e-12);
    assertEquals(237, m.bias(1));
    assertEquals(1889, m.bias(4));
    // Contributions in eighths: {10, 0, 3, 1, 5} value units; at ε = 10^6 the release is
    // max_j Q(I, 2^j value units) − 1 grid step = 19·8 − 1.
    R2TMechanism sharp = R2TMechanism.builder().epsilon(1e6).globalSensitivity(16).beta(0.01)
        .gridExponent(3).randomSource(seeded(3)).build();
    TruncationResult r = sharp.release(UnitContributions.of(new long[] {80, 0, 24, 8, 40}));
    assertEquals(19 * 8 - 1, r.value());
    assertEquals(16 * 8, r.tau());
    assertThrows(IllegalArgumentException.class,
        () -> R2TMechanism.builder().gridExponent(41));
    assertThrows(IllegalArgumentException.class,
        () -> R2TMechanism.builder().epsilon(1).globalSensitivity(1L << 40).gridExponent(23)
            .build());
  }

  @Test
  void r2t_negligibleNoise_releasesTotalMinusBiasAtFirstSufficientThreshold() {
    // ε = 10^6: scales ≤ 10·1024/10^6 ≈ 0.01, so every noise is 0 except with probability
    // < 2e^−100; each bias is ⌈t·ln(100)⌉ = 1. Release = max_j Q(I, 2^j) − 1 = 19 − 1 at τ = 16.
    UnitContributions c = UnitContributions.of(new long[] {10, 0, 3, 1, 5});
    R2TMechanism m =
        R2TMechanism.builder().epsilon(1e6).globalSensitivity(1024).randomSource(seeded(1)).build();
    TruncationResult r = m.release(c);
    assertEquals(18, r.value());
    assertEquals(16, r.tau());
    assertEquals(1e6, r.privacyLoss().epsilon());
    assertEquals(TruncationResult.Target.QUERY, r.intervalTarget());
    assertEquals(18, r.interval().lower());
    assertEquals(Double.POSITIVE_INFINITY, r.interval().upper());
  }

  @Test
  void r2t_emptyInstance_neverReleasesBelowZero() {
    R2TMechanism m =
        R2TMechanism.builder()
            .epsilon(0.5)
            .globalSensitivity(1 << 20)
            .randomSource(seeded(2))
            .build();
    for (int i = 0; i < 200; i++) {
      TruncationResult r = m.release(UnitContributions.of(new long[0]));
      assertTrue(r.value() >= 0);
    }
  }

  @Test
  void quantile_negligibleNoise_choosesRoundedUpQuantileAndSumsAtIt() {
    // c_u = 1..100, m = 68: #{c > 16} = 84 > 68, #{c > 32} = 68 ≤ 68, so the scan stops at
    // τ = 32; Σ min(c, 32) = (1+…+32) + 68·32 = 528 + 2176 = 2704.
    UnitContributions c = UnitContributions.of(LongStream.rangeClosed(1, 100).toArray());
    QuantileThresholdMechanism m =
        QuantileThresholdMechanism.builder()
            .epsilon(1e6)
            .globalSensitivity(1 << 20)
            .unitsAbove(68)
            .randomSource(seeded(3))
            .build();
    TruncationResult r = m.release(c);
    assertEquals(32, r.tau());
    assertEquals(2704, r.value());
    assertEquals(TruncationResult.Target.TRUNCATED_QUERY, r.intervalTarget());
    assertTrue(r.interval().lower() <= 2704 && 2704 <= r.interval().upper());
  }

  @Test
  void budget_splits_neverExceedTheTotal() {
    for (double eps : new double[] {0.1, 0.3, 0.8, 1.0 / 3, 7.77}) {
      for (int parts = 1; parts <= 62; parts++) {
        double e = TruncationChecks.divideDownward(eps, parts);
        assertTrue(
            new BigDecimal(e).multiply(BigDecimal.valueOf(parts)).compareTo(new BigDecimal(eps))
                <= 0);
      }
      double q = TruncationChecks.shareDownward(eps, 0.1);
      double s = TruncationChecks.remainderDownward(eps, q);
      assertTrue(new BigDecimal(q).add(new BigDecimal(s)).compareTo(new BigDecimal(eps)) <= 0);
    }
    QuantileThresholdMechanism m =
        QuantileThresholdMechanism.builder()
            .epsilon(1)
            .globalSensitivity(8)
            .thresholdShare(0.25)
            .build();
    assertEquals(0.75, m.sumEpsilon(), 1e-15);
    assertEquals(27, m.unitsAbove()); // ⌈6.6/0.25⌉
  }

  @Test
  void builders_badParameters_refusedNamingTheParameter() {
    assertMessage("epsilon", () -> R2TMechanism.builder().epsilon(Double.NaN));
    assertMessage("epsilon", () -> R2TMechanism.builder().epsilon(0));
    assertMessage("epsilon", () -> R2TMechanism.builder().globalSensitivity(4).build());
    assertMessage("globalSensitivity", () -> R2TMechanism.builder().globalSensitivity(1));
    assertMessage("globalSensitivity", () -> R2TMechanism.builder().epsilon(1).build());
    assertMessage(
        "globalSensitivity", () -> R2TMechanism.builder().globalSensitivity(Long.MAX_VALUE));
    assertMessage("beta", () -> R2TMechanism.builder().beta(1));
    assertMessage("thresholdStep", () -> R2TMechanism.builder().thresholdStep(0));
    assertMessage("randomSource", () -> R2TMechanism.builder().randomSource(null));
    assertMessage(
        "query",
        () -> R2TMechanism.builder().epsilon(1).globalSensitivity(4).build().release(null));
    assertMessage("unitsAbove", () -> QuantileThresholdMechanism.builder().unitsAbove(-1));
    assertMessage("thresholdShare", () -> QuantileThresholdMechanism.builder().thresholdShare(1));
    assertMessage(
        "globalSensitivity", () -> QuantileThresholdMechanism.builder().globalSensitivity(0));
    assertMessage(
        "contributions",
        () ->
            QuantileThresholdMechanism.builder()
                .epsilon(1)
                .globalSensitivity(4)
                .build()
                .release(null));
  }

  private static void assertMessage(String parameter, Runnable call) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call::run);
    assertTrue(e.getMessage().startsWith(parameter), e.getMessage());
  }

  @Test
  void r2t_largeStepNearTheCap_everyThresholdIsPositiveAndTheLastCoversGs() {
    // Public parameters within the documented ranges (GS ≤ 2^62, step ≤ 8): s·L may exceed 62,
    // and 1L << 63 or 1L << 64 wrapped to a negative threshold or back to 1.
    for (int step = 1; step <= 8; step++) {
      for (long gs : new long[] {(1L << 57) + 1, (1L << 60) + 1, 1L << 62}) {
        R2TMechanism m =
            R2TMechanism.builder()
                .epsilon(1 << 20) // a large ε keeps the noise scales of τ ≈ 2^62 representable
                .globalSensitivity(gs)
                .thresholdStep(step)
                .randomSource(seeded(5))
                .build();
        for (int j = 1; j <= m.levels(); j++) {
          assertTrue(m.threshold(j) > 0, "step " + step + ", j " + j);
          assertTrue(j == 1 || m.threshold(j) >= m.threshold(j - 1), "step " + step + ", j " + j);
        }
        assertTrue(m.threshold(m.levels()) >= gs, "step " + step + ", gs " + gs);
        UnitContributions c = UnitContributions.of(new long[] {gs, gs});
        assertTrue(m.release(c).tau() >= 0);
      }
    }
  }
}
