package org.privet.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.random.RandomSource;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * A privacy audit of pure-ε objective perturbation ({@link PureObjectivePerturbation}) in the style
 * of Jagielski, Ullman, Oprea 2020, on {@link ObjectivePerturbationAuditTest}'s neighbouring sets
 * (D: {@value ObjectivePerturbationAuditTest#ROWS} rows at x = (1, 1)/√2 labelled −1; D' = D + the
 * canary, the same x labelled +1; Λ = 2.5, so ε<sub>jac</sub> = ln 1.1), {@value #N} runs on each and
 * a Clopper–Pearson lower bound on ε ({@link PrivacyAudit}, confidence {@value #CONFIDENCE}, δ = 0).
 *
 * <p>The white-box attacker recovers b<sub>D</sub>(θ) = −(∇L<sub>D</sub>(θ) + Λθ) from the released
 * θ: it is the Laplace noise b on D and about b − s·x on D' (s ≈ 0.96). The event is that both
 * coordinates are ≤ −{@value #TAU}: its probability ratio is e<sup>2·s/(√2·λ)</sup> =
 * e<sup>s·ε<sub>noise</sub></sup> exactly for Laplace noise, the tightest event for this shift.
 * The claim audited is the calibrated ε = {@value #EPSILON}.
 *
 * <p>False failure: a correct mechanism's bound exceeds ε with probability at most 1 −
 * {@value #CONFIDENCE} = 10<sup>−3</sup> over seeds; seeds are fixed. Power: the same mechanism
 * with 30% less noise (λ/1.3) must exceed ε (expected ratio e^(1.3·0.96·1.9) ≈ e^2.37 less the
 * Clopper–Pearson margin; the correct mechanism's about e^1.83; measured with these seeds: 2.09 and
 * 1.70).
 */
class PureObjectivePerturbationAuditTest {
  static final int N = 200_000;
  static final double CONFIDENCE = 0.999;
  static final double EPSILON = 2;
  static final double TAU = 1.25;

  static PureObjectivePerturbation mechanism() {
    return PureObjectivePerturbation.of(EPSILON, 1, 2.5, ObjectivePerturbationAuditTest.ENCODER);
  }

  /** b_D(θ) for the released θ, the attacker's reconstruction of the noise. */
  static double[] noise(TrainingSet d, double lambda, double[] theta) {
    int dim = theta.length;
    double[] b = new double[dim];
    for (int i = 0; i < d.rows; i++) {
      double m = d.y[i] * d.dot(i, theta);
      double p = LogisticObjective.sigmoid(-m);
      double[] x = d.dense(i);
      for (int j = 0; j < dim; j++) {
        b[j] += d.weight[i] * p * d.y[i] * x[j];
      }
    }
    for (int j = 0; j < dim; j++) {
      b[j] -= lambda * theta[j];
    }
    return b;
  }

  static boolean event(double[] b) {
    return b[0] <= -TAU && b[1] <= -TAU;
  }

  static double audit(PureObjectivePerturbation m, long seed) {
    TrainingSet d = ObjectivePerturbationAuditTest.set(false);
    TrainingSet d2 = ObjectivePerturbationAuditTest.set(true);
    RandomSource r = new SeededRandomSource(seed);
    long hitsD = 0;
    long hitsD2 = 0;
    for (int i = 0; i < N; i++) {
      if (event(noise(d, m.regularization(), m.train(d, r).coefficients()))) {
        hitsD++;
      }
      if (event(noise(d, m.regularization(), m.train(d2, r).coefficients()))) {
        hitsD2++;
      }
    }
    return PrivacyAudit.epsilonLowerBound(hitsD2, N, hitsD, N, CONFIDENCE, 0);
  }

  @Test
  void pureObjectivePerturbation_canaryAudit_lowerBoundBelowClaimAndCatchesLessNoise() {
    PureObjectivePerturbation m = mechanism();
    assertEquals(new org.privet.accounting.PureDp(EPSILON), m.privacyLoss());
    assertTrue(m.epsilonCertified() <= EPSILON && m.epsilonCertified() > 0.999 * EPSILON, "" + m.epsilonCertified());
    double eps = audit(m, 2701);
    System.out.printf("pure objective perturbation audit: correct %.3f, claim %.2f%n", eps, EPSILON);
    assertTrue(eps <= EPSILON, "audit lower bound " + eps + " exceeds the claim " + EPSILON);
    assertTrue(eps > 1.4, "the audit detects the canary: " + eps);
    double bad = audit(m.withLessNoiseForAudit(1.3), 2702);
    System.out.printf("pure objective perturbation audit: 30%% less noise %.3f%n", bad);
    assertTrue(bad > EPSILON, "30% less noise must exceed the claim " + EPSILON + ": " + bad);
  }
}
