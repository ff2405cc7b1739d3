package org.privet.sql;

import static org.privet.sql.R2TTestSupport.assertAlike;
import static org.privet.sql.R2TTestSupport.assertRejected;
import static org.privet.sql.R2TTestSupport.perOrder;
import static org.privet.sql.R2TTestSupport.releases;
import static org.privet.sql.R2TTestSupport.seeded;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.mechanisms.truncation.R2TMechanism;

/**
 * Statistical check of {@code truncation = 'R2T'} with GROUP BY (issue 25): the engine's releases
 * for one public group (nation "B", with the heavy customer), at max_groups_contributed = 3, have
 * the distribution of {@link R2TMechanism} with L0 = 3 (noise at ε/(L·3) per threshold) run on
 * that group's per-customer line item counts computed here from the fixture's Java lists ({@link
 * JoinFixture}); a noise scale that ignores L0, or a wrong per-group Q(I, τ), shifts it.
 *
 * <p>Two-sample Kolmogorov–Smirnov test, N = 300 releases each, critical value D = 1.949·√(2/N)
 * (α = 0.001; conservative for these discrete distributions): false-failure probability ≤ 0.001,
 * and 0 in practice with the fixed seeds. Power: the same test rejects R2T with 30% too little
 * noise (ε/0.7) against R2T at ε, R2T ignoring L0 (noise at ε/L, i.e. 3× too little), and R2T
 * truncating per order instead of per customer, fixed seeds.
 */
class R2TGroupByStatTest extends JoinNeighbours {
  private static final double EPSILON = 50;
  private static final long GS = 64;

  private static final int L0 = 3;

  /** Line items per customer of nation "B" (odd custkeys). */
  private static long[] groupB() {
    return d.lineitemsPerCustomer().entrySet().stream().filter(e -> d.nationOf(e.getKey()) == 1)
        .mapToLong(e -> e.getValue().longValue()).toArray();
  }

  /** R2T on group B's per-customer counts, at ε, L0, β = 0.05 (the session's default 95%). */
  private static double[] reference(double epsilon, long seed) {
    return reference(epsilon, seed, groupB(), L0);
  }

  private static double[] reference(double epsilon, long seed, long[] c, int l0) {
    R2TMechanism m = R2TMechanism.builder().epsilon(epsilon).globalSensitivity(GS).beta(0.05)
        .groupsPerUnit(l0).randomSource(seeded(seed)).build();
    return releases(m, c, 0);
  }

  @Test
  void engineReleases_distributedAsR2TOnTheReferenceCounts() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + EPSILON
        + ", truncation = 'R2T', truncation_bound = " + GS + ", max_groups_contributed = " + L0
        + ") name, COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) JOIN customer USING"
        + " (custkey) JOIN nation USING (nationkey) GROUP BY name";
    double[] engine = engineReleases(sql, res -> res.rows().stream()
        .filter(r -> r.key().equals(List.of("B"))).findFirst().orElseThrow().values().get("n"));
    assertAlike(engine, reference(EPSILON, 12));
  }

  @Test
  void power_thirtyPercentTooLittleNoise_isRejected() {
    assertRejected(reference(EPSILON, 13), reference(EPSILON / 0.7, 14));
  }

  @Test
  void power_noiseIgnoringL0_isRejected() {
    assertRejected(reference(EPSILON, 17), reference(EPSILON, 18, groupB(), 1));
  }

  @Test
  void power_truncationPerOrderInsteadOfPerCustomer_isRejected() {
    long[] wrong = perOrder(d, c -> d.nationOf(c) == 1, row -> 1L);
    assertRejected(reference(EPSILON, 15), reference(EPSILON, 16, wrong, L0));
  }
}
