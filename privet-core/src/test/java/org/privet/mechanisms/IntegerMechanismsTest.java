package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.privet.random.RandomSource;

/** Builders, privacy losses and confidence intervals of the integer mechanisms. */
class IntegerMechanismsTest {

  static RandomSource seeded(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    return r::nextLong;
  }

  static void assertIae(String name, Executable e) {
    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
    assertTrue(ex.getMessage().contains(name), ex.getMessage());
  }

  @Test
  void geometricBuilder_badParameters_throwNamingParameter() {
    for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, 0, -1}) {
      assertIae("epsilon", () -> GeometricMechanism.builder().epsilon(bad));
    }
    assertIae("epsilon", () -> GeometricMechanism.builder().build());
    assertIae("sensitivity", () -> GeometricMechanism.builder().sensitivity(0));
    assertIae("randomSource", () -> GeometricMechanism.builder().randomSource(null));
    GeometricMechanism m = GeometricMechanism.builder().epsilon(1).build();
    assertIae("beta", () -> m.confidenceInterval(0, 0));
    assertIae("beta", () -> m.confidenceInterval(0, 1));
  }

  @Test
  void geometric_privacyLossAndScale_matchEpsilon() {
    GeometricMechanism m = GeometricMechanism.builder().epsilon(0.3).sensitivity(4).build();
    assertEquals(0.3, m.privacyLoss().epsilon(), 0);
    assertTrue(m.scale() >= 4 / 0.3, "scale rounded upward");
    assertEquals(4 / 0.3, m.scale(), 1e-12);
  }

  @Test
  void geometric_confidenceInterval_isExactDiscreteLaplaceQuantile() {
    GeometricMechanism m = GeometricMechanism.builder().epsilon(1).build();
    ConfidenceInterval ci = m.confidenceInterval(100, 0.05);
    // q = e^-1: P[|Z| > k] = 2 q^(k+1)/(1+q) is 0.0728 for k = 2 and 0.0268 for k = 3, so k = 3.
    assertEquals(97, ci.lower(), 0);
    assertEquals(103, ci.upper(), 0);
    assertEquals(0.95, ci.level(), 1e-15);
  }

  @Test
  void discreteGaussianBuilder_badParameters_throwNamingParameter() {
    assertIae("rho", () -> DiscreteGaussianMechanism.builder().rho(0));
    assertIae("rho", () -> DiscreteGaussianMechanism.builder().rho(Double.NaN));
    assertIae("sigma", () -> DiscreteGaussianMechanism.builder().sigma(-2));
    assertIae("sensitivity", () -> DiscreteGaussianMechanism.builder().sensitivity(-1));
    assertIae("rho", () -> DiscreteGaussianMechanism.builder().build());
    assertIae("rho", () -> DiscreteGaussianMechanism.builder().rho(1).sigma(1).build());
  }

  @Test
  void discreteGaussian_rhoAndSigma_areConsistent() {
    DiscreteGaussianMechanism byRho = DiscreteGaussianMechanism.builder().rho(0.125).sensitivity(2).build();
    assertEquals(0.125, byRho.privacyLoss().rho(), 0);
    assertTrue(byRho.sigma() >= 4.0 && byRho.sigma() < 4.0 + 1e-6);
    DiscreteGaussianMechanism bySigma = DiscreteGaussianMechanism.builder().sigma(3).build();
    assertTrue(bySigma.privacyLoss().rho() >= 1.0 / 18 && bySigma.privacyLoss().rho() < 1.0 / 18 + 1e-12);
  }

  @Test
  void discreteGaussian_confidenceInterval_coversExactTail() {
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder().sigma(5).build();
    ConfidenceInterval ci = m.confidenceInterval(0, 0.05);
    long k = (long) ci.upper();
    // Exact tail by summation: P[|Z| > k] must be <= 0.05 and the interval not much wider than
    // the continuous quantile 1.96 * 5 = 9.8.
    double total = 0;
    double outside = 0;
    for (long z = -200; z <= 200; z++) {
      double w = Math.exp(-(double) z * z / 50.0);
      total += w;
      if (Math.abs(z) > k) {
        outside += w;
      }
    }
    assertTrue(outside / total <= 0.05, "coverage");
    assertTrue(k <= 11, "width " + k);
  }

  @Test
  void release_saturatesInsteadOfOverflowing() {
    GeometricMechanism m = GeometricMechanism.builder().epsilon(0.01).randomSource(seeded(1)).build();
    for (int i = 0; i < 100; i++) {
      long r = m.release(Long.MAX_VALUE);
      assertTrue(r > Long.MAX_VALUE - 100_000);
    }
  }
}
