package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * End-to-end privacy audit: the same query runs many times on neighbouring tables D and D' (D' adds
 * one privacy unit with more rows than the bounds allow), and a statistically valid lower bound on
 * ε is computed from the frequency of the event "released count &gt; |D|" (for the geometric
 * mechanism P_D'[E]/P_D[E] = (1/(1+q))/(q/(1+q)) = e^ε exactly, q = e^−ε, so the audit is tight up
 * to sampling error).
 *
 * <p>False-failure probability: the lower bound is valid with probability ≥ 0.999, so the test
 * fails wrongly with probability ≤ 1e-3. Power: the same audit on the same query with noise for
 * ε/0.7 (30% less noise than claimed) must produce a lower bound above the claimed ε.
 */
class PrivacyAuditTest {
  private static final int TRIALS = 1000;
  private static DuckDbBackend db;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    List<List<?>> d = new ArrayList<>();
    for (long u = 0; u < 50; u++) {
      d.add(Arrays.asList(u, "g", (double) (u % 7)));
      d.add(Arrays.asList(u, "g", 3.0));
    }
    List<List<?>> dPrime = new ArrayList<>(d);
    for (int r = 0; r < 20; r++) {
      dPrime.add(Arrays.asList(777L, "h" + r, 1000.0)); // over L0 and L∞ and the clamp
    }
    TestTables.register(db, "d", d);
    TestTables.register(db, "dprime", dPrime);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  /** Lower bound on ε of a count (rows ≤ 1 per unit) with budget {@code epsilon}. */
  private static double auditedEpsilon(double epsilon, long seed) {
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).build();
    long exactD = 50; // one row per unit after L∞ = 1
    long hitsD = 0;
    long hitsDPrime = 0;
    for (int i = 0; i < TRIALS; i++) {
      if (release(s, "d", epsilon) > exactD) {
        hitsD++;
      }
      if (release(s, "dprime", epsilon) > exactD) {
        hitsDPrime++;
      }
    }
    return PrivacyAudit.epsilonLowerBound(hitsDPrime, TRIALS, hitsD, TRIALS, 0.999);
  }

  private static double release(Session s, String table, double epsilon) {
    Query q = Query.from(table).privacyUnit("uid").maxRowsPerGroup(1).count("n")
        .epsilon(epsilon).build();
    return s.run(q).rows().get(0).get("n").value();
  }

  @Test
  void run_neighbouringTables_empiricalEpsilonBelowClaim() {
    double lower = auditedEpsilon(1.0, 20261125L);
    assertTrue(lower <= 1.0, "empirical ε lower bound " + lower + " exceeds the claimed 1.0");
    assertTrue(lower > 0.5, "the audit should be nearly tight, got " + lower);
  }

  @Test
  void audit_noiseThirtyPercentTooSmall_isDetected() {
    double lower = auditedEpsilon(1.0 / 0.7, 20261126L);
    assertTrue(lower > 1.0, "the audit must catch noise for ε/0.7 claimed as ε = 1, got " + lower);
  }
}
