package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.privet.accounting.PureDp;

class ExponentialMechanismTest {

  private static ExponentialMechanism mechanism(double epsilon, boolean monotone, long seed) {
    return ExponentialMechanism.builder()
        .epsilon(epsilon)
        .sensitivity(1)
        .monotone(monotone)
        .randomSource(Seeded.source(seed))
        .build();
  }

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0, -1})
  void epsilon_invalid_throwsNamingEpsilon(double epsilon) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> ExponentialMechanism.builder().epsilon(epsilon));
    assertTrue(e.getMessage().startsWith("epsilon"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.POSITIVE_INFINITY, 0, -2})
  void sensitivity_invalid_throwsNamingSensitivity(double sensitivity) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ExponentialMechanism.builder().sensitivity(sensitivity));
    assertTrue(e.getMessage().startsWith("sensitivity"), e.getMessage());
  }

  @Test
  void build_missingEpsilon_throwsNamingEpsilon() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ExponentialMechanism.builder().sensitivity(1).build());
    assertEquals("epsilon is required", e.getMessage());
  }

  @Test
  void select_emptyUtilities_throwsNamingUtilities() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> mechanism(1, false, 1).select(new double[0]));
    assertEquals("utilities must not be empty", e.getMessage());
  }

  @Test
  void select_nanUtility_throwsWithoutTheValue() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> mechanism(1, false, 1).select(new double[] {1, Double.NaN}));
    assertEquals("utilities must be finite numbers", e.getMessage());
  }

  @Test
  void select_singleCandidate_returnsZero() {
    assertEquals(0, mechanism(1, false, 2).select(new double[] {-5}));
  }

  @Test
  void select_hugeUtilityRange_picksTheOnlyReasonableCandidate() {
    double[] u = {-1e300, 0, 1e300, 5e299, -3};
    ExponentialMechanism em = mechanism(1, false, 3);
    for (int i = 0; i < 200; i++) {
      assertEquals(2, em.select(u));
    }
  }

  @Test
  void select_tenThousandCandidatesOneGood_returnsGoodCandidateMostly() {
    double[] u = new double[10_000];
    u[7777] = 100; // exp(-50) relative weight for each other candidate
    ExponentialMechanism em = mechanism(1, false, 4);
    for (int i = 0; i < 20; i++) {
      assertEquals(7777, em.select(u));
    }
  }

  @Test
  void select_equalUtilities_coversAllCandidates() {
    ExponentialMechanism em = mechanism(1, false, 5);
    int[] seen = new int[4];
    for (int i = 0; i < 4000; i++) {
      seen[em.select(new double[] {2, 2, 2, 2})]++;
    }
    for (int s : seen) {
      // Binomial(4000, 1/4): mean 1000, sd 27; 800 is 7 sd away (P < 1e-11).
      assertTrue(s > 800, "counts " + java.util.Arrays.toString(seen));
    }
  }

  @Test
  void privacyLoss_isRequestedEpsilon() {
    assertEquals(new PureDp(0.7), mechanism(0.7, false, 1).privacyLoss());
  }

  @Test
  void utilityErrorBound_standard_atLeastTextbookBound() {
    double bound = mechanism(1, false, 1).utilityErrorBound(100, 0.05);
    double textbook = 2 * Math.log(100 / 0.05);
    assertTrue(bound >= textbook && bound < textbook * 1.01 + 0.01, "bound " + bound);
  }

  @Test
  void utilityErrorBound_monotone_halfTheStandard() {
    double monotone = mechanism(1, true, 1).utilityErrorBound(100, 0.05);
    assertTrue(monotone >= Math.log(100 / 0.05) && monotone < Math.log(100 / 0.05) * 1.01 + 0.01);
  }

  @Test
  void utilityErrorBound_badBeta_throwsNamingBeta() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> mechanism(1, false, 1).utilityErrorBound(3, 1.0));
    assertTrue(e.getMessage().startsWith("beta"));
  }

  @Test
  void utilityErrorBound_empiricallyHolds() {
    // 21 candidates with utilities 0..20, eps = 0.5: bound at beta = 0.1 must be exceeded rarely.
    double[] u = new double[21];
    for (int i = 0; i < u.length; i++) {
      u[i] = i;
    }
    ExponentialMechanism em = mechanism(0.5, false, 6);
    double bound = em.utilityErrorBound(u.length, 0.1);
    int failures = 0;
    for (int i = 0; i < 2000; i++) {
      if (20 - u[em.select(u)] > bound) {
        failures++;
      }
    }
    // Failure probability per draw ≤ 0.1; Binomial(2000, 0.1) exceeds 300 with P < 1e-10.
    assertTrue(failures < 300, "failures " + failures);
  }
}
