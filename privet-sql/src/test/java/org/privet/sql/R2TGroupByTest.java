package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.privet.engine.Estimate;
import org.privet.engine.Result;

/**
 * {@code truncation = 'R2T'} with GROUP BY over public groups on DuckDB (issue 25): one R2T per
 * listed group over each unit's contribution in that group (R2T, Dong et al. SIGMOD 2022), each
 * threshold's noise at ε/(L·L0). References are computed here from the fixture's Java lists
 * ({@link JoinFixture}): per group Σ_u min(c_{u,g}, τ), never by the engine.
 *
 * <p>False-failure probability: ε = 10^12, so with L0 ≤ 50 every noise scale is below 10^-6 grid
 * steps and each bias is one grid step: each group's answer is its best threshold's truncated
 * value minus at most one step (the tolerance); deterministic with the fixed seed.
 */
class R2TGroupByTest extends JoinNeighbours {
  /** Released value per group key (the first output column), in the released order. */
  private static Map<Object, Double> values(String sql, JoinFixture f) {
    DpStatement st = DpSql.parse(sql, f.catalog);
    Result r = session().run(st.query());
    Map<Object, Double> out = new java.util.LinkedHashMap<>();
    for (List<Object> row : st.present(r).rows()) {
      Estimate e = (Estimate) row.get(1);
      assertTrue(!e.hasInterval(), e.toString());
      out.put(row.get(0), e.value());
    }
    return out;
  }

  private static final String R2T = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
      + " truncation = 'R2T'";

  /** Per nation name: Σ over its customers of min(line items, τ); "C" has no customer. */
  private static Map<Object, Double> countPerNation(JoinFixture f, long tau) {
    Map<Object, Double> out = new TreeMap<>(Map.of("A", 0.0, "B", 0.0, "C", 0.0));
    for (Map.Entry<Long, Integer> e : f.lineitemsPerCustomer().entrySet()) {
      out.merge(f.nationOf(e.getKey()) == 0 ? "A" : "B", (double) Math.min(e.getValue(), tau),
          Double::sum);
    }
    return out;
  }

  @Test
  void hugeEpsilon_countByPublicTableGroup_eachNationsTruncatedCount_allListedGroups() {
    String sql = R2T + ", truncation_bound = 16) name, COUNT(*) AS n FROM lineitem JOIN orders"
        + " USING (orderkey) JOIN customer USING (custkey) JOIN nation USING (nationkey) GROUP BY"
        + " name";
    Map<Object, Double> expected = countPerNation(d, 16);
    assertTrue(!expected.equals(countPerNation(d, Long.MAX_VALUE)), "the heavy unit is truncated");
    Map<Object, Double> got = values(sql, d);
    assertEquals(expected.keySet(), new java.util.TreeSet<>(got.keySet()));
    for (Object k : expected.keySet()) {
      assertTrue(got.get(k) <= expected.get(k) && got.get(k) >= expected.get(k) - 1,
          k + ": " + got + " vs " + expected);
    }
  }

  @Test
  void hugeEpsilon_sumByListedPublicGroups_unitInManyGroups_perGroupTruncation() {
    // Groups: an order's totalprice (k + 1 for its k-th order), listed publicly 1..5 and 99; a
    // customer has line items in up to 40 groups (the heavy one), L0 = 50 never binds. Per group
    // g: Σ_u min(Σ clamp(quantity, 0, 2) over u's line items of orders priced g, τ = 4).
    String sql = R2T + ", truncation_bound = 4, max_groups_contributed = 50, public_groups ="
        + " (1, 2, 3, 4, 5, 99)) totalprice, SUM(quantity, contribution_bounds_per_row => (0, 2))"
        + " AS s FROM lineitem JOIN orders USING (orderkey) GROUP BY totalprice";
    Map<Double, Map<Long, Double>> perGroupUnit = new HashMap<>();
    for (List<?> l : d.lineitem) {
      for (List<?> o : d.orders) {
        if (l.get(0) != null && o.get(0).equals(l.get(0))) {
          perGroupUnit.computeIfAbsent((Double) o.get(2), x -> new HashMap<>())
              .merge((Long) o.get(1), Math.min(2, (Double) l.get(1)), Double::sum);
        }
      }
    }
    Map<Object, Double> got = values(sql, d);
    assertEquals(6, got.size(), got.toString());
    boolean truncates = false;
    for (double g : new double[] {1, 2, 3, 4, 5, 99}) {
      Map<Long, Double> units = perGroupUnit.getOrDefault(g, Map.of());
      double expected = units.values().stream().mapToDouble(c -> Math.min(c, 4)).sum();
      truncates |= units.values().stream().anyMatch(c -> c > 4);
      double v = got.entrySet().stream().filter(e -> ((Number) e.getKey()).doubleValue() == g)
          .findFirst().orElseThrow().getValue();
      assertTrue(v <= expected && v >= expected - 0x1p-20, g + ": " + v + " vs " + expected);
    }
    assertTrue(truncates, "a unit's total in some group is above τ = 4");
  }

  @Test
  void hugeEpsilon_privateGroupsWithDelta_selectedGroupsEachTruncated() {
    // Private groups (an order's totalprice, k + 1 for a customer's k-th order), delta = 1e-6:
    // optimal partition selection at ε/10 = 10^11 keeps a group of n units with probability
    // p(1) ≤ δ and p(n ≥ 2) = 1, so exactly the groups of two or more customers (1..4; 5..40
    // hold only the heavy customer) are released, each R2T'd per customer. False-failure
    // probability ≤ 36·10^-6 (a one-unit group kept); deterministic with the fixed seed.
    String sql = R2T + ", delta = 1e-6, truncation_bound = 4, max_groups_contributed = 50)"
        + " totalprice, COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) GROUP BY"
        + " totalprice";
    Map<Double, Map<Long, Long>> perGroupUnit = new HashMap<>();
    for (List<?> l : d.lineitem) {
      for (List<?> o : d.orders) {
        if (l.get(0) != null && o.get(0).equals(l.get(0))) {
          perGroupUnit.computeIfAbsent((Double) o.get(2), x -> new HashMap<>())
              .merge((Long) o.get(1), 1L, Long::sum);
        }
      }
    }
    perGroupUnit.values().removeIf(units -> units.size() < 2);
    assertEquals(4, perGroupUnit.size());
    Map<Object, Double> got = values(sql, d);
    assertEquals(perGroupUnit.keySet(), got.keySet().stream()
        .map(k -> ((Number) k).doubleValue()).collect(java.util.stream.Collectors.toSet()));
    for (Map.Entry<Object, Double> e : got.entrySet()) {
      double expected = perGroupUnit.get(((Number) e.getKey()).doubleValue()).values().stream()
          .mapToDouble(c -> Math.min(c, 4)).sum();
      assertTrue(e.getValue() <= expected && e.getValue() >= expected - 1,
          e.getKey() + ": " + e.getValue() + " vs " + expected);
    }
    String plan = explainAlikeOnNeighbours(sql);
    assertTrue(plan.contains("optimal partition selection") && plan.contains("in each selected"
        + " group"), plan);
  }

  @Test
  void explain_showsPerGroupR2TAndL0_identicalOnNeighbours() {
    String sql = R2T.replace("1e12", "1") + ", truncation_bound = 100, max_groups_contributed"
        + " = 2) name, COUNT(*) AS n FROM lineitem JOIN orders USING (orderkey) JOIN customer"
        + " USING (custkey) JOIN nation USING (nationkey) GROUP BY name";
    String a = explainAlikeOnNeighbours(sql);
    assertTrue(a.contains("in each public group") && a.contains("L0 = 2")
        && a.contains("ε/(7·2)") && a.contains("ε = 1.0 in total"), a);
    Map<Object, Double> va = values(sql, d);
    Map<Object, Double> vb = values(sql, dPrime);
    assertEquals(List.copyOf(va.keySet()), List.copyOf(vb.keySet()), "same groups, same order");
  }


  private static final List<String[]> REFUSALS = List.of(
      new String[] {R2T + ") nationkey, COUNT(*) AS n FROM orders JOIN customer USING (custkey)"
          + " GROUP BY nationkey", "needs public groups"},
      new String[] {R2T + ") totalprice, COUNT(*) AS n FROM orders GROUP BY totalprice",
          "or delta > 0 for private group selection"},
      new String[] {R2T + ", delta = 1e-6, public_groups = (1, 2)) totalprice, COUNT(*) AS n"
          + " FROM orders GROUP BY totalprice", "delta conflicts"},
      new String[] {R2T + ", public_groups = (1, 2), min_privacy_units_per_group = 3)"
          + " totalprice, COUNT(*) AS n FROM orders GROUP BY totalprice",
          "min_privacy_units_per_group"},
      new String[] {R2T + ", max_groups_contributed = 2) COUNT(*) AS n FROM orders",
          "max_groups_contributed"});

  @Test
  void refusals_nameTheOptionOrClause_identicalOnNeighbours_beforeAnyCharge() {
    R2TTestSupport.assertRefusedAlike(REFUSALS, d, dPrime);
  }
}
