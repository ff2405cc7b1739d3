package org.privet.accounting.pld;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.OptimalComposition;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PldAccountantTest {
  private final PldAccountant pld = new PldAccountant();

  /**
   * k-fold Gaussian: the exact profile is that of one Gaussian with σ/√k (Dong, Roth, Su 2019). The
   * PLD ε must be at least the exact ε and at most 1% above it.
   */
  @ParameterizedTest
  @CsvSource({
    "1, 1.0, 1e-5",
    "10, 3.0, 1e-5",
    "100, 10.0, 1e-6",
    "1000, 20.0, 1e-5",
    "10000, 100.0, 1e-5",
    "10000, 40.0, 1e-8",
  })
  void compose_kFoldGaussian_withinOnePercentAboveExact(int k, double sigma, double delta) {
    double exact = new MechanismLoss.Gaussian(sigma / Math.sqrt(k)).epsilon(delta);
    double eps =
        pld.compose(Collections.nCopies(k, new MechanismLoss.Gaussian(sigma)), delta).epsilon();
    assertTrue(eps >= exact, "PLD " + eps + " below exact " + exact);
    assertTrue(eps <= exact * 1.01, "PLD " + eps + " more than 1% above exact " + exact);
  }

  @Test
  void delta_kFoldGaussian_atLeastExactAndClose() {
    int k = 500;
    double sigma = 10;
    double exact = new MechanismLoss.Gaussian(sigma / Math.sqrt(k)).delta(1.0);
    double d = pld.delta(Collections.nCopies(k, new MechanismLoss.Gaussian(sigma)), 1.0);
    assertTrue(d >= exact && d <= exact * 1.05, "delta " + d + " exact " + exact);
  }

  @Test
  void compose_kFoldPure_matchesExactOptimalComposition() {
    int k = 50;
    double eps0 = 0.1;
    double delta = 1e-6;
    double exact = OptimalComposition.homogeneousEpsilon(eps0, 0.0, k, delta);
    double eps = pld.compose(Collections.nCopies(k, new PureDp(eps0)), delta).epsilon();
    assertTrue(eps >= exact * (1 - 1e-9), "PLD " + eps + " below exact " + exact);
    assertTrue(eps <= exact * 1.01, "PLD " + eps + " above exact " + exact);
  }

  @Test
  void compose_singleApproxDp_returnsItsEpsilonAtItsDelta() {
    ApproxDp r = pld.compose(List.of(new ApproxDp(1.0, 1e-6)), 2e-6);
    assertTrue(r.epsilon() <= 1.0 + 1e-3 && r.epsilon() >= 0.5, "eps " + r.epsilon());
  }

  @Test
  void compose_subsampledGaussian_belowRdp() {
    List<PrivacyLoss> events =
        Collections.nCopies(1000, new PoissonSubsampled(new MechanismLoss.Gaussian(1.0), 0.01));
    double p = pld.compose(events, 1e-5).epsilon();
    assertTrue(p > 0.3 && p < 3, "eps " + p);
  }

  @Test
  void compose_laplaceEvents_betweenExactSingleAndBasic() {
    ApproxDp r = pld.compose(Collections.nCopies(20, new MechanismLoss.Laplace(10.0)), 1e-6);
    assertTrue(r.epsilon() < 2.0 && r.epsilon() > 0.5, "eps " + r.epsilon());
    assertEquals(1e-6, r.delta());
  }
}
