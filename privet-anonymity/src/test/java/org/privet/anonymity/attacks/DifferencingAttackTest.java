package org.privet.anonymity.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/**
 * Differencing: exact averages reveal the target's value; through the DP curator the attacker's
 * decision "is the target's value high?" obeys the DP bound between neighbouring tables.
 *
 * <p>The two tables differ in the target's value (0 or 100): a replacement, i.e. two add/remove
 * steps, so each attack (ε in total) is 2ε-DP between them and TPR ≤ e^{2ε}·FPR must hold for the
 * test "estimate &gt; 50". Asserted as: 99.9% lower bound on TPR ≤ e^{2ε} × 99.9% upper bound on
 * FPR; false-failure probability ≤ 0.002 (about 0.003 with the RMS check below). Power: the same
 * check on the exact attacker fails (TPR 1,
 * FPR 0), checked below.
 */
class DifferencingAttackTest {
  private static final int N = 40;

  /** The same 39 other people; the target (row 0) earns {@code targetValue}. */
  private static double[] table(double targetValue) {
    SeededRandomSource others = new SeededRandomSource(30);
    double[] v = new double[N];
    for (int i = 1; i < N; i++) {
      v[i] = others.nextLong(101);
    }
    v[0] = targetValue;
    return v;
  }

  @Test
  void run_exactAndDp_exactRevealsValueDpObeysTheBound(@TempDir Path dir) {
    SeededRandomSource random = new SeededRandomSource(31);
    int trials = 150;
    DifferencingAttack.Outcome high = DifferencingAttack.run("v", table(100), 0, 0, 100, 1.0, trials, random,
        dir.resolve("a"), null);
    DifferencingAttack.Outcome low = DifferencingAttack.run("v", table(0), 0, 0, 100, 1.0, trials, random,
        dir.resolve("b"), null);
    // Exact answers: the value to floating-point accuracy.
    assertEquals(0, high.exactMeanAbsError(), 1e-6);
    // Test "value > 50" on the attacker's estimate (error + true value).
    long exactTp = Arrays.stream(high.exactErrors()).filter(e -> e + 100 > 50).count();
    long exactFp = Arrays.stream(low.exactErrors()).filter(e -> e > 50).count();
    long dpTp = Arrays.stream(high.dpErrors()).filter(e -> e + 100 > 50).count();
    long dpFp = Arrays.stream(low.dpErrors()).filter(e -> e > 50).count();
    double factor = Math.exp(2 * 1.0);
    assertTrue(ClopperPearson.lowerBound(dpTp, trials, 0.001)
        <= factor * ClopperPearson.upperBound(dpFp, trials, 0.001), "DP: TPR " + dpTp + ", FPR " + dpFp);
    assertTrue(ClopperPearson.lowerBound(exactTp, trials, 0.001)
        > factor * ClopperPearson.upperBound(exactFp, trials, 0.001), "power: exact answers break the bound");
    // The ledger refuses the third query of a budget spent by two.
    assertTrue(high.refusal().startsWith("query 3 refused by the ledger after 2 charges"), high.refusal());
    // The DP error has the size the curator's plan predicts (within 30%: 150 trials, about 3 standard errors of the RMS).
    assertTrue(Math.abs(high.dpRmsError() / high.noiseScale() - 1) < 0.3,
        high.dpRmsError() + " vs " + high.noiseScale());
  }
}
