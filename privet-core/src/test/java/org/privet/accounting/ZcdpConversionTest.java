package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

class ZcdpConversionTest {

  /** Direct numeric minimisation of the CKS20 formula over a very fine grid of orders. */
  private static double bruteForce(double rho, double delta) {
    double best = Double.POSITIVE_INFINITY;
    for (int i = 0; i <= 200_000; i++) {
      double alpha = 1.0 + Math.pow(10, -6 + 12.0 * i / 200_000);
      double eps = alpha * rho + Math.log1p(-1 / alpha) - (Math.log(delta) + Math.log(alpha)) / (alpha - 1);
      best = Math.min(best, eps);
    }
    return Math.max(0, best);
  }

  @Test
  void simpleEpsilon_knownValue_matchesFormula() {
    assertEquals(0.5 + 2 * Math.sqrt(0.5 * Math.log(1e5)), ZcdpConversion.simpleEpsilon(0.5, 1e-5), 1e-12);
  }

  @Property(tries = 60)
  void tightEpsilon_randomParameters_matchesDirectMinimisationAndBeatsSimple(
      @ForAll @DoubleRange(min = -4, max = 1) double log10Rho,
      @ForAll @DoubleRange(min = -12, max = -2) double log10Delta) {
    double rho = Math.pow(10, log10Rho);
    double delta = Math.pow(10, log10Delta);
    double tight = ZcdpConversion.tightEpsilon(rho, delta);
    double brute = bruteForce(rho, delta);
    assertTrue(tight >= brute * (1 - 1e-6) - 1e-9, "tight " + tight + " below brute " + brute);
    assertTrue(tight <= brute * (1 + 1e-6) + 1e-9, "tight " + tight + " above brute " + brute);
    assertTrue(tight <= ZcdpConversion.simpleEpsilon(rho, delta));
  }

  @Property(tries = 60)
  void tightEpsilon_gaussian_neverBelowExactGaussianEpsilon(
      @ForAll @DoubleRange(min = 0.3, max = 20) double sigma,
      @ForAll @DoubleRange(min = -10, max = -3) double log10Delta) {
    double delta = Math.pow(10, log10Delta);
    // The Gaussian mechanism with sensitivity 1 is 1/(2σ²)-zCDP; its exact δ(ε) is Balle–Wang's.
    double eps = ZcdpConversion.tightEpsilon(1 / (2 * sigma * sigma), delta);
    assertTrue(new MechanismLoss.Gaussian(sigma).delta(eps) <= delta * (1 + 1e-9));
  }

  @Test
  void delta_inverseOfEpsilon_consistent() {
    double eps = ZcdpConversion.tightEpsilon(0.3, 1e-6);
    double d = ZcdpConversion.delta(0.3, eps);
    assertTrue(d <= 1e-6 * (1 + 1e-6) && d >= 1e-6 * 0.99, "delta " + d);
  }

  @Property(tries = 40, seed = "20261126")
  void largestRho_randomTargets_isCertifiedAndTight(
      @ForAll @DoubleRange(min = -2, max = 1) double log10Epsilon,
      @ForAll @DoubleRange(min = -12, max = -3) double log10Delta) {
    double epsilon = Math.pow(10, log10Epsilon);
    double delta = Math.pow(10, log10Delta);
    double rho = ZcdpConversion.largestRho(epsilon, delta);
    assertTrue(rho > 0 && ZcdpConversion.epsilon(rho, delta) <= epsilon, "certified");
    assertTrue(ZcdpConversion.epsilon(rho * (1 + 1e-9), delta) > epsilon, "largest");
  }

  @Test
  void largestRhoAtEpsilon_isCertifiedAndTight() {
    for (double[] ed : new double[][] {{1, 1e-6}, {0.1, 1e-9}, {5, 1e-3}}) {
      double rho = ZcdpConversion.largestRhoAtEpsilon(ed[0], ed[1]);
      assertTrue(rho > 0 && ZcdpConversion.delta(rho, ed[0]) <= ed[1], "certified");
      assertTrue(ZcdpConversion.delta(rho * (1 + 1e-9), ed[0]) > ed[1], "largest");
    }
  }
}
