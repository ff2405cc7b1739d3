package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privet.sql.R2TTestSupport.CRITICAL;
import static org.privet.sql.R2TTestSupport.N;
import static org.privet.sql.R2TTestSupport.ks;
import static org.privet.sql.R2TTestSupport.seeded;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.UnitContributions;
import org.privet.testing.SeededRandomSource;

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
class R2TGroupByStatTest {
  private static final double EPSILON = 50;
  private static final long GS = 64;

  private static DuckDbBackend db;
  private static JoinFixture d;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    d = new JoinFixture(db, 0, "s_");
  }

  @AfterAll
  static void close() {
    db.close();
  }


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
    double[] out = new double[N];
    for (int i = 0; i < N; i++) {
      out[i] = m.release(UnitContributions.of(c)).value();
    }
    return out;
  }


  @Test
  void engineReleases_distributedAsR2TOnTheReferenceCounts() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + EPSILON
        + ", truncation = 'R2T', truncation_bound = " + GS + ", max_groups_contributed = " + L0
        + ") name, COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) JOIN customer USING"
        + " (custkey) JOIN nation USING (nationkey) GROUP BY name";
    DpStatement st = DpSql.parse(sql, d.catalog);
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(11)).build();
    double[] engine = new double[N];
    for (int i = 0; i < N; i++) {
      Estimate e = s.run(st.query()).rows().stream().filter(r -> r.key().equals(List.of("B")))
          .findFirst().orElseThrow().values().get("n");
      engine[i] = e.value();
    }
    double dStat = ks(engine, reference(EPSILON, 12));
    assertTrue(dStat < CRITICAL, "KS D = " + dStat + " ≥ " + CRITICAL);
  }

  @Test
  void power_thirtyPercentTooLittleNoise_isRejected() {
    double dStat = ks(reference(EPSILON, 13), reference(EPSILON / 0.7, 14));
    assertTrue(dStat >= CRITICAL, "KS D = " + dStat + " < " + CRITICAL);
  }

  @Test
  void power_noiseIgnoringL0_isRejected() {
    double dStat = ks(reference(EPSILON, 17), reference(EPSILON, 18, groupB(), 1));
    assertTrue(dStat >= CRITICAL, "KS D = " + dStat + " < " + CRITICAL);
  }

  @Test
  void power_truncationPerOrderInsteadOfPerCustomer_isRejected() {
    java.util.Map<Object, Long> perOrder = new java.util.HashMap<>();
    for (java.util.List<?> row : d.lineitem) {
      if (row.get(0) != null && d.customerOf(row.get(0)) != null
          && d.nationOf(d.customerOf(row.get(0))) == 1) {
        perOrder.merge(row.get(0), 1L, Long::sum);
      }
    }
    long[] wrong = perOrder.values().stream().mapToLong(Long::longValue).toArray();
    double dStat = ks(reference(EPSILON, 15), reference(EPSILON, 16, wrong, L0));
    assertTrue(dStat >= CRITICAL, "KS D = " + dStat + " < " + CRITICAL);
  }
}
