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
 * ε is computed for each of its two releases (each with half the budget, ε each):
 * <ul>
 *   <li>a count, from the event "released count &gt; |D|" (for the geometric mechanism
 *       P_D'[E]/P_D[E] = (1/(1+q))/(q/(1+q)) = e^ε exactly, q = e^−ε, so the audit is tight up to
 *       sampling error);
 *   <li>a sum with per-unit-per-group clamping to [0, 3] (every unit of D has a total ≥ 3, the
 *       added unit 20 000), from the event "released sum ≥ exact + 3": the added unit moves the sum
 *       by exactly the sensitivity Δ (3 on the grid), and for two-sided geometric noise
 *       P[Z ≥ 0]/P[Z ≥ Δ] = q^−Δ = e^ε exactly, so this audit is tight too.
 * </ul>
 *
 * <p>False-failure probability: each lower bound is valid with probability ≥ 0.999, so the test
 * fails wrongly with probability ≤ 2e-3. Power: the same audit with noise for ε/0.7 (30% less
 * noise than claimed) must produce lower bounds above the claimed ε.
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

  /**
   * Lower bounds on ε of the count (rows ≤ 1 per unit) and of the group-clamped sum, each released
   * with ε = {@code epsilon} (half of the query's budget each, by explicit equal weights).
   */
  private static double[] auditedEpsilon(double epsilon, long seed, int trials) {
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).build();
    long exactCount = 50; // one row per unit after L∞ = 1
    double exactSum = 50 * 3; // every unit's total clamped to 3
    long[] hitsD = new long[2];
    long[] hitsDPrime = new long[2];
    for (int i = 0; i < trials; i++) {
      ResultRow d = release(s, "d", 2 * epsilon);
      ResultRow dPrime = release(s, "dprime", 2 * epsilon);
      hitsD[0] += d.get("n").value() > exactCount ? 1 : 0;
      hitsDPrime[0] += dPrime.get("n").value() > exactCount ? 1 : 0;
      hitsD[1] += d.get("s").value() >= exactSum + 3 ? 1 : 0;
      hitsDPrime[1] += dPrime.get("s").value() >= exactSum + 3 ? 1 : 0;
    }
    return new double[] {
        PrivacyAudit.epsilonLowerBound(hitsDPrime[0], trials, hitsD[0], trials, 0.999),
        PrivacyAudit.epsilonLowerBound(hitsDPrime[1], trials, hitsD[1], trials, 0.999)};
  }

  private static ResultRow release(Session s, String table, double epsilon) {
    Query q = Query.from(table).privacyUnit("uid").maxRowsPerGroup(1).count("n")
        .sum("s", "x", 0, 1000, Aggregation.GroupBounds.ofAllRows(0, 3))
        // Explicit equal weights: each mechanism is audited at half the budget (the default
        // split would give the sum more).
        .budgetWeight("n", 1).budgetWeight("s", 1)
        .epsilon(epsilon).noise(NoiseKind.LAPLACE).build();
    return s.run(q).rows().get(0);
  }

  @Test
  void run_neighbouringTables_empiricalEpsilonBelowClaim() {
    double[] lower = auditedEpsilon(1.0, 20261125L, TRIALS);
    for (double l : lower) {
      assertTrue(l <= 1.0, "empirical ε lower bound " + l + " exceeds the claimed 1.0");
      assertTrue(l > 0.5, "the audit should be nearly tight, got " + l);
    }
  }

  /**
   * Twice the trials: the sum's events have probabilities ≈ 0.5 and ≈ e^−ε/2 (its noise is on a
   * fine grid, so P[Z ≥ 0] ≈ 1/2 rather than the count's 1/(1+e^−ε)), so at 1000 trials its
   * expected lower bound for ε/0.7 would be only ≈ 1.09; at 2000 it is ≈ 1.18 with standard
   * deviation ≈ 0.065, so a correct audit misses the violation with probability ≈ 0.3%.
   */
  @Test
  void audit_noiseThirtyPercentTooSmall_isDetected() {
    double[] lower = auditedEpsilon(1.0 / 0.7, 20261126L, 2 * TRIALS);
    for (double l : lower) {
      assertTrue(l > 1.0, "the audit must catch noise for ε/0.7 claimed as ε = 1, got " + l);
    }
  }
}
