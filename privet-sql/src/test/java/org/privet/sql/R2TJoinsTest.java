package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.Estimate;

/**
 * {@code truncation = 'R2T'} over joins on DuckDB (issue 25): each unit's joined rows truncated at
 * the public thresholds 2^j, the best chosen privately (R2T, Dong et al. SIGMOD 2022), one charge.
 * References are computed here from the fixture's Java lists ({@link JoinFixture}): the per-unit
 * truncated count Σ_u min(c_u, τ), never by the engine.
 *
 * <p>False-failure probability: ε = 10^12, so every threshold's noise scale is below 10^-9 and R2T's
 * bias ⌈t·ln(L/β)⌉ is 1 row: the answer is the best threshold's truncated count minus at most one
 * (the tolerance); deterministic with the fixed seed.
 */
class R2TJoinsTest extends JoinNeighbours {
  private static double truncated(JoinFixture f, long tau) {
    return f.lineitemsPerCustomer().values().stream().mapToLong(n -> Math.min(n, tau)).sum();
  }

  private static final String R2T = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
      + " truncation = 'R2T'";

  @Test
  void hugeEpsilon_join_releasesTheBestThresholdsCount_withoutInterval() {
    String sql = R2T + ") COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) JOIN customer"
        + " USING (custkey)";
    double full = truncated(d, Long.MAX_VALUE); // the heavy customer's 80 rows untruncated
    assertTrue(DpSql.parse(sql, d.catalog).differences().isEmpty(),
        DpSql.parse(sql, d.catalog).differences().toString());
    Estimate e = value(sql, d);
    assertTrue(e.value() <= full && e.value() >= full - 1, e + " vs " + full);
    assertTrue(!e.hasInterval(), e.toString());
  }

  @Test
  void hugeEpsilon_smallBound_truncatesEachUnitsJoinedRowsAtTheTopThreshold() {
    // GS = 4: thresholds {2, 4}; the best is τ = 4, every customer's line items capped at 4.
    String sql = R2T + ", truncation_bound = 4) COUNT(*) AS n FROM lineitem";
    double expected = truncated(d, 4);
    assertTrue(expected < truncated(d, Long.MAX_VALUE));
    double v = value(sql, d).value();
    assertTrue(v <= expected && v >= expected - 1, v + " vs " + expected);
  }

  @Test
  void explain_showsMethodThresholdsAndCost_identicalOnNeighbours() {
    String sql = R2T.replace("1e12", "1") + ", truncation_bound = 100) COUNT(*) AS n FROM lineitem"
        + " JOIN orders USING (orderkey)";
    String a = explainAlikeOnNeighbours(sql);
    assertTrue(a.contains("R2T") && a.contains("τ ∈ {2, 4, 8, 16, 32, 64, 128}")
        && a.contains("ε = 1.0 in total") && a.contains("one-sided bound only"), a);
    assertNoIntervalOnNeighbours(sql);
  }


  /** A refused query and the option or function its message must name. */
  private static final List<String[]> REFUSALS = List.of(
      new String[] {R2T + ") nationkey, COUNT(*) AS n FROM orders JOIN customer USING (custkey)"
          + " GROUP BY nationkey", "GROUP BY"},
      new String[] {R2T + ") AVG(quantity, contribution_bounds_per_row => (0, 5)) AS s FROM"
          + " lineitem", "AVG"},
      new String[] {R2T + ") COUNT(*) AS n, COUNT(*) AS m FROM lineitem", "exactly one"},
      new String[] {R2T + ") COUNT(DISTINCT custkey) AS n FROM orders", "COUNT(DISTINCT"},
      new String[] {R2T + ", max_rows_per_group = 3) COUNT(*) AS n FROM lineitem",
          "max_rows_per_group"},
      new String[] {R2T + ", delta = 1e-6) COUNT(*) AS n FROM lineitem", "delta"},
      new String[] {R2T + ", truncation_bound = 1) COUNT(*) AS n FROM lineitem",
          "truncation_bound"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, truncation = 'TOP')"
          + " COUNT(*) AS n FROM lineitem", "truncation must be 'R2T'"},
      new String[] {"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, truncation_bound = 8)"
          + " COUNT(*) AS n FROM lineitem", "truncation_bound applies only"});

  @Test
  void refusals_nameTheOptionOrFunction_identicalOnNeighbours_beforeAnyCharge() {
    R2TTestSupport.assertRefusedAlike(REFUSALS, d, dPrime);
  }
}
