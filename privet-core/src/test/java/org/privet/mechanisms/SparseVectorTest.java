package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.accounting.PureDp;

class SparseVectorTest {

  private static SparseVector sv(double epsilon, int c, long seed) {
    return SparseVector.builder()
        .epsilon(epsilon)
        .sensitivity(1)
        .threshold(100)
        .maxPositives(c)
        .randomSource(Seeded.source(seed))
        .build();
  }

  @Test
  void test_afterCPositives_haltsAndRefuses() {
    SparseVector sv = sv(10, 2, 1);
    // Noise scales are ~1 (threshold) and ~0.6 (queries): 0 vs 100 vs 1e6 are unambiguous.
    assertFalse(sv.test(0));
    assertTrue(sv.test(1e6));
    assertFalse(sv.halted());
    assertEquals(1, sv.positivesRemaining());
    assertFalse(sv.test(-50));
    assertTrue(sv.test(1e6));
    assertTrue(sv.halted());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> sv.test(1e6));
    assertTrue(e.getMessage().contains("halted"));
    assertEquals(4, sv.queriesAnswered());
  }

  @Test
  void test_manyBelowThreshold_neverHalts() {
    SparseVector sv = sv(5, 1, 2);
    for (int i = 0; i < 1000; i++) {
      assertFalse(sv.test(0)); // 100 below threshold; noise scale ~2: P(false positive) < 1e-15
    }
    assertFalse(sv.halted());
  }

  @Test
  void test_nanAnswer_throwsNamingAnswer() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> sv(1, 1, 1).test(Double.NaN));
    assertTrue(e.getMessage().startsWith("answer"));
  }

  @Test
  void build_missingThreshold_throwsNamingThreshold() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SparseVector.builder().epsilon(1).sensitivity(1).build());
    assertEquals("threshold is required", e.getMessage());
  }

  @Test
  void maxPositives_zero_throwsNamingMaxPositives() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SparseVector.builder().maxPositives(0));
    assertTrue(e.getMessage().startsWith("maxPositives"));
  }

  @Test
  void privacyLoss_isTotalEpsilon() {
    assertEquals(new PureDp(0.9), sv(0.9, 3, 1).privacyLoss());
  }

  @Test
  void test_hugeAnswers_doNotOverflow() {
    SparseVector sv = sv(1, 1, 3);
    assertFalse(sv.test(-Double.MAX_VALUE));
    assertTrue(sv.test(Double.MAX_VALUE));
  }
}
