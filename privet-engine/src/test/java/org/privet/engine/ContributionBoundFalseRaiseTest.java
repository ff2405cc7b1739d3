package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
 * The L∞ estimate's false raises ({@code docs/proofs/contribution-bound-estimate.md}, "False
 * raises"), a statistical test: 300 units with 1–10 rows each (30 units per row count), so no
 * (unit, group) pair has more than 2^4 = 16 rows and the right read is 16 (the cell (8, 16] holds
 * 60 pairs). The exact histogram of the pairs' row counts comes from the estimate's own backend
 * pass on DuckDB (checked against the counts written here); then N = 4 000 releases of the tree,
 * at ε = 1 (the tree's ε is 0.2: geometric noise of scale 5 per cell), with the engine's
 * noise from a fixed seed, each read by {@link ContributionBoundPass#read}.
 *
 * <p>The stated probabilities (γ<sub>s</sub> = 0.001 for the suffix, γ<sub>w</sub> = 0.01 for
 * the window of 3 cells, γ<sub>c</sub> = 0.0499 for one cell: the exact tail of its geometric
 * noise above its 95% band of 11.6, P[Z ≥ 12] = q<sup>12</sup>/(1 + q), q = e<sup>−1/5</sup>):
 * P[L∞ &gt; 16] ≤ γ<sub>s</sub> + γ<sub>w</sub> + γ<sub>c</sub> ≤ 0.061 and P[L∞ ≥ 2^10] ≤
 * 2γ<sub>s</sub> + (γ<sub>w</sub> + γ<sub>c</sub>)² ≤ 0.0056 (the proof's bound with d = 5: the
 * scan crosses edges 5 and 8, whose windows and cells are disjoint); for P[L∞ &gt; 32] the
 * proof's bound is loose, and the rate used is a simulation's of the same rule, 0.0073 from
 * 200 000 draws (privet-bench/scripts/linf_false_raise_sim.py; 0.0075 taken). Measured there:
 * 0.055, 0.0073, 0.0003. Asserted: at most 310, 55 and 45 of 4 000 releases above 16, above 32
 * and at 2^10 or more. At those probabilities each count exceeds its limit with binomial
 * probability below 1.4·10^-5, so the test fails wrongly with probability below 4·10^-5 (one
 * fixed seed: the run is deterministic).
 *
 * <p>Power, on the same draws: the suffix's statement at 95% as before (simulated 0.097, 0.046,
 * 0.022) fails all three limits (expected 386, 186 and 88 releases; each passes with probability
 * below 2·10^-5), and the rule read with bands 30% too narrow (the node noise's s.d. taken as 0.7
 * of the true one; simulated 0.120, 0.035, 0.005) fails the first two (expected 480 and 142:
 * passes with probability below 10^-16).
 */
class ContributionBoundFalseRaiseTest {
  private static final int RUNS = 4000;
  private static DuckDbBackend db;

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 300; u++) {
      for (int k = 0; k < 1 + u % 10; k++) {
        rows.add(Arrays.asList(u, "a", 1.0));
      }
    }
    TestTables.register(db, "small", rows);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void read_smallDataOfOneToTenRowsPerUnit_raisesAbove16Rarely_andOldRuleOrNarrowBandsFail() {
    ContributionBoundPass p = pass(ContributionBoundEstimate.defaults());
    List<GroupAggregate> groups = new ArrayList<>();
    db.aggregate(p.spec(), groups::add);
    long[] cells = p.total(groups).bins()[0];
    long[] expected = new long[ContributionBoundEstimate.CELLS];
    expected[0] = 30; // n = 1
    expected[1] = 30; // n = 2
    expected[2] = 60; // n = 3, 4
    expected[3] = 120; // n = 5..8
    expected[4] = 60; // n = 9, 10
    assertArrayEquals(expected, cells, "the pass's exact histogram");

    QuantileTree tree = QuantileTree.forCells(ContributionBoundEstimate.CELLS);
    assertEquals(1, tree.levels(), "one level: the cells' noises are independent");
    MechanismSpec.Geometric g = (MechanismSpec.Geometric) p.tree().releases().get(0).mechanism();
    assertTrue(g.epsilon() <= 0.2 && g.epsilon() > 0.199, "the tree's ε " + g.epsilon());
    Releases.Noise noise = Releases.noise(g, new SeededRandomSource(20261127L));
    double scale = g.sensitivity() / g.epsilon();
    QuantileTree.NodeNoise nodeNoise = QuantileTree.NodeNoise.laplace(scale);
    QuantileTree.NodeNoise narrow = new QuantileTree.NodeNoise(0.49 * nodeNoise.variance(),
        nodeNoise.excessKurtosis());
    // The stated cell probability: the exact tail above the 95% band of one cell.
    double band = tree.cellHalfWidth(5, nodeNoise, 0.05);
    double q = Math.exp(-1 / scale);
    double gammaC = Math.pow(q, Math.floor(band) + 1) / (1 + q);
    assertTrue(gammaC < 0.0499 + 1e-4, "γc " + gammaC);

    ContributionBoundPass old = pass(ContributionBoundEstimate.defaults()
        .withSuffixConfidence(ContributionBoundEstimate.DEFAULT_CONFIDENCE));
    long[] node = tree.counts(cells);
    int[][] above = new int[3][3]; // [rule: now, suffix at 95%, narrow][> 16, > 32, ≥ 2^10]
    int exact16 = 0;
    for (int r = 0; r < RUNS; r++) {
      long[] noisy = QuantileTree.release(node, noise::release);
      int now = p.read(noisy, nodeNoise);
      exact16 += now == 16 ? 1 : 0;
      count(above[0], now);
      count(above[1], old.read(noisy, nodeNoise));
      count(above[2], p.read(noisy, narrow));
    }
    String report = "releases above 16, 32, 2^10 (now / suffix at 95% / narrow): "
        + Arrays.deepToString(above);
    int[] limits = {310, 55, 45};
    for (int i = 0; i < 3; i++) {
      assertTrue(above[0][i] <= limits[i], report);
    }
    // Not at the price of the right read: 16 in all releases but the false raises (the 60 pairs
    // of cell (8, 16] are 8.5 s.d. above its band's zero; the suffix above edge 4 holds 60 + 120).
    assertTrue(exact16 >= RUNS - limits[0], "read 16 in " + exact16 + "; " + report);
    // Power: the suffix at 95% fails every limit, bands 30% too narrow the first two.
    for (int i = 0; i < 3; i++) {
      assertTrue(above[1][i] > limits[i], report);
    }
    assertFalse(above[2][0] <= limits[0] && above[2][1] <= limits[1], report);
  }

  private static void count(int[] above, int lInf) {
    above[0] += lInf > 16 ? 1 : 0;
    above[1] += lInf > 32 ? 1 : 0;
    above[2] += lInf >= 1024 ? 1 : 0;
  }

  private static ContributionBoundPass pass(ContributionBoundEstimate config) {
    Query one = Query.from("small").privacyUnit("uid").maxRowsPerGroup(1).count("n").epsilon(1)
        .build();
    CompiledQuery c = Compiler.compile(one, db.describe(one.source()), 7L);
    Budget[] split = org.privet.engine.compile.AutoBoundsPass.split(one.budget(), config.share());
    return ContributionBoundPass.compile(c.spec(), split[0], config, db.describe(one.source()),
        7L);
  }
}
