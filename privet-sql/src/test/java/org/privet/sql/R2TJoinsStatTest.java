package org.privet.sql;

import static org.privet.sql.R2TTestSupport.assertAlike;
import static org.privet.sql.R2TTestSupport.assertRejected;
import static org.privet.sql.R2TTestSupport.perOrder;

import org.junit.jupiter.api.Test;
import org.privet.mechanisms.truncation.R2TMechanism;

/**
 * Statistical check of {@code truncation = 'R2T'} over a join (issue 25): the engine's releases
 * (DP SQL, DuckDB, one pass per threshold) have the distribution of {@link R2TMechanism} run on
 * the per-customer line item counts computed here from the fixture's Java lists ({@link
 * JoinFixture}); a wrong Q(I, τ) (e.g. truncating per order instead of per customer, or not at
 * all) or a wrong noise scale shifts it.
 *
 * <p>Two-sample Kolmogorov–Smirnov test, N = 300 releases each, critical value D = 1.949·√(2/N)
 * (α = 0.001; conservative for these discrete distributions): false-failure probability ≤ 0.001,
 * and 0 in practice with the fixed seeds. Power: the same test rejects R2T with 30% too little
 * noise (ε/0.7) against R2T at ε, and R2T truncating per order instead of per customer, fixed
 * seeds.
 */
class R2TJoinsStatTest extends JoinNeighbours {
  private static final double EPSILON = 50;
  private static final long GS = 64;

  /** R2T on the fixture's per-customer counts, at ε, β = 0.05 (the session's default 95%). */
  private static double[] reference(double epsilon, long seed) {
    return reference(epsilon, seed,
        d.lineitemsPerCustomer().values().stream().mapToLong(Integer::longValue).toArray());
  }

  private static double[] reference(double epsilon, long seed, long[] c) {
    return R2TTestSupport.r2tReleases(epsilon, GS, seed, c);
  }

  @Test
  void engineReleases_distributedAsR2TOnTheReferenceCounts() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + EPSILON
        + ", truncation = 'R2T', truncation_bound = " + GS + ") COUNT(*) AS n FROM lineitem JOIN"
        + " orders USING (orderkey) JOIN customer USING (custkey)";
    double[] engine = engineReleases(sql, r -> r.rows().get(0).values().get("n"));
    assertAlike(engine, reference(EPSILON, 12));
  }

  @Test
  void power_thirtyPercentTooLittleNoise_isRejected() {
    assertRejected(reference(EPSILON, 13), reference(EPSILON / 0.7, 14));
  }

  @Test
  void power_truncationPerOrderInsteadOfPerCustomer_isRejected() {
    long[] wrong = perOrder(d, c -> true, row -> 1L);
    assertRejected(reference(EPSILON, 15), reference(EPSILON, 16, wrong));
  }
}
