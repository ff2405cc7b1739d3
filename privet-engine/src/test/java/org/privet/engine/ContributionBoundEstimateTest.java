package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.accounting.Budget;
import org.privet.accounting.PureDp;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
import org.privet.engine.compile.ContributionBoundPass;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.release.MechanismSpec;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Releases;
import org.privet.engine.spi.GroupAggregate;
import org.privet.testing.SeededRandomSource;

/**
 * L∞ estimated privately ({@link ContributionBoundEstimate}, {@link ContributionBoundPass}) on
 * DuckDB: ZetaSQL's default contribution (a table with 3 rows per unit counts 30, not 10), one
 * charge with the stated share, the power-of-two estimate, empty input, refusals before the
 * charge, the tree's sensitivity against real neighbours, and the noise's scale.
 *
 * <p>The huge-ε tests run at ε = 10^9: the tree's per-node geometric noise has scale ≤ 5·10^-7
 * (Δ₁ = L0·H ≤ 6, ε = 10^8), so its probability of moving any count is below 10^-6 per node,
 * and the main pass's count noise likewise; the answers asserted exactly then fail wrongly with
 * probability below 10^-4 (and the seeds are fixed, so the runs are deterministic).
 */
class ContributionBoundEstimateTest {
  private static DuckDbBackend db;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    List<List<?>> three = new ArrayList<>();
    for (long u = 0; u < 10; u++) {
      for (int k = 0; k < 3; k++) {
        three.add(Arrays.asList(u, "g" + (u % 2), 1.0 + k));
      }
    }
    TestTables.register(db, "three", three);
    // 300 units with one row each, and one unit with 1 000 rows in one group.
    List<List<?>> tail = new ArrayList<>();
    for (long u = 0; u < 300; u++) {
      tail.add(Arrays.asList(u, "a", 1.0));
    }
    for (int k = 0; k < 1000; k++) {
      tail.add(Arrays.asList(1000L, "a", 1.0));
    }
    TestTables.register(db, "tail", tail);
    // 400 units with 4 rows, and a short tail of 35 units with 6 rows (just above 2^2).
    List<List<?>> shortTail = new ArrayList<>();
    for (long u = 0; u < 435; u++) {
      for (int k = 0; k < (u < 400 ? 4 : 6); k++) {
        shortTail.add(Arrays.asList(u, "a", 1.0));
      }
    }
    TestTables.register(db, "short_tail", shortTail);
    TestTables.register(db, "empty", List.of());
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Session session(long seed, BudgetCharger charger) {
    return Session.builder().backend(db).budgetCharger(charger)
        .randomSource(new SeededRandomSource(seed)).build();
  }

  @Test
  void run_countOfThreeRowsPerUnitAtHugeEpsilon_countsEveryRow() {
    List<ChargeRequest> charges = new ArrayList<>();
    Query q = Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1e9).build();
    Result r = session(1, charges::add).run(q);
    assertEquals(30, r.rows().get(0).get("n").value(), 1e-6);
    assertEquals(4, r.estimatedMaxRowsPerGroup()); // 3 rows: the power of two above
    assertEquals(1, charges.size());
    assertTrue(charges.get(0).total() instanceof PureDp p && p.epsilon() <= 1e9,
        "one charge within the budget: " + charges.get(0).total());
  }

  @Test
  void run_groupedCountAndSum_useEveryRowOfEachUnit() {
    Query q = Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup()
        .maxGroupsContributed(1).groupBy("g").publicGroups("g0", "g1").count("n")
        .sum("s", "x", 0, 10).epsilon(1e9).build();
    Result r = session(2, c -> { }).run(q);
    for (ResultRow row : r.rows()) {
      assertEquals(15, row.get("n").value(), 1e-6, "5 units × 3 rows in " + row.key());
      assertEquals(30, row.get("s").value(), 1e-3, "5 units × (1 + 2 + 3) in " + row.key());
    }
  }

  @Test
  void run_autoBoundsWithEstimatedRows_runsThreePassesUnderOneCharge() {
    List<ChargeRequest> charges = new ArrayList<>();
    Query q = Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup().sum("s", "x")
        .epsilon(1e9).build();
    Result r = session(3, charges::add).run(q);
    assertEquals(1, charges.size());
    assertEquals(4, r.estimatedMaxRowsPerGroup());
    assertEquals(60, r.rows().get(0).get("s").value(), 1e-3); // 10 units × (1 + 2 + 3)
    assertEquals(1, r.bounds().size());
  }

  /**
   * Every budget family: the estimate takes pure ε·share (ε and (ε, δ) budgets: geometric tree)
   * or ρ·share (ρ budgets: discrete Gaussian tree, σ below 10^-4 at ρ = 10^11), and the count is
   * exact with L∞ = 4.
   */
  @Test
  void run_everyBudgetFamily_countsEveryRow() {
    List<org.privet.accounting.Budget> budgets = List.of(Budget.pure(1e9),
        Budget.approx(1e9, 1e-6), Budget.zcdp(1e11), Budget.zcdp(1e11, 1e-6));
    for (org.privet.accounting.Budget b : budgets) {
      List<ChargeRequest> charges = new ArrayList<>();
      Query q = Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
          .budget(b).build();
      Result r = session(8, charges::add).run(q);
      assertEquals(30, r.rows().get(0).get("n").value(), 1e-6, b.toString());
      assertEquals(4, r.estimatedMaxRowsPerGroup(), b.toString());
      assertEquals(1, charges.size());
      assertTrue(b.admits(charges.get(0).total()), b + " admits " + charges.get(0).total());
    }
  }

  @Test
  void run_oneHeavyUnitAmongSingleRowUnits_countedWhollyAtHugeEpsilon_clippedWithinTheNoise() {
    Query exact = Query.from("tail").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1e9).build();
    Result r = session(4, c -> { }).run(exact);
    // Read from the top: with (almost) no noise the scan stops at the first power of two with no
    // pair above it, 1 024 ≥ 1 000 rows, so every row counts (ZetaSQL's answer at huge ε).
    assertEquals(1024, r.estimatedMaxRowsPerGroup());
    assertEquals(1300, r.rows().get(0).get("n").value(), 1e-6);
    // At ε = 1 (the estimate's ε = 0.2) one pair above 2^k is well inside the noise's 95% band:
    // the lone heavy unit is clipped. A scan continues past an edge, or past a cell tested alone,
    // with probability about 5% each (one-sided 95% statements), and L∞ > 4 needs two such steps:
    // probability below 1% for this fixed seed.
    Query moderate = Query.from("tail").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1).build();
    Result m = session(4, c -> { }).run(moderate);
    assertTrue(m.estimatedMaxRowsPerGroup() <= 4, "L∞ " + m.estimatedMaxRowsPerGroup());
  }

  /**
   * A limited read (docs/proofs/contribution-bound-estimate.md, "A limited read"): the same tree,
   * read at most 2^6. At ε = 10^9 the unlimited read is 1 024 (above); limited, 64, and the count
   * is the truncated 300 + 64, computed here. The stand-in and EXPLAIN show the limit; an exponent
   * outside [0, 19] is refused naming the parameter.
   */
  @Test
  void run_limitedRead_heavyUnitReadAtTheLimit() {
    ContributionBoundEstimate limited = ContributionBoundEstimate.defaults().withMaxExponent(6);
    assertEquals(64, limited.largestBound());
    Query q = Query.from("tail").privacyUnit("uid").estimateMaxRowsPerGroup(limited).count("n")
        .epsilon(1e9).build();
    assertEquals(64, q.maxRowsPerGroup(), "the stand-in is the largest bound");
    Result r = session(4, c -> { }).run(q);
    assertEquals(64, r.estimatedMaxRowsPerGroup());
    assertEquals(364, r.rows().get(0).get("n").value(), 1e-6);
    assertTrue(session(4, c -> { }).explain(q).toString().contains("read at most 64"));
    for (int bad : new int[] {-1, ContributionBoundEstimate.MAX_EXPONENT + 1}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ContributionBoundEstimate.defaults().withMaxExponent(bad));
      assertTrue(e.getMessage().contains("maxExponent"), e.getMessage());
    }
    assertEquals(ContributionBoundEstimate.STAND_IN,
        ContributionBoundEstimate.defaults().largestBound());
  }

  @Test
  void run_shortTailJustAbovePowerOfTwo_cellTestedAloneRaisesTheBound() {
    // ε = 1: the tree's ε is 0.2, geometric noise of scale 5 (s.d. ≈ 7) per cell. The band on
    // the 17 cells above 2^2 together is wider than the tail's 35 pairs (asserted below), so the
    // suffix alone would stop at L∞ = 4 and clip 70 rows; the cell (4, 8] tested alone has a band
    // of about 13 pairs, and 35 pairs exceed it unless its noise is below −22 (probability about
    // 0.5·e^(−22/5) < 1%); a step past 8 (an empty cell above its band) has probability about 5%
    // and lands on 16, which is still asserted; L∞ > 16 needs two such steps (< 0.3%).
    Query q = Query.from("short_tail").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1).build();
    Result r = session(11, c -> { }).run(q);
    int linf = r.estimatedMaxRowsPerGroup();
    assertTrue(linf == 8 || linf == 16, "L∞ " + linf);
    // The premise: at the tree's noise the suffix band above edge 3 (n > 4) exceeds 35 pairs.
    QuantileTree t = QuantileTree.forCells(ContributionBoundEstimate.CELLS);
    QuantileTree.NodeNoise noise =
        QuantileTree.NodeNoise.laplace(1 / (1 * ContributionBoundEstimate.DEFAULT_SHARE));
    assertTrue(t.edgeHalfWidth(3, 1.0, noise, 0.05) > 35, "suffix band");
    assertTrue(t.cellHalfWidth(3, noise, 0.05) < 20, "cell band");
  }

  @Test
  void run_emptyTable_estimatesOneRowAndAnswersZero() {
    Query q = Query.from("empty").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1e9).build();
    Result r = session(5, c -> { }).run(q);
    assertEquals(1, r.estimatedMaxRowsPerGroup());
    assertEquals(0, r.rows().get(0).get("n").value(), 1e-6);
  }

  @Test
  void explain_showsTheEstimateAndItsShare() {
    Query q = Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1).build();
    Plan p = session(6, c -> { }).explain(q);
    String text = p.toString();
    assertTrue(text.contains("L∞ (max rows per unit per group) estimated privately: 20.00% of the"
        + " budget"), text);
    assertTrue(text.contains(ContributionBoundPass.OUTPUT), text);
    assertTrue(text.contains("-- L∞ estimate pass"), text);
  }

  @Test
  void build_estimateWithGivenLInfOrRowUnits_isRefusedNamingTheParameter() {
    IllegalArgumentException a = assertThrows(IllegalArgumentException.class,
        () -> Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup().maxRowsPerGroup(2)
            .count("n").epsilon(1).build());
    assertTrue(a.getMessage().contains("estimateMaxRowsPerGroup conflicts with maxRowsPerGroup"));
    IllegalArgumentException b = assertThrows(IllegalArgumentException.class,
        () -> Query.from("three").eachRowIsAUnit().estimateMaxRowsPerGroup().count("n")
            .epsilon(1).build());
    assertTrue(b.getMessage().contains("estimateMaxRowsPerGroup needs a privacyUnit"));
    IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
        () -> Query.from("three").privacyUnit("uid").estimateMaxRowsPerGroup().groupBy("g")
            .maxGroupsContributed(1).count("n").epsilonDelta(1, 1e-6)
            .postAggregationThresholding().build());
    assertTrue(c.getMessage().contains("post-aggregation"));
  }

  /**
   * The tree's stated sensitivity against real neighbours: a victim with 1 000 rows in each of 5
   * groups, L0 = 3, moves every level of the exact tree by exactly L0 = 3 (its 3 kept pairs), so
   * the stated Δ₁ = L0·H is reached and never exceeded.
   */
  @Test
  void sensitivity_victimWithManyRowsInManyGroups_movesEachLevelByL0() {
    try (DuckDbBackend local = DuckDbBackend.inMemory()) {
      List<List<?>> base = new ArrayList<>();
      for (long u = 0; u < 200; u++) {
        for (int g = 0; g < 3; g++) {
          for (int k = 0; k <= u % 5; k++) {
            base.add(Arrays.asList(u, "g" + ((u + g) % 7), 1.0));
          }
        }
      }
      List<List<?>> withVictim = new ArrayList<>(base);
      for (int g = 0; g < 5; g++) {
        for (int k = 0; k < 1000; k++) {
          withVictim.add(Arrays.asList(9999L, "g" + g, 1.0));
        }
      }
      local.registerTable("d", TestTables.COLS, TestTables.TYPES, base);
      local.registerTable("d2", TestTables.COLS, TestTables.TYPES, withVictim);
      long[] a = exactTree(local, "d");
      long[] b = exactTree(local, "d2");
      ContributionBoundPass p = pass(local, "d", Budget.pure(1));
      long l1 = 0;
      for (int i = 0; i < a.length; i++) {
        l1 += Math.abs(a[i] - b[i]);
      }
      int levels = QuantileTree.forCells(ContributionBoundEstimate.CELLS)
          .levels();
      assertEquals(3L * levels, l1);
      assertEquals(3L * levels, p.tree().releases().get(0).sensitivity());
    }
  }

  /**
   * The noise of the estimate's tree is geometric at the share's ε with Δ₁ = L0·H: the sample
   * variance of 20 000 draws is within 10% of 2α/(1 − α)², α = exp(−ε/Δ₁). The relative standard
   * error of a Laplace-like sample variance is √(5/n) = 1.6%, so a 10% miss is a 6σ event: false
   * failure below 10^-8 (normal approximation; fixed seed). Power: noise 30% too small has
   * variance 0.49 of the stated one and is rejected (checked below on the same draws rescaled).
   */
  @Test
  void noise_estimateTree_hasTheStatedGeometricScale() {
    ContributionBoundPass p = pass(db, "three", Budget.pure(0.5));
    MechanismSpec.Geometric g = (MechanismSpec.Geometric) p.tree().releases().get(0).mechanism();
    int levels = QuantileTree.forCells(ContributionBoundEstimate.CELLS)
        .levels();
    assertEquals(levels, g.sensitivity()); // L0 = 1 pair per unit, one count per level
    assertTrue(g.epsilon() <= 0.5 && g.epsilon() > 0.49, "ε " + g.epsilon());
    Releases.Noise noise = Releases.noise(g, new SeededRandomSource(11));
    int n = 20_000;
    double[] draws = new double[n];
    for (int i = 0; i < n; i++) {
      draws[i] = noise.release(0);
    }
    double alpha = Math.exp(-g.epsilon() / g.sensitivity());
    double expected = 2 * alpha / ((1 - alpha) * (1 - alpha));
    assertTrue(within(draws, expected, 1.0), "variance ratio " + variance(draws) / expected);
    assertTrue(!within(draws, expected, 0.7), "30% too little noise must be caught");
  }

  private static boolean within(double[] draws, double expected, double scale) {
    double[] scaled = Arrays.stream(draws).map(x -> x * scale).toArray();
    return Math.abs(variance(scaled) / expected - 1) < 0.1;
  }

  private static double variance(double[] x) {
    double m = Arrays.stream(x).average().orElse(0);
    return Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / (x.length - 1);
  }

  private static ContributionBoundPass pass(DuckDbBackend backend, String table, Budget budget) {
    Query q = Query.from(table).privacyUnit("uid").maxGroupsContributed(3).maxRowsPerGroup(1)
        .groupBy("g").publicGroups("g0", "g1", "g2", "g3", "g4", "g5", "g6").count("n")
        .epsilon(1).build();
    CompiledQuery main = Compiler.compile(q, backend.describe(q.source()), 7L);
    org.privet.engine.spi.BoundedAggregation t = main.spec();
    if (table.equals("three")) {
      Query one = Query.from(table).privacyUnit("uid").maxRowsPerGroup(1).count("n").epsilon(1)
          .build();
      t = Compiler.compile(one, backend.describe(one.source()), 7L).spec();
    }
    return ContributionBoundPass.compile(t, budget, ContributionBoundEstimate.defaults(),
        backend.describe(q.source()), 7L);
  }

  private static long[] exactTree(DuckDbBackend backend, String table) {
    ContributionBoundPass p = pass(backend, table, Budget.pure(1));
    List<GroupAggregate> groups = new ArrayList<>();
    backend.aggregate(p.spec(), groups::add);
    long[] cells = p.total(groups).bins()[0];
    return QuantileTree.forCells(ContributionBoundEstimate.CELLS)
        .counts(cells);
  }
}
