package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Membership inference: exact marginals reveal membership; DP marginals obey TPR ≤ e^ε·FPR.
 *
 * <p>The threshold is fixed from a separate calibration run, so the test's trials are independent
 * of it. Assertion: the 99.9% lower bound on TPR is at most e^ε × the 99.9% upper bound on FPR;
 * false-failure probability ≤ 0.002. Power: the same assertion fails on the exact marginals.
 */
class MembershipAttackTest {
  private static final int ATTRIBUTES = 40;

  /** 2,000 people with 40 binary attributes (one-hot: 80 features), frequencies 0.1..0.9. */
  private static byte[][] population(SeededRandomSource random, double[] reference) {
    double[] p = new double[ATTRIBUTES];
    for (int a = 0; a < ATTRIBUTES; a++) {
      p[a] = 0.1 + 0.8 * random.nextLong(1000) / 1000.0;
    }
    byte[][] rows = new byte[2000][2 * ATTRIBUTES];
    for (byte[] r : rows) {
      for (int a = 0; a < ATTRIBUTES; a++) {
        int v = random.nextLong(1000) < p[a] * 1000 ? 1 : 0;
        r[2 * a + v] = 1;
      }
    }
    for (byte[] r : rows) {
      for (int j = 0; j < r.length; j++) {
        reference[j] += r[j] / (double) rows.length;
      }
    }
    return rows;
  }

  @Test
  void run_exactMarginalsRevealMembership_dpMarginalsObeyTheBound() {
    SeededRandomSource random = new SeededRandomSource(51);
    double[] reference = new double[2 * ATTRIBUTES];
    byte[][] pop = population(random, reference);
    double epsilon = 1.0;
    int pool = 8;
    MembershipAttack.Outcome calibration = MembershipAttack.run(pop, reference, ATTRIBUTES, pool, epsilon, 300, random);
    double dpTau = quantile(calibration.dpOut(), 0.9);
    double exactTau = quantile(calibration.exactOut(), 0.9);
    int trials = 600;
    MembershipAttack.Outcome o = MembershipAttack.run(pop, reference, ATTRIBUTES, pool, epsilon, trials, random);
    long dpTp = Arrays.stream(o.dpIn()).filter(t -> t > dpTau).count();
    long dpFp = Arrays.stream(o.dpOut()).filter(t -> t > dpTau).count();
    long exTp = Arrays.stream(o.exactIn()).filter(t -> t > exactTau).count();
    long exFp = Arrays.stream(o.exactOut()).filter(t -> t > exactTau).count();
    double factor = Math.exp(epsilon);
    assertTrue(ClopperPearson.lowerBound(dpTp, trials, 0.001) <= factor * ClopperPearson.upperBound(dpFp, trials, 0.001),
        "DP: TP " + dpTp + ", FP " + dpFp);
    assertTrue(ClopperPearson.lowerBound(exTp, trials, 0.001) > factor * ClopperPearson.upperBound(exFp, trials, 0.001),
        "power: exact marginals break the bound: TP " + exTp + ", FP " + exFp);
  }

  private static double quantile(double[] v, double q) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[(int) Math.floor(q * (s.length - 1))];
  }
}
