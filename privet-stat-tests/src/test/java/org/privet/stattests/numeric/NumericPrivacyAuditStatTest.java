package org.privet.stattests.numeric;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoublePredicate;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ZcdpConversion;
import org.privet.mechanisms.DiscreteGaussianMechanism;
import org.privet.mechanisms.GaussianMechanism;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.mechanisms.LaplaceMechanism;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * Empirical privacy audits: run each mechanism on neighbouring inputs, count one event, and derive
 * a lower bound on ε with Clopper–Pearson bounds at confidence {@value #CONFIDENCE}; it must not
 * exceed the claimed ε. A correct mechanism fails an audit with probability at most 1 −
 * {@value #CONFIDENCE} over seeds. For the pure-DP mechanisms the event {output ≤ 0} on inputs 0
 * and Δ is the worst case (its probability ratio is exactly e<sup>ε</sup>), so the audit also has
 * power: a mechanism with 30% less noise (true ε/0.7) is caught.
 */
class NumericPrivacyAuditStatTest {
  static final double CONFIDENCE = 0.999;
  static final int N = 200_000;

  static double audit(DoubleUnaryOperator onA, DoubleUnaryOperator onB, DoublePredicate event, double delta) {
    long a = 0;
    long b = 0;
    for (int i = 0; i < N; i++) {
      if (event.test(onA.applyAsDouble(0))) {
        a++;
      }
      if (event.test(onB.applyAsDouble(0))) {
        b++;
      }
    }
    return PrivacyAudit.epsilonLowerBound(a, N, b, N, CONFIDENCE, delta);
  }

  @Test
  void geometricMechanism_audit_lowerBoundBelowClaimAndCatchesSmallNoise() {
    GeometricMechanism m = GeometricMechanism.builder().epsilon(1).randomSource(new SeededRandomSource(301)).build();
    double eps = audit(x -> m.release(0), x -> m.release(1), y -> y <= 0, 0);
    assertTrue(eps <= m.privacyLoss().epsilon(), "audit " + eps);
    assertTrue(eps > 0.9, "audit is tight enough to be meaningful: " + eps);
    GeometricMechanism bad = GeometricMechanism.builder().epsilon(1 / 0.7).randomSource(new SeededRandomSource(302)).build();
    double badEps = audit(x -> bad.release(0), x -> bad.release(1), y -> y <= 0, 0);
    assertTrue(badEps > 1, "30% less noise must exceed the claimed epsilon 1: " + badEps);
  }

  @Test
  void laplaceMechanism_audit_lowerBoundBelowClaimAndCatchesSmallNoise() {
    LaplaceMechanism m = LaplaceMechanism.builder().epsilon(1).randomSource(new SeededRandomSource(303)).build();
    double eps = audit(x -> m.release(0.0), x -> m.release(1.0), y -> y <= 0, 0);
    assertTrue(eps <= 1, "audit " + eps);
    assertTrue(eps > 0.9, "audit is tight enough to be meaningful: " + eps);
    LaplaceMechanism bad = LaplaceMechanism.builder().epsilon(1).sensitivity(0.7)
        .randomSource(new SeededRandomSource(304)).build();
    double badEps = audit(x -> bad.release(0.0), x -> bad.release(1.0), y -> y <= 0, 0);
    assertTrue(badEps > 1, "30% less noise must exceed the claimed epsilon 1: " + badEps);
  }

  @Test
  void gaussianMechanism_audit_lowerBoundBelowClaim() {
    GaussianMechanism m = GaussianMechanism.builder().epsilon(1).delta(1e-5)
        .randomSource(new SeededRandomSource(305)).build();
    double t = 2 * m.sigma(); // a tail event on which the likelihood ratio is large
    double eps = audit(x -> m.release(1.0), x -> m.release(0.0), y -> y >= t, 1e-5);
    assertTrue(eps <= 1, "audit " + eps);
    assertTrue(eps > 0.3, "audit detects the shift: " + eps);
  }

  @Test
  void discreteGaussianMechanism_audit_lowerBoundBelowConvertedClaim() {
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder().rho(0.5)
        .randomSource(new SeededRandomSource(306)).build();
    double delta = 1e-3;
    double claimed = ZcdpConversion.epsilon(m.privacyLoss().rho(), delta);
    double eps = audit(x -> m.release(1), x -> m.release(0), y -> y >= 2, delta);
    assertTrue(eps <= claimed, "audit " + eps + " vs claimed " + claimed);
    assertTrue(eps > 0.5, "audit detects the shift: " + eps);
  }
}
