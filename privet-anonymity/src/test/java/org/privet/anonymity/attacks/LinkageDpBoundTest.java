package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Microdata;
import org.privet.synth.Attribute;
import org.privet.synth.Domain;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Linkage against a DP synthetic (AIM) release is bounded; against the raw release it is not.
 *
 * <p>Two neighbouring tables differ only in the target's sensitive bit (a replacement: two
 * add/remove steps). The target is the only person with quasi-identifiers (3, 3), so any released
 * record with them links uniquely to the target, and the attacker claims the bit those records hold
 * (majority; no claim of 1 without such a record). For an (ε, δ)-DP release, P[claim 1 | bit 1] ≤
 * e^{2ε}·P[claim 1 | bit 0] + (1 + e^ε)·δ. Asserted as: 99.9% Clopper–Pearson lower bound on the
 * first ≤ e^{2ε} × the 99.9% upper bound on the second + (1 + e^ε)δ; false-failure probability ≤
 * 0.002. Power: the raw release (claim = the true bit) fails the same check.
 */
class LinkageDpBoundTest {
  private static final double EPSILON = 0.5;
  private static final double DELTA = 1e-6;
  private static final int TRIALS = 60;

  private static Microdata table(int targetBit) {
    int n = 60;
    double[][] c = new double[3][n];
    for (int i = 1; i < n; i++) {
      c[0][i] = i % 4;
      c[1][i] = (i / 4) % 3; // never 3: the target's (3, 3) is unique
      c[2][i] = (i * 7) % 3 == 0 ? 1 : 0;
    }
    c[0][0] = 3;
    c[1][0] = 3;
    c[2][0] = targetBit;
    return Microdata.of(List.of(Microdata.Column.numeric("a", c[0]), Microdata.Column.numeric("b", c[1]),
        Microdata.Column.numeric("s", c[2])));
  }

  /** Whether the attacker, linking the target through (3, 3), claims bit 1. */
  private static boolean claimsOne(Microdata release) {
    double[] a = release.column("t", "a").numbers();
    double[] b = release.column("t", "b").numbers();
    double[] s = release.column("t", "s").numbers();
    int ones = 0;
    int matches = 0;
    for (int r = 0; r < a.length; r++) {
      if (a[r] == 3 && b[r] == 3) {
        matches++;
        ones += s[r] == 1 ? 1 : 0;
      }
    }
    return matches > 0 && 2 * ones > matches;
  }

  @Test
  void aimRelease_linkageClaimObeysTheDpBound_rawReleaseDoesNot() {
    Domain dom = Domain.of(List.of(Attribute.coded("a", 4), Attribute.coded("b", 4), Attribute.coded("s", 2)));
    SeededRandomSource random = new SeededRandomSource(61);
    int tp = 0;
    int fp = 0;
    for (int t = 0; t < TRIALS; t++) {
      tp += claimsOne(AimRelease.synthesize(table(1), List.of("a", "b", "s"), dom, EPSILON, DELTA, random, x -> { })
          .synthetic()) ? 1 : 0;
      fp += claimsOne(AimRelease.synthesize(table(0), List.of("a", "b", "s"), dom, EPSILON, DELTA, random, x -> { })
          .synthetic()) ? 1 : 0;
    }
    double slack = (1 + Math.exp(EPSILON)) * DELTA;
    double factor = Math.exp(2 * EPSILON);
    assertTrue(ClopperPearson.lowerBound(tp, TRIALS, 0.001) <= factor * ClopperPearson.upperBound(fp, TRIALS, 0.001)
        + slack, "AIM: claims of 1 with bit 1: " + tp + ", with bit 0: " + fp);
    // The raw release links the target to their own record: the claim is the true bit every time.
    int rawTp = claimsOne(table(1)) ? TRIALS : 0;
    int rawFp = claimsOne(table(0)) ? TRIALS : 0;
    assertTrue(ClopperPearson.lowerBound(rawTp, TRIALS, 0.001)
        > factor * ClopperPearson.upperBound(rawFp, TRIALS, 0.001) + slack, "power: the raw release breaks the bound");
    // And the linkage attack itself re-identifies the target in the raw release.
    LinkageAttack.Outcome raw = LinkageAttack.run("raw", "none", table(1),
        GeneralizedTable.fromMicrodata(table(1), List.of("a", "b"), "s"), "s");
    assertTrue(raw.linked() >= 1 && raw.correct() == raw.linked());
  }
}
