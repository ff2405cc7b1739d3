package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.privet.engine.Estimate;

/**
 * {@code truncation = 'R2T'} for SUM over joins on DuckDB (issue 25): each unit's total of the
 * clamped values (over its joined rows) truncated at the public thresholds 2^j, the best chosen
 * privately (R2T, Dong et al. SIGMOD 2022), one charge. References are computed here from the
 * fixture's Java lists ({@link JoinFixture}): per customer c_u = Σ clamp(quantity, lower, upper)
 * over the customer's line items, then Σ_u min(c_u, τ), never by the engine.
 *
 * <p>False-failure probability: ε = 10^12, so every threshold's noise scale is below 10^-9 grid
 * steps and R2T's bias ⌈t·ln(L/β)⌉ is one grid step 2^-k (k ≤ 20): the answer is the best
 * threshold's truncated sum minus at most 2^-20 (the tolerance); deterministic with the fixed seed.
 */
class R2TSumTest extends JoinNeighbours {
  /** Per customer: Σ clamp(quantity, lower, upper) over the line items whose order exists. */
  static Map<Long, Double> clampedSumPerCustomer(JoinFixture f, double lower, double upper) {
    Map<Long, Double> m = new TreeMap<>();
    for (List<?> l : f.lineitem) {
      Long c = l.get(0) == null ? null : f.customerOf(l.get(0));
      if (c != null) {
        m.merge(c, Math.min(upper, Math.max(lower, (Double) l.get(1))), Double::sum);
      }
    }
    return m;
  }

  private static double truncated(JoinFixture f, double lower, double upper, double tau) {
    return clampedSumPerCustomer(f, lower, upper).values().stream()
        .mapToDouble(c -> Math.min(c, tau)).sum();
  }

  private static final String R2T = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
      + " truncation = 'R2T'";
  private static final double TOLERANCE = 0x1p-20;

  @Test
  void hugeEpsilon_join_releasesTheBestThresholdsTruncatedSum_withoutInterval() {
    // GS = 64: the heavy customer's total (40 orders) is above 64 and truncated there.
    String sql = R2T + ", truncation_bound = 64) SUM(quantity, contribution_bounds_per_row =>"
        + " (0, 1.5)) AS s FROM lineitem JOIN orders USING (orderkey) JOIN customer USING"
        + " (custkey)";
    double expected = truncated(d, 0, 1.5, 64);
    assertTrue(expected < truncated(d, 0, 1.5, Double.MAX_VALUE), "the heavy unit is truncated");
    assertTrue(expected % 1 != 0, "halves exercise the fixed-point grid: " + expected);
    Estimate e = value(sql, d);
    assertTrue(e.value() <= expected && e.value() >= expected - TOLERANCE, e + " vs " + expected);
    assertTrue(!e.hasInterval(), e.toString());
  }

  @Test
  void hugeEpsilon_smallBound_truncatesEachUnitsTotalAtTheTopThreshold() {
    // GS = 4: thresholds {2, 4}; every customer's total of quantity ∈ [1, 3] capped at 4. Only
    // lineitem: the unit is derived through the registered references.
    String sql = R2T + ", truncation_bound = 4) SUM(quantity, contribution_bounds_per_row =>"
        + " (1, 3)) AS s FROM lineitem";
    double expected = truncated(d, 1, 3, 4);
    assertTrue(expected < truncated(d, 1, 3, Double.MAX_VALUE));
    double v = value(sql, d).value();
    assertTrue(v <= expected && v >= expected - TOLERANCE, v + " vs " + expected);
  }

  @Test
  void hugeEpsilon_filterOnTheJoin_appliesBeforeTheUnitsTotals() {
    String sql = R2T + ", truncation_bound = 1000) SUM(quantity, contribution_bounds_per_row =>"
        + " (0, 3)) AS s FROM lineitem JOIN orders USING (orderkey) WHERE totalprice <= 2";
    // Orders with totalprice k + 1 ≤ 2: each customer's first two orders; no truncation binds.
    double expected = 0;
    for (List<?> l : d.lineitem) {
      for (List<?> o : d.orders) {
        if (l.get(0) != null && o.get(0).equals(l.get(0)) && (Double) o.get(2) <= 2) {
          expected += Math.min(3, (Double) l.get(1));
        }
      }
    }
    double v = value(sql, d).value();
    assertTrue(v <= expected && v >= expected - TOLERANCE, v + " vs " + expected);
  }

  @Test
  void explain_showsMethodThresholdsGridAndCost_identicalOnNeighbours() {
    String sql = R2T.replace("1e12", "1") + ", truncation_bound = 100) SUM(quantity,"
        + " contribution_bounds_per_row => (0, 2)) AS s FROM lineitem JOIN orders USING"
        + " (orderkey)";
    String a = explainAlikeOnNeighbours(sql);
    assertTrue(a.contains("R2T") && a.contains("τ ∈ {2, 4, 8, 16, 32, 64, 128}")
        && a.contains("total of quantity") && a.contains("clamped to [0.0, 2.0]")
        && a.contains("ε = 1.0 in total") && a.contains("one-sided bound only")
        && a.contains("one measure per τ"), a);
    assertNoIntervalOnNeighbours(sql);
  }


  /** A refused query and the option or function its message must name. */
  private static final List<String[]> REFUSALS = List.of(
      new String[] {R2T + ") SUM(quantity, contribution_bounds_per_row => (-1, 5)) AS s FROM"
          + " lineitem", "lower bound ≥ 0"},
      new String[] {R2T + ") SUM(quantity, contribution_bounds_per_group => (0, 5)) AS s FROM"
          + " lineitem", "contribution_bounds_per_group conflicts"},
      new String[] {R2T + ") SUM(quantity) AS s FROM lineitem", "public per-row bounds"},
      new String[] {R2T + ") SUM(quantity, contribution_bounds_per_row => AUTO) AS s FROM"
          + " lineitem", "public per-row bounds"},
      new String[] {R2T + ") SUM(DISTINCT quantity) AS s FROM lineitem", "DISTINCT"},
      new String[] {R2T + ") SUM(quantity, contribution_bounds_per_row => (0, 5)) AS s,"
          + " COUNT(*) AS n FROM lineitem", "exactly one"},
      new String[] {R2T + ", truncation_bound = 2000000000000) SUM(quantity,"
          + " contribution_bounds_per_row => (0, 5)) AS s FROM lineitem", "truncation_bound"},
      new String[] {R2T + ", truncation_bound = 2000000) COUNT(*) AS n FROM lineitem",
          "truncation_bound must be an integer in [2, 1048576]"},
      new String[] {R2T + ") SUM(quantity, contribution_bounds_per_row => (0, 5)) AS s FROM"
          + " lineitem JOIN orders USING (orderkey) GROUP BY orderkey", "GROUP BY"});

  @Test
  void refusals_nameTheOptionOrFunction_identicalOnNeighbours_beforeAnyCharge() {
    R2TTestSupport.assertRefusedAlike(REFUSALS, d, dPrime);
  }

  @Test
  void neighbours_heavyVictim_sameShapeAndNoError() {
    String sql = R2T.replace("1e12", "0.5") + ") SUM(quantity, contribution_bounds_per_row =>"
        + " (0, 3)) AS s FROM lineitem JOIN orders USING (orderkey) JOIN customer USING"
        + " (custkey)";
    for (JoinFixture f : List.of(d, dPrime)) {
      DpStatement st = DpSql.parse(sql, f.catalog);
      var present = st.present(session().run(st.query()));
      assertEquals(1, present.rows().size());
      assertEquals(1, present.rows().get(0).size());
      assertTrue(!((Estimate) present.rows().get(0).get(0)).hasInterval());
    }
  }
}
