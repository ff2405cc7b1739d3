package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privet.mechanisms.IntegerMechanismsTest.assertIae;
import static org.privet.mechanisms.IntegerMechanismsTest.seeded;

import org.junit.jupiter.api.Test;

/** Builders, calibration and grid of the real-valued Laplace and Gaussian mechanisms. */
class RealMechanismsTest {

  @Test
  void upperTail_referenceValues_matchToTwelveDigits() {
    // Reference values from scipy.stats.norm.sf.
    double[][] ref = {
      {0.5, 0.3085375387259869}, {1, 0.15865525393145707}, {2.9, 0.0018658133003840375},
      {3, 0.0013498980316300933}, {5, 2.866515718791933e-07}, {10, 7.61985302416047e-24},
      {-1, 1 - 0.15865525393145707}
    };
    for (double[] r : ref) {
      assertEquals(r[1], org.privet.math.Normal.upperTail(r[0]), 1e-12 * r[1], "Q(" + r[0] + ")");
    }
  }

  @Test
  void analyticSigma_referenceValues_matchAndAreRoundedUp() {
    // Reference: brentq on Balle-Wang's delta(sigma) with scipy, xtol 1e-14.
    double[][] ref = {{1, 1e-5, 3.7306316348159454}, {0.5, 1e-6, 8.057618480725019},
      {5, 1e-9, 1.2117124661345837}, {0.1, 1e-6, 36.304690426195386}};
    for (double[] r : ref) {
      double sigma = GaussianMechanism.analyticSigma(r[0], r[1], 1);
      assertEquals(r[2], sigma, 1e-7 * r[2]);
      assertTrue(org.privet.accounting.MechanismLoss.Gaussian.analyticDelta(r[0], 1, sigma) <= r[1], "delta met");
      assertTrue(org.privet.accounting.MechanismLoss.Gaussian.analyticDelta(r[0], 1, sigma * (1 - 1e-6)) > r[1], "nearly tight");
    }
    assertEquals(2 * GaussianMechanism.analyticSigma(1, 1e-5, 1), GaussianMechanism.analyticSigma(1, 1e-5, 2), 1e-9);
  }

  @Test
  void classicSigma_epsilonAtLeastOne_throwsSuggestingAnalytic() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> GaussianMechanism.classicSigma(1, 1e-5, 1));
    assertTrue(e.getMessage().contains("epsilon") && e.getMessage().contains("ANALYTIC"), e.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> GaussianMechanism.builder().epsilon(2).delta(1e-5).calibration(GaussianCalibration.CLASSIC).build());
    double s = GaussianMechanism.classicSigma(0.5, 1e-5, 1);
    assertEquals(Math.sqrt(2 * Math.log(1.25e5)) / 0.5, s, 1e-12);
  }

  @Test
  void builders_badParameters_throwNamingParameter() {
    for (double bad : new double[] {Double.NaN, Double.NEGATIVE_INFINITY, 0, -0.5}) {
      assertIae("epsilon", () -> LaplaceMechanism.builder().epsilon(bad));
      assertIae("epsilon", () -> GaussianMechanism.builder().epsilon(bad));
      assertIae("sensitivity", () -> LaplaceMechanism.builder().sensitivity(bad));
      assertIae("sensitivity", () -> GaussianMechanism.builder().sensitivity(bad));
    }
    for (double bad : new double[] {Double.NaN, -0.1, 1, 1.5, 0}) {
      assertIae("delta", () -> GaussianMechanism.builder().delta(bad));
    }
    assertIae("epsilon", () -> LaplaceMechanism.builder().build());
    assertIae("delta", () -> GaussianMechanism.builder().epsilon(1).build());
    assertIae("calibration", () -> GaussianMechanism.builder().calibration(null));
    LaplaceMechanism m = LaplaceMechanism.builder().epsilon(1).build();
    assertIae("value", () -> m.release(Double.NaN));
  }

  @Test
  void laplace_scaleAndGrid_matchDesign() {
    LaplaceMechanism m = LaplaceMechanism.builder().epsilon(0.5).sensitivity(3).build();
    double g = m.granularity();
    assertEquals(Math.scalb(1.0, Math.getExponent(6.0) - 40), g, 0);
    assertTrue(m.scale() >= 6 && m.scale() <= 6 * (1 + 1e-11), "scale " + m.scale());
    assertEquals(0.5, m.privacyLoss().epsilon(), 0);
  }

  @Test
  void release_outputsForZeroAndOne_lieOnSameGrid() {
    LaplaceMechanism lap = LaplaceMechanism.builder().epsilon(1).randomSource(seeded(11)).build();
    GaussianMechanism gau = GaussianMechanism.builder().epsilon(1).delta(1e-6).randomSource(seeded(12)).build();
    for (int i = 0; i < 1000; i++) {
      for (double input : new double[] {0.0, 1.0, 0.1, 1e-300}) {
        double a = lap.release(input);
        assertEquals(Math.rint(a / lap.granularity()), a / lap.granularity(), 0, "Laplace output on grid");
        double b = gau.release(input);
        assertEquals(Math.rint(b / gau.granularity()), b / gau.granularity(), 0, "Gaussian output on grid");
      }
    }
  }

  @Test
  void gaussian_sigma_atLeastCalibratedAndClose() {
    GaussianMechanism m = GaussianMechanism.builder().epsilon(1).delta(1e-5).build();
    double analytic = GaussianMechanism.analyticSigma(1, 1e-5, 1);
    assertTrue(m.sigma() >= analytic, "sigma " + m.sigma());
    assertTrue(m.sigma() <= analytic * 1.002, "grid costs under 0.2% here: " + m.sigma());
    GaussianMechanism c =
        GaussianMechanism.builder().epsilon(0.5).delta(1e-5).calibration(GaussianCalibration.CLASSIC).build();
    assertTrue(c.sigma() >= GaussianMechanism.classicSigma(0.5, 1e-5, 1));
    assertTrue(m.sigma(10) > m.sigma(), "vectors pay the zCDP conversion");
  }

  @Test
  void gaussian_discreteDeltaBound_isCloseToContinuousAndCertified() {
    GaussianMechanism m = GaussianMechanism.builder().epsilon(1).delta(1e-5).build();
    double g = m.granularity();
    long s = (long) Math.ceil(1 / g);
    double sigmaSteps = m.sigma() / g;
    double bound = DiscreteGaussianTails.discreteDeltaUpper(1, s, sigmaSteps * sigmaSteps);
    assertTrue(bound <= 1e-5, "certified: " + bound);
    assertTrue(bound >= 0.9e-5, "and not wastefully loose: " + bound);
  }

  @Test
  void confidenceIntervals_laplaceMatchesContinuousFormula() {
    LaplaceMechanism m = LaplaceMechanism.builder().epsilon(1).sensitivity(2).build();
    ConfidenceInterval ci = m.confidenceInterval(10, 0.05);
    double expected = 2 * Math.log(1 / 0.05);
    assertEquals(expected, ci.halfWidth(), 1e-6);
    assertTrue(ci.halfWidth() >= expected - 1e-9);
    GaussianMechanism gm = GaussianMechanism.builder().epsilon(1).delta(1e-5).build();
    ConfidenceInterval gci = gm.confidenceInterval(0, 0.05);
    assertEquals(1.959964 * gm.sigma(), gci.halfWidth(), 1e-3 * gm.sigma());
  }

  @Test
  void release_vector_hasDimensionAndGrid() {
    LaplaceMechanism m = LaplaceMechanism.builder().epsilon(1).randomSource(seeded(3)).build();
    double[] out = m.release(new double[] {1, 2, 3});
    assertEquals(3, out.length);
    GaussianMechanism gm = GaussianMechanism.builder().epsilon(1).delta(1e-6).randomSource(seeded(4)).build();
    double[] gout = gm.release(new double[] {1, 2, 3, 4});
    assertEquals(4, gout.length);
    for (double v : gout) {
      assertEquals(Math.rint(v / gm.granularity()), v / gm.granularity(), 0);
    }
  }
}
