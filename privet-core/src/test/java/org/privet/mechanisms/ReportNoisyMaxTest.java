package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.privet.accounting.PureDp;

class ReportNoisyMaxTest {

  private static ReportNoisyMax mechanism(ReportNoisyMax.Noise noise, double eps, long seed) {
    return ReportNoisyMax.builder()
        .epsilon(eps)
        .sensitivity(1)
        .monotone(true)
        .noise(noise)
        .randomSource(Seeded.source(seed))
        .build();
  }

  @ParameterizedTest
  @EnumSource(ReportNoisyMax.Noise.class)
  void select_clearWinner_returnsIt(ReportNoisyMax.Noise noise) {
    ReportNoisyMax rnm = mechanism(noise, 1, 1);
    for (int i = 0; i < 100; i++) {
      assertEquals(0, rnm.select(new double[] {1000, 12, 29}));
    }
  }

  @ParameterizedTest
  @EnumSource(ReportNoisyMax.Noise.class)
  void select_emptyCounts_throwsNamingUtilities(ReportNoisyMax.Noise noise) {
    assertThrows(IllegalArgumentException.class, () -> mechanism(noise, 1, 1).select(new double[0]));
  }

  @Test
  void select_tinyEpsilon_noiseDominatesAndAllAreChosen() {
    // Scale 2^50 grid units against utility gaps of at most 2^11 grid units.
    ReportNoisyMax rnm = mechanism(ReportNoisyMax.Noise.LAPLACE, 0x1p-40, 2);
    int[] seen = new int[3];
    for (int i = 0; i < 3000; i++) {
      seen[rnm.select(new double[] {2, 0, 1})]++;
    }
    for (int s : seen) {
      // Each has probability ≈ 1/3; a count below 800 has probability < 1e-20.
      assertTrue(s > 800, java.util.Arrays.toString(seen));
    }
  }

  @Test
  void select_hugeUtilityRange_picksBest() {
    ReportNoisyMax rnm = mechanism(ReportNoisyMax.Noise.LAPLACE, 1, 3);
    for (int i = 0; i < 100; i++) {
      assertEquals(0, rnm.select(new double[] {1e300, -1e300, 0}));
    }
  }

  @Test
  void noise_defaultsToLaplace() {
    ReportNoisyMax rnm = ReportNoisyMax.builder().epsilon(1).sensitivity(1).build();
    assertEquals(ReportNoisyMax.Noise.LAPLACE, rnm.noise());
    assertEquals(new PureDp(1), rnm.privacyLoss());
  }

  @Test
  void utilityErrorBound_laplace_coversTwoNoiseTails() {
    double b = mechanism(ReportNoisyMax.Noise.LAPLACE, 1, 1).utilityErrorBound(3, 0.05);
    assertTrue(b >= 2 * Math.log(2 * 3 / 0.05), "bound " + b);
    double g = mechanism(ReportNoisyMax.Noise.GUMBEL, 1, 1).utilityErrorBound(3, 0.05);
    assertTrue(g >= Math.log(3 / 0.05) && g < b);
  }
}
