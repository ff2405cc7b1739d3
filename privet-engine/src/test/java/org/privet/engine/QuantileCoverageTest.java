package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.release.MechanismSpec;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releases;
import org.privet.engine.spi.GroupAggregate;
import org.privet.testing.ClopperPearson;
import org.privet.testing.PrivacyAudit;
import org.privet.testing.SeededRandomSource;

/**
 * Quantile-tree quantiles end to end: value intervals cover the exact quantiles of the bounded data
 * at (at least) their stated rate, values are monotone in the rank, empty groups work, one budget
 * share pays for all ranks, and an empirical privacy audit of the tree release stays below ε.
 *
 * <p>The intervals are per rank (two one-sided statements at the true quantile's two cell edges,
 * {@code docs/proofs/engine-quantiles.md}); the calibration of those statements is tested with
 * power (30% too little noise rejected) in {@link QuantileTreeTest}, the intervals' coverage and
 * width against the empirical error in the accuracy suite (privet-stat-tests), and the privacy
 * audit below rejects 30% too little noise.
 */
class QuantileCoverageTest {
  private static final int GROUPS = 16;
  private static final int RUNS = 15;
  private static final double LEVEL = 0.9;
  private static final double[] RANKS = {0.1, 0.5, 0.9};
  private static DuckDbBackend db;
  private static final List<List<Double>> VALUES = new ArrayList<>(); // clamped, per group

  @BeforeAll
  static void table() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    long uid = 0;
    for (int g = 0; g < GROUPS; g++) {
      List<Double> vs = new ArrayList<>();
      int units = 30 + 25 * g;
      for (int u = 0; u < units; u++, uid++) {
        for (int copy = 0; copy < 2; copy++) { // two rows per unit, both kept with L∞ = 2
          double x = g % 2 == 0 ? (u * 7919L + copy * 31L) % 1000 / 10.0 // spread over [0, 100)
              : 40 + (u % 5) * 3 + copy - 50 * (u % 7 == 0 ? 1 : 0); // heavy ties, some < 0
          rows.add(Arrays.asList(uid, "g" + g, x));
          vs.add(Math.max(0, Math.min(100, x)));
        }
      }
      vs.sort(null);
      VALUES.add(vs);
    }
    TestTables.register(db, "t", rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  /** The k-th smallest clamped value, k = max(1, ⌈r·n⌉). */
  private static double exact(int group, double rank) {
    List<Double> vs = VALUES.get(group);
    return vs.get((int) QuantileTree.targetRank(rank, vs.size()) - 1);
  }

  private static Query query(Budget budget, NoiseKind noise) {
    List<Object> keys = new ArrayList<>();
    for (int g = 0; g <= GROUPS; g++) {
      keys.add("g" + g); // g16 is empty
    }
    return Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(2)
        .groupBy("g").publicGroups(keys.toArray()).quantiles("q", "x", 0, 100, RANKS)
        .budget(budget).noise(noise).build();
  }

  private static long coverage(NoiseKind noise, Budget budget, long seed) {
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).confidenceLevel(LEVEL).build();
    Query q = query(budget, noise);
    long hits = 0;
    for (int run = 0; run < RUNS; run++) {
      Result r = s.run(q);
      for (int g = 0; g <= GROUPS; g++) {
        ResultRow row = r.rows().get(g);
        double previous = Double.NEGATIVE_INFINITY;
        for (double rank : RANKS) {
          Estimate e = row.get("q[" + rank + "]");
          assertTrue(e.hasInterval() && e.level() == LEVEL);
          assertTrue(e.lower() <= e.value() && e.value() <= e.upper(), "value in interval " + e);
          assertTrue(e.lower() >= 0 && e.upper() <= 100 && e.lower() < e.upper(), e.toString());
          assertTrue(e.value() >= previous, "monotone in the rank");
          previous = e.value();
          if (g < GROUPS) {
            double x = exact(g, rank);
            if (e.lower() <= x && x <= e.upper()) {
              hits++;
            }
          }
        }
      }
    }
    return hits;
  }

  /**
   * Coverage ≥ LEVEL: fails wrongly only if a one-sided Clopper–Pearson upper bound at level
   * 1 − 1e-4 falls below the stated level (probability ≤ 1e-4 per noise kind).
   */
  @Test
  void run_laplaceTree_intervalsCoverExactQuantilesAtStatedRate() {
    long hits = coverage(NoiseKind.LAPLACE, Budget.pure(0.5), 41);
    long checks = (long) GROUPS * RUNS * RANKS.length;
    assertTrue(ClopperPearson.upperBound(hits, checks, 1e-4) >= LEVEL, hits + "/" + checks);
  }

  @Test
  void run_gaussianTree_intervalsCoverExactQuantilesAtStatedRate() {
    long hits = coverage(NoiseKind.GAUSSIAN, Budget.zcdp(0.125), 42);
    long checks = (long) GROUPS * RUNS * RANKS.length;
    assertTrue(ClopperPearson.upperBound(hits, checks, 1e-4) >= LEVEL, hits + "/" + checks);
  }

  @Test
  void explain_treeQuantiles_oneReleaseForAllRanks() {
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited()).build();
    Plan p = s.explain(Query.from("t").privacyUnit("uid").maxRowsPerGroup(2).count("n")
        .quantiles("q", "x", 0, 100, 0.1, 0.5, 0.9).epsilon(1.0).build());
    assertEquals(2, p.mechanisms().size(), "count + one tree");
    Plan.PlannedMechanism tree = p.mechanisms().get(1);
    assertTrue(tree.cost().purpose().startsWith("quantile tree of x"), tree.cost().purpose());
    // L∞ = 2 rows, 3 released levels (1,024 cells, branching 11), L0 = 1: L1 sensitivity 6.
    // The default split (DefaultSplit): the textbook equal split, half for the count and half
    // for the tree.
    assertEquals(6, tree.sensitivity());
    assertEquals(0.5, ((PureDp) tree.cost().loss()).epsilon(), 1e-9);
    assertTrue(tree.cost().mechanism().contains("Δ₁=6"), tree.cost().mechanism());
    assertTrue(tree.error95() > 0);
    Plan em = s.explain(Query.from("t").privacyUnit("uid").maxRowsPerGroup(2)
        .quantiles("q", "x", 0, 100, Aggregation.Quantiles.Method.EXPONENTIAL, 0.1, 0.5, 0.9)
        .epsilon(1.0).build());
    assertEquals(3, em.mechanisms().size(), "one exponential mechanism per rank");
  }

  @Test
  void run_exponentialMethod_noIntervalButMonotone() {
    Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(3)).build();
    Result r = s.run(Query.from("t").privacyUnit("uid").maxRowsPerGroup(2)
        .quantiles("q", "x", 0, 100, Aggregation.Quantiles.Method.EXPONENTIAL, 0.9, 0.1)
        .epsilon(1.0).build());
    Estimate hi = r.rows().get(0).get("q[0.9]");
    Estimate lo = r.rows().get(0).get("q[0.1]");
    assertFalse(hi.hasInterval());
    assertTrue(lo.value() <= hi.value());
  }

  // --- privacy audit ---------------------------------------------------------------------------

  private static final int AUDIT_TRIALS = 20_000;

  /**
   * Audit of the compiled tree release on neighbouring tables: D' adds one unit (20 rows, over
   * L∞ = 1, values above the clamp). The added kept row raises one node per level (H = 2 levels
   * for 256 cells: 16 nodes of 16 cells and the cells); the event "every node on that path is released above its count in D" has
   * probability ratio exactly e^ε for geometric noise of scale H/ε, so the audit is tight up to
   * sampling error. The lower bound is valid with probability ≥ 0.999 (false failure ≤ 1e-3).
   */
  private static double auditedEpsilon(double claimed, double actual, long seed) {
    List<List<?>> d = new ArrayList<>();
    for (long u = 0; u < 60; u++) {
      d.add(Arrays.asList(u, "g", (double) (u % 50)));
    }
    List<List<?>> dPrime = new ArrayList<>(d);
    for (int r = 0; r < 20; r++) {
      dPrime.add(Arrays.asList(777L, "g", 1000.0 + r));
    }
    TestTables.register(db, "audit_d", d);
    TestTables.register(db, "audit_dprime", dPrime);
    Query qd = auditQuery("audit_d", claimed);
    CompiledQuery c = Compiler.compile(qd, db.describe(qd.source()), 1L);
    Release planned = c.releases().get(0);
    assertEquals(Release.Field.TREE, planned.target().field());
    assertEquals(2, planned.sensitivity(), "L0·L∞·H = 2");
    MechanismSpec.Geometric claimedSpec = (MechanismSpec.Geometric) planned.mechanism();
    MechanismSpec used = new MechanismSpec.Geometric(claimedSpec.epsilon() * actual / claimed,
        planned.sensitivity());
    QuantileTree tree = QuantileTree.forCells(256);
    assertEquals(2, tree.levels());
    long[] nodesD = tree.counts(cells(qd, c));
    Query qp = auditQuery("audit_dprime", claimed);
    long[] nodesP = tree.counts(cells(qp, Compiler.compile(qp, db.describe(qp.source()), 1L)));
    int[] path = {15, 16 + 255}; // the last level-1 node and the last cell (clamped to 100)
    assertEquals(nodesD[15] + 1, nodesP[15]);
    assertEquals(nodesD[271] + 1, nodesP[271]);
    Releases.Noise noise = Releases.noise(used, new SeededRandomSource(seed));
    long hitsD = 0;
    long hitsP = 0;
    for (int i = 0; i < AUDIT_TRIALS; i++) {
      if (above(QuantileTree.release(nodesD, noise::release), nodesD, path)) {
        hitsD++;
      }
      if (above(QuantileTree.release(nodesP, noise::release), nodesD, path)) {
        hitsP++;
      }
    }
    return PrivacyAudit.epsilonLowerBound(hitsP, AUDIT_TRIALS, hitsD, AUDIT_TRIALS, 0.999);
  }

  private static Query auditQuery(String table, double epsilon) {
    return Query.from(table).privacyUnit("uid").maxRowsPerGroup(1)
        .aggregate(new Aggregation.Quantiles("q", "x", 0, 100, List.of(0.5), 256))
        .epsilon(epsilon).build();
  }

  private static long[] cells(Query q, CompiledQuery c) {
    List<GroupAggregate> out = new ArrayList<>();
    db.aggregate(c.spec(), out::add);
    return out.get(0).bins()[c.releases().get(0).target().measure()];
  }

  private static boolean above(long[] released, long[] countsD, int[] path) {
    for (int v : path) {
      if (released[v] <= countsD[v]) {
        return false;
      }
    }
    return true;
  }

  @Test
  void auditTree_neighbouringTables_empiricalEpsilonBelowClaimAndDetectsLessNoise() {
    double lower = auditedEpsilon(1.0, 1.0, 2026);
    assertTrue(lower <= 1.0, "empirical ε lower bound " + lower + " exceeds the claimed 1.0");
    assertTrue(lower > 0.8, "the audit should be nearly tight, got " + lower);
    double broken = auditedEpsilon(1.0, 1.0 / 0.7, 2027);
    assertTrue(broken > 1.0, "30% less noise must be detected, got " + broken);
  }
}
