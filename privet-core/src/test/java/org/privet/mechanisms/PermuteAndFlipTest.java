package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.accounting.PureDp;

class PermuteAndFlipTest {

  private static PermuteAndFlip mechanism(double epsilon, long seed) {
    return PermuteAndFlip.builder()
        .epsilon(epsilon)
        .sensitivity(1)
        .randomSource(Seeded.source(seed))
        .build();
  }

  @Test
  void select_emptyUtilities_throwsNamingUtilities() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> mechanism(1, 1).select(new double[0]));
    assertEquals("utilities must not be empty", e.getMessage());
  }

  @Test
  void build_missingSensitivity_throwsNamingSensitivity() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> PermuteAndFlip.builder().epsilon(1).build());
    assertEquals("sensitivity is required", e.getMessage());
  }

  @Test
  void select_hugeUtilityRange_picksBest() {
    PermuteAndFlip pf = mechanism(1, 2);
    for (int i = 0; i < 100; i++) {
      assertEquals(1, pf.select(new double[] {-1e308, 1e308, 0}));
    }
  }

  @Test
  void select_tenThousandEqualCandidates_returnsInRange() {
    PermuteAndFlip pf = mechanism(1, 3);
    double[] u = new double[10_000];
    for (int i = 0; i < 10; i++) {
      int r = pf.select(u);
      assertTrue(r >= 0 && r < u.length);
    }
  }

  @Test
  void privacyLossAndBound_matchExponentialMechanism() {
    PermuteAndFlip pf = mechanism(2, 1);
    assertEquals(new PureDp(2), pf.privacyLoss());
    ExponentialMechanism em = ExponentialMechanism.builder().epsilon(2).sensitivity(1).build();
    assertEquals(em.utilityErrorBound(10, 0.01), pf.utilityErrorBound(10, 0.01));
  }
}
