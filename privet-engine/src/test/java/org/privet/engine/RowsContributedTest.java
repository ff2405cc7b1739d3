package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.privet.accounting.Budget;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * A total row cap per privacy unit ({@link Query.Builder#maxRowsContributed}, ZetaSQL's {@code
 * max_rows_contributed}; {@code docs/proofs/rows-contributed.md}): the builder's refusals, the
 * sensitivities each release states (computed here from the definition: m rows in all), the
 * noise actually drawn, and neighbouring tables.
 *
 * <p>Noise-scale test ({@link #count_noiseIsForSensitivityM_notM2}): 100 public groups of 100
 * one-row units (true count 100, known), COUNT(*) with a cap m = 8 at ε = 1, 20 runs: N = 2000
 * noise draws X = released − 100. A discrete Laplace of scale t = Δ/ε, p = e^{−1/t}, has E|X| =
 * 2p/(1 − p²) and Var X = 2p/(1 − p)²; the test accepts iff |mean|X| − E|X|| ≤ 4·sd(|X|)/√N for
 * t = 8. False-failure probability ≈ 6·10⁻⁵ (normal approximation at N = 2000; fixed seeds, so 0
 * in practice). Power, shown on the engine itself: the same rule rejects the runs at ε = 1/0.7
 * (30% too little noise for Δ = 8: E|X| = 5.57 against 7.98, 13 standard errors) and the runs of
 * the old reading of the option (L0 = L∞ = 8, Δ = 64).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RowsContributedTest {
  private static final int M = 8;
  private static final int GROUPS = 100;
  private static final int RUNS = 20;
  private DuckDbBackend db;
  private DuckDbBackend neighbour;
  private final List<Object> keys = new ArrayList<>();

  @BeforeAll
  void open() {
    db = DuckDbBackend.inMemory();
    neighbour = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (int g = 0; g < GROUPS; g++) {
      keys.add("g" + g);
      for (int u = 0; u < 100; u++) {
        rows.add(Arrays.asList((long) (g * 100 + u), "g" + g, 1.0));
      }
    }
    TestTables.register(db, "t", rows);
    // The neighbour: one more unit with 500 rows of 1000 over 50 groups.
    List<List<?>> plus = new ArrayList<>(rows);
    for (int r = 0; r < 500; r++) {
      plus.add(Arrays.asList(999_999L, "g" + (r % 50), 1000.0));
    }
    TestTables.register(neighbour, "t", plus);
  }

  @AfterAll
  void close() {
    db.close();
    neighbour.close();
  }

  private static Session session(DuckDbBackend b, long seed) {
    return Session.builder().backend(b).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).build();
  }

  private Query.Builder capped(int m) {
    return Query.from("t").privacyUnit("uid").maxRowsContributed(m).groupBy("g")
        .publicGroups(keys.toArray());
  }

  /** The sensitivity each mechanism of {@code q}'s plan states, in plan order. */
  private List<Double> sensitivities(Query q) {
    return session(db, 1).explain(q).mechanisms().stream()
        .map(Plan.PlannedMechanism::sensitivity).toList();
  }

  @Test
  void builder_conflictsAndRanges_areRefusedNamingTheParameter() {
    assertThrows(IllegalArgumentException.class, () -> Query.from("t").maxRowsContributed(0));
    assertThrows(IllegalArgumentException.class,
        () -> Query.from("t").maxRowsContributed(1_000_001));
    for (java.util.function.UnaryOperator<Query.Builder> other : List.<java.util.function
        .UnaryOperator<Query.Builder>>of(b -> b.maxGroupsContributed(2), b -> b.maxRowsPerGroup(2),
            b -> b.estimateMaxRowsPerGroup())) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> other.apply(Query.from("t").privacyUnit("uid").maxRowsContributed(3).count("n")
              .budget(Budget.pure(1))).build());
      assertTrue(e.getMessage().startsWith("maxRowsContributed conflicts with"), e.getMessage());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Query.from("t").eachRowIsAUnit().maxRowsContributed(3).count("n")
            .budget(Budget.pure(1)).build());
    assertTrue(e.getMessage().contains("privacyUnit"), e.getMessage());
    // Both L0 and L∞ read m (loose but valid bounds for every reader of them).
    Query q = capped(5).count("n").budget(Budget.pure(1)).build();
    assertEquals(5, q.maxRowsContributed());
    assertEquals(5, q.maxGroupsContributed());
    assertEquals(5, q.maxRowsPerGroup());
  }

  @Test
  void sensitivities_areThoseOfMRowsInAll() {
    // Independent reference: a unit's m rows, however spread over groups, change a count by m
    // in L1 and L2, a sum of values in [0, 4] by 4m; it is in at most m groups, so a count of
    // distinct units changes by m in L1 and √m in L2; a quantile tree of H levels by m·H and m·√H.
    Budget pure = Budget.pure(1);
    Budget rho = Budget.zcdp(0.5);
    assertEquals(List.of((double) M), sensitivities(capped(M).count("n").budget(pure).build()));
    assertEquals(List.of((double) M), sensitivities(capped(M).count("n").budget(rho).build()));
    assertEquals(List.of(4.0 * M), sensitivities(capped(M).sum("s", "x", 0, 4).budget(pure)
        .build()));
    assertEquals(List.of(4.0 * M), sensitivities(capped(M).sum("s", "x", 0, 4).budget(rho)
        .build()));
    assertEquals(List.of((double) M), sensitivities(capped(M).countDistinctUnits("d")
        .budget(pure).build()));
    Plan distinct = session(db, 1).explain(capped(M).countDistinctUnits("d").budget(rho).build());
    assertEquals(3.0, distinct.mechanisms().get(0).sensitivity(), "⌈√8⌉");
    assertTrue(distinct.mechanisms().get(0).cost().mechanism().contains("Δ₂=√8"),
        "σ² calibrated to Δ₂² = m = 8 exactly: " + distinct.mechanisms().get(0).cost().mechanism());
    // The old reading (L0 = L∞ = m) states m² for the count: the same query differs.
    assertEquals(List.of((double) M * M), sensitivities(Query.from("t").privacyUnit("uid")
        .maxGroupsContributed(M).maxRowsPerGroup(M).groupBy("g").publicGroups(keys.toArray())
        .count("n").budget(pure).build()));
    Plan tree = session(db, 1).explain(capped(M).quantiles("q", "x", 0, 16, 0.5).budget(rho)
        .build());
    String mech = tree.mechanisms().get(0).cost().mechanism();
    int h = org.privet.engine.release.QuantileTree.forCells(Aggregation.Quantiles.DEFAULT_BINS)
        .levels();
    assertTrue(mech.contains("Δ₂=√" + (long) M * M * h) || mech.contains("Δ₂=" + M * (long)
        Math.sqrt(h)), "L2² = m²·H = " + (M * M * h) + ": " + mech);
    String shown = session(db, 1).explain(capped(M).count("n").budget(pure).build()).render();
    assertTrue(shown.contains("max rows contributed = 8 (ZetaSQL's max_rows_contributed)"), shown);
  }

  @Test
  void sensitivities_pairClampedSum_boundEachPairAndTheTotal() {
    // Rows in [0, 10], each unit's total in a group clamped to [0, 3] (capped clamp): a pair of k
    // rows adds at most min(10k, 3), so m = 8 rows over 8 groups add 8·3 = 24 (not 3, nor 80).
    Query q = capped(M).sum("s", "x", 0, 10, Aggregation.GroupBounds.of(0, 3)).budget(
        Budget.pure(1)).build();
    assertEquals(24.0, sensitivities(q).get(0), 1e-9);
    // Group bounds [0, 25]: f(k) = min(10k, 25) (10, 20, 25, 25, ...); L1 = m·max f(k)/k = 80
    // (eight one-row groups), and L2² ≤ max f · L1 = 25·80 = 2000, stated exactly (the true
    // worst, rows 3 + 3 + 2, is √1650: the bound is valid, if not tight).
    Aggregation.GroupBounds gb = Aggregation.GroupBounds.of(0, 25);
    assertEquals(80.0, sensitivities(capped(M).sum("s", "x", 0, 10, gb).budget(Budget.pure(1))
        .build()).get(0), 1e-9);
    assertEquals(Math.sqrt(2000), sensitivities(capped(M).sum("s", "x", 0, 10, gb)
        .budget(Budget.zcdp(1)).build()).get(0), 1e-3, "⌈L2⌉ on the grid, in value units");
  }

  private double[] noise(Query q, long seed) {
    double[] out = new double[GROUPS * RUNS];
    int i = 0;
    for (int run = 0; run < RUNS; run++) {
      Result r = session(db, seed + run).run(q);
      for (ResultRow row : r.rows()) {
        out[i++] = row.get("n").value() - 100;
      }
    }
    assertEquals(out.length, i);
    return out;
  }

  /** Accepts iff mean |X| is within 4 standard errors of a discrete Laplace of scale t. */
  private static boolean consistentWithScale(double[] x, double t) {
    double p = Math.exp(-1 / t);
    double mean = 2 * p / (1 - p * p);
    double sd = Math.sqrt(2 * p / ((1 - p) * (1 - p)) - mean * mean);
    double got = Arrays.stream(x).map(Math::abs).average().orElseThrow();
    System.out.printf("RowsContributedTest: mean |X| = %.3f over %d draws; scale %.1f expects"
        + " %.3f ± %.3f (4 s.e.)%n", got, x.length, t, mean, 4 * sd / Math.sqrt(x.length));
    return Math.abs(got - mean) <= 4 * sd / Math.sqrt(x.length);
  }

  @Test
  void count_noiseIsForSensitivityM_notM2() {
    double[] right = noise(capped(M).count("n").budget(Budget.pure(1)).build(), 100);
    assertTrue(consistentWithScale(right, M), "noise of scale m/ε = 8");
    double[] tooLittle = noise(capped(M).count("n").budget(Budget.pure(1 / 0.7)).build(), 300);
    assertFalse(consistentWithScale(tooLittle, M), "power: 30% too little noise is rejected");
    double[] old = noise(Query.from("t").privacyUnit("uid").maxGroupsContributed(M)
        .maxRowsPerGroup(M).groupBy("g").publicGroups(keys.toArray()).count("n")
        .budget(Budget.pure(1)).build(), 500);
    assertFalse(consistentWithScale(old, M), "power: the L0·L∞ = m² scale is rejected");
  }

  @Test
  void neighbours_victimWithManyRowsOverManyGroups_sameExplainShapeAndRefusals() {
    // The victim (500 rows over 50 groups) keeps 8 rows; nothing observable but the noisy values
    // may differ: the plan, the released groups and outputs, and every refusal.
    List<Query> queries = List.of(
        capped(M).count("n").sum("s", "x", 0, 4).budget(Budget.approx(1, 1e-6)).build(),
        Query.from("t").privacyUnit("uid").maxRowsContributed(3).groupBy("g").count("n")
            .countDistinctUnits("d").budget(Budget.approx(1, 1e-6)).build(),
        Query.from("t").privacyUnit("uid").maxRowsContributed(3).count("n").mean("m", "x", 0, 4)
            .budget(Budget.pure(1)).build());
    for (Query q : queries) {
      assertEquals(session(db, 1).explain(q).render(), session(neighbour, 1).explain(q).render());
      Result a = session(db, 7).run(q);
      Result b = session(neighbour, 7).run(q);
      assertEquals(a.outputs(), b.outputs());
      if (q.publicGroups().isPresent()) {
        assertEquals(a.rows().stream().map(ResultRow::key).toList(),
            b.rows().stream().map(ResultRow::key).toList());
      }
      assertEquals(a.receipt(), b.receipt());
    }
    for (DuckDbBackend b : List.of(db, neighbour)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> session(b, 1).run(Query.from("t").privacyUnit("uid").maxRowsContributed(3)
              .maxRowsPerGroup(2).count("n").budget(Budget.pure(1)).build()));
      assertTrue(e.getMessage().startsWith("maxRowsContributed conflicts with maxRowsPerGroup"));
    }
  }
}
