package org.privet.mechanisms.truncation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.privet.random.RandomSource;

/**
 * {@link ThresholdAnswers}: R2T over exact values precomputed elsewhere (the engine's bounding
 * plan) releases exactly what R2T over the per-unit contributions releases, with the same noise;
 * the reference Q(I, τ) = Σ min(c_u, τ) is computed here by hand, not by {@link UnitContributions}.
 * Deterministic (fixed seeds): no false failures.
 */
class ThresholdAnswersTest {

  private static RandomSource seeded(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return r::nextLong;
  }

  @Test
  void release_sameAsOverUnitContributions_sameSeed() {
    long[] c = {1, 3, 7, 40, 2, 2, 9, 0, 15};
    R2TMechanism shape = R2TMechanism.builder().epsilon(1).globalSensitivity(64).build();
    long[] tau = new long[shape.levels()];
    long[] exact = new long[shape.levels()];
    for (int j = 1; j <= shape.levels(); j++) {
      tau[j - 1] = shape.threshold(j);
      for (long cu : c) {
        exact[j - 1] += Math.min(cu, tau[j - 1]);
      }
    }
    for (long seed = 1; seed <= 20; seed++) {
      TruncationResult a = R2TMechanism.builder().epsilon(1).globalSensitivity(64)
          .randomSource(seeded(seed)).build().release(ThresholdAnswers.of(tau, exact));
      TruncationResult b = R2TMechanism.builder().epsilon(1).globalSensitivity(64)
          .randomSource(seeded(seed)).build().release(UnitContributions.of(c));
      assertEquals(b, a);
    }
  }

  @Test
  void evaluate_onlyAtListedThresholdsAndZero() {
    ThresholdAnswers t = ThresholdAnswers.of(new long[] {2, 4}, new long[] {5, 9});
    assertEquals(0, t.evaluate(0));
    assertEquals(5, t.evaluate(2));
    assertEquals(9, t.evaluate(4));
    assertThrows(IllegalArgumentException.class, () -> t.evaluate(3));
    assertThrows(IllegalArgumentException.class, () -> t.evaluate(-1));
  }

  @Test
  void of_refusesMalformedInput_namingTheParameter() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ThresholdAnswers.of(
        new long[] {2, 2}, new long[] {1, 1})).getMessage().contains("thresholds"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ThresholdAnswers.of(
        new long[] {2}, new long[] {-1})).getMessage().contains("values"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> ThresholdAnswers.of(
        new long[] {2}, new long[] {1, 2})).getMessage().contains("same length"));
  }
}
