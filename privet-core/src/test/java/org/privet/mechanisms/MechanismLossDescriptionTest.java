package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.pld.PldAccountant;

/**
 * Each noise mechanism states its full privacy-loss description ({@link MechanismLoss}) for the
 * tight accountants, and that description is of the noise actually drawn: never a smaller loss
 * than the summary it charges ({@code privacyLoss()}) says it is within, and tight (the grid's
 * rounding only).
 */
class MechanismLossDescriptionTest {

  @Test
  void laplace_gridDescription_withinItsEpsilon_andTight() {
    for (double eps : new double[] {0.01, 0.5, 1, 3}) {
      for (double sens : new double[] {1, 7.5, 1e6}) {
        LaplaceMechanism m = LaplaceMechanism.builder().epsilon(eps).sensitivity(sens).build();
        MechanismLoss.DiscreteLaplace d = m.mechanismLoss();
        assertTrue(d.pureEpsilon() <= m.privacyLoss().epsilon(), eps + " " + sens);
        assertTrue(d.pureEpsilon() >= eps * (1 - 0x1p-35), d.pureEpsilon() + " vs " + eps);
        assertEquals(m.scale(), d.scale() * m.granularity(), m.scale() * 1e-15);
      }
    }
  }

  @Test
  void geometric_description_withinItsEpsilon_andTight() {
    for (double eps : new double[] {0.1, Math.PI / 7, 2}) {
      for (long sens : new long[] {1, 3, 1000}) {
        GeometricMechanism m = GeometricMechanism.builder().epsilon(eps).sensitivity(sens).build();
        MechanismLoss.DiscreteLaplace d = m.mechanismLoss();
        // the scale is a 61-bit rational: as a double, rounded down, its epsilon may be an ulp above
        assertTrue(d.pureEpsilon() <= eps * (1 + 1e-15), d.pureEpsilon() + " vs " + eps);
        assertTrue(d.pureEpsilon() >= eps * (1 - 1e-15), d.pureEpsilon() + " vs " + eps);
        assertEquals(sens, d.sensitivity());
      }
    }
  }

  @Test
  void discreteGaussian_description_rhoOfTheDrawnNoise() {
    for (double rho : new double[] {0.01, 0.5, 2}) {
      for (long sens : new long[] {1, 4, 100}) {
        DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder().rho(rho).sensitivity(sens).build();
        MechanismLoss.DiscreteGaussian d = m.mechanismLoss();
        assertTrue(d.sigma() <= m.sigma());
        assertEquals(rho, d.zcdpRho(), rho * 1e-9);
        assertTrue(d.zcdpRho() <= rho * (1 + 1e-12), d.zcdpRho() + " vs " + rho);
      }
    }
  }

  @Test
  void discreteGaussian_squaredSensitivity_calibratesWithTheExactSquare() {
    // Δ² = 18 (a count at L0 = 2, L∞ = 3): σ² ≥ 18/(2ρ), not ⌈√18⌉² = 25 over 2ρ (issue 22).
    double rho = 0.25;
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder().rho(rho)
        .squaredSensitivity(18).build();
    assertEquals(rho, m.privacyLoss().rho(), 0);
    assertTrue(m.sigma() * m.sigma() >= 18 / (2 * rho));
    assertEquals(18 / (2 * rho), m.sigma() * m.sigma(), 1e-6 * 36);
    MechanismLoss.DiscreteGaussian d = m.mechanismLoss();
    assertEquals(5, d.sensitivity(), "the integer Δ shown is ⌈√18⌉");
    assertTrue(d.zcdpRho() >= rho, "the integer description only overstates the loss");
    // A perfect square gives the same mechanism as the plain sensitivity.
    DiscreteGaussianMechanism plain = DiscreteGaussianMechanism.builder().rho(rho)
        .sensitivity(3).build();
    DiscreteGaussianMechanism squared = DiscreteGaussianMechanism.builder().rho(rho)
        .squaredSensitivity(9).build();
    assertEquals(plain.sigma(), squared.sigma(), 0);
    assertEquals(3, squared.mechanismLoss().sensitivity());
  }

  /**
   * The grid Gaussian's description meets its (ε, δ) claim by the PLD accountant (read at ε + 10⁻²
   * for the accountant's pessimistic discretisation, interval 10⁻³), and has power: the same description with σ
   * 30% smaller does not.
   */
  @Test
  void gaussian_gridDescription_meetsItsEpsilonDelta_andNotWithThirtyPercentLessNoise() {
    double eps = 1;
    double delta = 1e-6;
    GaussianMechanism m = GaussianMechanism.builder().epsilon(eps).delta(delta).sensitivity(3).build();
    MechanismLoss.DiscreteGaussian d = m.mechanismLoss();
    assertEquals(m.sigma(), d.sigma() * m.granularity(), m.sigma() * 1e-12);
    PldAccountant pld = PldAccountant.builder().valueDiscretizationInterval(1e-3).build();
    double stated = pld.delta(List.of(d), eps + 1e-2);
    assertTrue(stated <= delta, "delta " + stated);
    MechanismLoss.DiscreteGaussian less = new MechanismLoss.DiscreteGaussian(0.7 * d.sigma(), d.sensitivity());
    assertTrue(pld.delta(List.of(less), eps + 1e-2) > delta);
  }

  @Test
  void randomizedResponse_description_isKaryAtItsEpsilon() {
    RandomizedResponse k = RandomizedResponse.builder().epsilon(0.75).categories(5).build();
    assertEquals(new MechanismLoss.RandomizedResponse(0.75, 5), k.mechanismLoss());
    RandomizedResponse coins = RandomizedResponse.builder().twoCoin().build();
    assertEquals(coins.privacyLoss().epsilon(), coins.mechanismLoss().pureEpsilon());
    assertTrue(coins.mechanismLoss().pureEpsilon() >= Math.log(3));
    assertEquals(2, coins.mechanismLoss().categories());
  }

  @Test
  void downwardRounding_neverAboveTheExactRational() {
    long num = (1L << 60) + 1; // not a double: rounds to 2^60 (below) by nearest
    assertTrue(NoiseParameters.downward(num, 1) <= 0x1p60);
    long up = (1L << 60) - 1; // rounds to 2^60 (above): must step down
    assertTrue(new java.math.BigDecimal(NoiseParameters.downward(up, 4)).multiply(java.math.BigDecimal.valueOf(4))
        .compareTo(java.math.BigDecimal.valueOf(up)) <= 0);
    double s = NoiseParameters.sqrtDownward(2, 1);
    assertTrue(new java.math.BigDecimal(s).pow(2).compareTo(java.math.BigDecimal.valueOf(2)) <= 0);
    assertEquals(Math.sqrt(2), s, Math.ulp(Math.sqrt(2)));
  }
}
