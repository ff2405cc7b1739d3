package org.privet.sql;

import static org.privet.sql.R2TTestSupport.assertAlike;
import static org.privet.sql.R2TTestSupport.assertRejected;
import static org.privet.sql.R2TTestSupport.perOrder;
import static org.privet.sql.R2TTestSupport.releases;
import static org.privet.sql.R2TTestSupport.seeded;

import org.junit.jupiter.api.Test;
import org.privet.mechanisms.truncation.R2TMechanism;

/**
 * Statistical check of {@code truncation = 'R2T'} for SUM over a join (issue 25): the engine's
 * releases (DP SQL, DuckDB, one pass with one measure per threshold) have the distribution of
 * {@link R2TMechanism} (on the engine's public grid 2^-k) run on the per-customer totals of the
 * clamped quantities computed here from the fixture's Java lists ({@link JoinFixture}); a wrong
 * Q(I, τ) (e.g. truncating per order instead of per customer, or not at all) or a wrong noise scale
 * shifts it.
 *
 * <p>Two-sample Kolmogorov–Smirnov test, N = 300 releases each, critical value D = 1.949·√(2/N)
 * (α = 0.001; conservative for these discrete distributions): false-failure probability ≤ 0.001,
 * and 0 in practice with the fixed seeds. Power: the same test rejects R2T with 30% too little
 * noise (ε/0.7) against R2T at ε, and R2T truncating per order instead of per customer, fixed
 * seeds.
 */
class R2TSumStatTest extends JoinNeighbours {
  private static final double EPSILON = 50;
  private static final long GS = 64;

  private static final String SQL = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = "
      + EPSILON + ", truncation = 'R2T', truncation_bound = " + GS + ") SUM(quantity,"
      + " contribution_bounds_per_row => (0, 1.5)) AS s FROM lineitem JOIN orders USING"
      + " (orderkey) JOIN customer USING (custkey)";

  /** The engine's public grid exponent k (EXPLAIN states it), read from the compiled pass. */
  private static int gridExponent() {
    DpStatement st = DpSql.parse(SQL, d.catalog);
    return org.privet.engine.compile.R2TPass.compile(st.query(),
        db.describe(st.query().source()), 0).gridExponent();
  }

  /** Per customer Σ min(quantity, 1.5), as integers on the grid 2^-k (exact: 1 and 1.5). */
  private static long[] perCustomer(int k) {
    return R2TSumTest.clampedSumPerCustomer(d, 0, 1.5).values().stream()
        .mapToLong(c -> (long) Math.scalb(c, k)).toArray();
  }

  /** R2T on the fixture's per-customer totals, at ε, β = 0.05 (the session's default 95%). */
  private static double[] reference(double epsilon, long seed) {
    int k = gridExponent();
    return reference(epsilon, seed, perCustomer(k), k);
  }

  private static double[] reference(double epsilon, long seed, long[] c, int k) {
    R2TMechanism m = R2TMechanism.builder().epsilon(epsilon).globalSensitivity(GS).beta(0.05)
        .gridExponent(k).randomSource(seeded(seed)).build();
    return releases(m, c, k);
  }

  @Test
  void engineReleases_distributedAsR2TOnTheReferenceCounts() {
    double[] engine = engineReleases(SQL, r -> r.rows().get(0).values().get("s"));
    assertAlike(engine, reference(EPSILON, 12));
  }

  @Test
  void power_thirtyPercentTooLittleNoise_isRejected() {
    assertRejected(reference(EPSILON, 13), reference(EPSILON / 0.7, 14));
  }

  @Test
  void power_truncationPerOrderInsteadOfPerCustomer_isRejected() {
    int k = gridExponent();
    long[] wrong = perOrder(d, c -> true,
        row -> (long) Math.scalb(Math.min(1.5, (Double) row.get(1)), k));
    assertRejected(reference(EPSILON, 15), reference(EPSILON, 16, wrong, k));
  }
}
