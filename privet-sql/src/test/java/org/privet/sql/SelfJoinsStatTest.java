package org.privet.sql;

import static org.privet.sql.R2TTestSupport.assertAlike;
import static org.privet.sql.R2TTestSupport.assertRejected;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.privet.mechanisms.truncation.R2TMechanism;

/**
 * Statistical check of a private self-join (issue 25; {@code docs/proofs/r2t-truncation.md},
 * "Self-joins"): {@code COUNT(*) FROM orders o1 JOIN orders o2 USING (custkey)} with {@code
 * truncation = 'R2T'} (the engine-chosen bound; DP SQL, DuckDB, each side capped per unit before
 * the join) has the distribution of {@link R2TMechanism} run on the per-customer contributions
 * c_u = n_u² (n_u the customer's orders) computed here from the fixture's Java lists ({@link
 * JoinFixture}). The cap m = 2^⌈log2 GS⌉ = GS per side changes no min(c_u, τ_j); a noise scale or
 * a contribution that ignored the self-join's product shifts the distribution.
 *
 * <p>Two-sample Kolmogorov–Smirnov test, N = 300 releases each, critical value D = 1.949·√(2/N)
 * (α = 0.001; conservative for these discrete distributions): false-failure probability ≤ 0.001,
 * and 0 in practice with the fixed seeds. Power: the same test rejects R2T with 30% too little
 * noise (ε/0.7) against R2T at ε, and R2T on c_u = n_u (one row per order, as if the join did not
 * multiply a unit's rows), fixed seeds.
 */
class SelfJoinsStatTest extends JoinNeighbours {
  private static final double EPSILON = 50;
  private static final long GS = 64;

  private static long[] contributions(boolean squared) {
    Map<Long, Long> n = new TreeMap<>();
    d.orders.forEach(o -> n.merge((Long) o.get(1), 1L, Long::sum));
    return n.values().stream().mapToLong(k -> squared ? k * k : k).toArray();
  }

  private static double[] reference(double epsilon, long seed, long[] c) {
    return R2TTestSupport.r2tReleases(epsilon, GS, seed, c);
  }

  @Test
  void engineReleases_distributedAsR2TOnTheSquaredOrderCounts() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + EPSILON
        + ", truncation = 'R2T', truncation_bound = " + GS + ") COUNT(*) AS n FROM orders o1 JOIN"
        + " orders o2 USING (custkey)";
    double[] engine = engineReleases(sql, r -> r.rows().get(0).values().get("n"));
    assertAlike(engine, reference(EPSILON, 22, contributions(true)));
  }

  @Test
  void power_thirtyPercentTooLittleNoise_isRejected() {
    assertRejected(reference(EPSILON, 23, contributions(true)),
        reference(EPSILON / 0.7, 24, contributions(true)));
  }

  @Test
  void power_contributionsWithoutTheSelfJoinsProduct_areRejected() {
    assertRejected(reference(EPSILON, 25, contributions(true)),
        reference(EPSILON, 26, contributions(false)));
  }
}
