package org.privet.engine.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.privet.engine.NoiseKind;
import org.privet.engine.compile.Compiler;
import org.privet.random.RandomSource;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/** The quantile tree's structure, its post-processing and the calibration of its band. */
class QuantileTreeTest {

  private static long[] cells(int bins, long seed) {
    RandomSource r = new SeededRandomSource(seed);
    long[] c = new long[bins];
    for (int i = 0; i < bins; i++) {
      c[i] = r.nextLong(4) == 0 ? r.nextLong(50) : 0;
    }
    return c;
  }

  @Test
  void prefix_exactCounts_equalCumulativeSums() {
    for (int bins : new int[] {2, 3, 15, 16, 17, 255, 256, 257, 1000, 1024, 4097}) {
      QuantileTree t = new QuantileTree(bins, QuantileTree.BRANCHING);
      long[] c = cells(bins, bins);
      long[] nodes = t.counts(c);
      int[] terms = new int[1];
      long cumulative = 0;
      for (int j = 0; j <= bins; j++) {
        assertEquals(cumulative, t.prefix(nodes, j, terms), "bins " + bins + ", prefix " + j);
        assertTrue(terms[0] <= (t.levels() - 1) * (QuantileTree.BRANCHING / 2 + 1),
            "terms " + terms[0]);
        if (j < bins) {
          cumulative += c[j];
        }
      }
      assertEquals(cumulative, nodes[0], "root is the total");
    }
  }

  @Test
  void levels_defaultGrid_fourLevelsAndComplementKeepsPrefixesShort() {
    QuantileTree t = new QuantileTree(1024, 16);
    assertEquals(4, t.levels()); // root, 4 nodes of 256 cells, 64 of 16, 1024 cells
    assertEquals(1 + 4 + 64 + 1024, t.size());
    assertTrue(t.maxTerms() <= 2 + 9 + 9, "at most ⌈b/2⌉+1 nodes per level: " + t.maxTerms());
  }

  /** With exact counts and a zero band the interval is exactly the true quantile's cell. */
  @Test
  void quantiles_exactCountsZeroBand_intervalIsTheTrueCell() {
    for (int bins : new int[] {2, 17, 1024}) {
      QuantileTree t = new QuantileTree(bins, QuantileTree.BRANCHING);
      long[] c = cells(bins, 7 * bins);
      c[bins / 2] += 3; // at least one row
      long n = Arrays.stream(c).sum();
      double[] ranks = {0, 0.1, 0.25, 0.5, 0.75, 0.9, 1};
      long[] band = new long[t.maxTerms() + 1];
      QuantileTree.Answer a = t.quantiles(t.counts(c), ranks, band);
      for (int i = 0; i < ranks.length; i++) {
        long k = QuantileTree.targetRank(ranks[i], n);
        int cell = 0;
        long below = 0;
        while (below + c[cell] < k) {
          below += c[cell++];
        }
        assertEquals(cell, a.lowerEdge()[i], "rank " + ranks[i]);
        assertEquals(cell + 1, a.upperEdge()[i], "rank " + ranks[i]);
        assertTrue(a.edge()[i] >= cell && a.edge()[i] <= cell + 1);
      }
    }
  }

  @Test
  void targetRank_decimalRank_usesDecimalArithmetic() {
    assertEquals(3, QuantileTree.targetRank(0.1, 30));
    assertEquals(15, QuantileTree.targetRank(0.5, 30));
    assertEquals(16, QuantileTree.targetRank(0.5, 31));
    assertEquals(1, QuantileTree.targetRank(0, 30));
    assertEquals(1, QuantileTree.targetRank(0.5, 0));
    assertEquals(30, QuantileTree.targetRank(1, 30));
  }

  /** Whatever the noise (even absurd), values are monotone in the rank and inside [lower, upper]. */
  @Test
  void quantiles_noisyCounts_monotoneAndWithinIntervals() {
    RandomSource r = new SeededRandomSource(99);
    QuantileTree t = new QuantileTree(300, QuantileTree.BRANCHING);
    double[] ranks = {0, 0.05, 0.3, 0.5, 0.5000001, 0.8, 1};
    for (int trial = 0; trial < 200; trial++) {
      long[] nodes = t.counts(cells(300, trial));
      long scale = 1 + r.nextLong(200);
      long[] noisy = QuantileTree.release(nodes, v -> v + r.nextLong(2 * scale + 1) - scale);
      long[] band = new long[t.maxTerms() + 1];
      Arrays.fill(band, r.nextLong(3 * scale));
      band[0] = 0;
      QuantileTree.Answer a = t.quantiles(noisy, ranks, band);
      for (int i = 0; i < ranks.length; i++) {
        assertTrue(a.lowerEdge()[i] < a.upperEdge()[i], "non-empty interval");
        assertTrue(a.lowerEdge()[i] >= 0 && a.upperEdge()[i] <= 300);
        assertTrue(a.edge()[i] >= a.lowerEdge()[i] && a.edge()[i] <= a.upperEdge()[i]);
        if (i > 0) {
          assertTrue(a.edge()[i] >= a.edge()[i - 1], "monotone values, trial " + trial);
          assertTrue(a.lowerEdge()[i] >= a.lowerEdge()[i - 1], "monotone lower ends");
          assertTrue(a.upperEdge()[i] >= a.upperEdge()[i - 1], "monotone upper ends");
        }
      }
    }
  }

  /** An empty group still gives a non-empty interval and a value in it. */
  @Test
  void quantiles_emptyGroup_nonEmptyIntervalContainingValue() {
    QuantileTree t = new QuantileTree(64, QuantileTree.BRANCHING);
    long[] band = new long[t.maxTerms() + 1];
    QuantileTree.Answer a = t.quantiles(new long[t.size()], new double[] {0.5}, band);
    assertTrue(a.lowerEdge()[0] < a.upperEdge()[0]);
    assertTrue(a.edge()[0] >= a.lowerEdge()[0] && a.edge()[0] <= a.upperEdge()[0]);
  }

  // --- calibration of the simultaneous band (what the interval's coverage rests on) ------------

  private static final int TRIALS = 4000;
  private static final double BETA = 0.2;

  /**
   * Fraction of trials in which the band holds, with noise for {@code epsilon} but the band
   * computed for {@code assumedEpsilon}. Two cells: the tree has the root and two leaves, the band
   * two single-node events (the prefix at edge 1 and the total), so the union bound is nearly
   * tight and the test has power.
   */
  private static long bandHits(NoiseKind kind, double epsilon, double assumedEpsilon, long seed) {
    RandomSource random = new SeededRandomSource(seed);
    QuantileTree t = new QuantileTree(2, QuantileTree.BRANCHING);
    Releases.Noise real = Releases.noise(mechanism(kind, t, epsilon), random);
    Releases.Noise assumed = Releases.noise(mechanism(kind, t, assumedEpsilon), random);
    long[] band = t.band(assumed::sumHalfWidth, BETA);
    long[] exact = t.counts(new long[] {40, 60});
    long hits = 0;
    for (int i = 0; i < TRIALS; i++) {
      if (t.bandHolds(exact, QuantileTree.release(exact, real::release), band)) {
        hits++;
      }
    }
    return hits;
  }

  /** The mechanism the compiler plans for a tree with L0 = L∞ = 1 at this ε (or ρ = ε²/2). */
  private static MechanismSpec mechanism(NoiseKind kind, QuantileTree t, double epsilon) {
    long h = t.levels();
    return kind == NoiseKind.LAPLACE
        ? new MechanismSpec.Geometric(epsilon, h)
        : new MechanismSpec.DiscreteGaussian(epsilon * epsilon / 2, Compiler.l2(1, (int) h), 0);
  }

  /**
   * Coverage ≥ 1 − β: fails wrongly only if a one-sided Clopper–Pearson upper bound at level
   * 1 − 1e-4 falls below 1 − β (probability ≤ 1e-4 per noise kind). Power: a band computed as if
   * the noise were 30% smaller (ε/0.7) must under-cover.
   */
  private static void assertBandCalibrated(NoiseKind kind, long seed) {
    long ok = bandHits(kind, 0.1, 0.1, seed);
    assertTrue(ClopperPearson.upperBound(ok, TRIALS, 1e-4) >= 1 - BETA, ok + "/" + TRIALS);
    long narrow = bandHits(kind, 0.1, 0.1 / 0.7, seed + 1);
    assertFalse(ClopperPearson.upperBound(narrow, TRIALS, 1e-4) >= 1 - BETA,
        "a 30%-too-small band must under-cover: " + narrow + "/" + TRIALS);
  }

  @Test
  void band_geometricNoise_holdsAtStatedRateAndRejectsThirtyPercentLessNoise() {
    assertBandCalibrated(NoiseKind.LAPLACE, 11);
  }

  @Test
  void band_discreteGaussianNoise_holdsAtStatedRateAndRejectsThirtyPercentLessNoise() {
    assertBandCalibrated(NoiseKind.GAUSSIAN, 13);
  }

  /** Sums of several noises: the Chernoff/subgaussian half-widths really bound the tails. */
  @Test
  void sumHalfWidth_manyTerms_tailAtMostGamma() {
    RandomSource random = new SeededRandomSource(5);
    QuantileTree t = new QuantileTree(1024, QuantileTree.BRANCHING);
    for (NoiseKind kind : new NoiseKind[] {NoiseKind.LAPLACE, NoiseKind.GAUSSIAN}) {
      Releases.Noise n = Releases.noise(mechanism(kind, t, 0.5), random);
      int m = 12;
      double gamma = 0.05;
      long a = n.sumHalfWidth(m, gamma);
      long exceed = 0;
      for (int i = 0; i < TRIALS; i++) {
        long s = 0;
        for (int k = 0; k < m; k++) {
          s += n.release(0);
        }
        if (Math.abs(s) > a) {
          exceed++;
        }
      }
      // False failure ≤ 1e-4 (one-sided Clopper–Pearson lower bound).
      assertTrue(ClopperPearson.lowerBound(exceed, TRIALS, 1e-4) <= gamma,
          kind + ": " + exceed + " of " + TRIALS + " beyond " + a);
      assertTrue(a < n.sumHalfWidth(1, gamma / m) * m, "better than the union bound");
    }
  }

  @Test
  void consistent_noisyCounts_areTheLeastSquaresConsistentTree() {
    // Consistency: every node is the sum of its children. Least squares (identity covariance):
    // the residuals x − h summed over each leaf's ancestors (itself included) vanish, the normal
    // equations of min ||x − A·leaves||² with A the node-covers-leaf matrix.
    for (int bins : new int[] {5, 16, 20, 37, 256, 300}) {
      for (int branching : new int[] {2, 4, 16}) {
        QuantileTree t = new QuantileTree(bins, branching);
        RandomSource r = new SeededRandomSource(bins * 31L + branching);
        long[] noisy = QuantileTree.release(t.counts(cells(bins, bins)),
            x -> x + r.nextLong(21) - 10);
        double[] h = t.consistent(noisy);
        double[] leaves = Arrays.copyOfRange(h, t.size() - bins, t.size());
        long[] one = new long[bins];
        double[] residualAlongPath = new double[bins];
        for (int leaf = 0; leaf < bins; leaf++) {
          Arrays.fill(one, 0);
          one[leaf] = 1;
          long[] path = t.counts(one); // 1 on the leaf's ancestors
          for (int v = 0; v < t.size(); v++) {
            residualAlongPath[leaf] += path[v] * (noisy[v] - h[v]);
          }
          assertEquals(0, residualAlongPath[leaf], 1e-6, "bins " + bins + " b " + branching);
        }
        // Node estimates are the sums of the leaves below them.
        double[] fromLeaves = new double[t.size()];
        for (int leaf = 0; leaf < bins; leaf++) {
          Arrays.fill(one, 0);
          one[leaf] = 1;
          long[] path = t.counts(one);
          for (int v = 0; v < t.size(); v++) {
            fromLeaves[v] += path[v] * leaves[leaf];
          }
        }
        for (int v = 0; v < t.size(); v++) {
          assertEquals(fromLeaves[v], h[v], 1e-6 * Math.max(1, Math.abs(h[v])));
        }
      }
    }
  }

  @Test
  void quantiles_consistency_lowersPrefixErrorAndKeepsIntervals() {
    // 400 seeded noisy releases of one tree: the mean squared error of the CDF read by the point
    // estimates is lower with consistency (Hay et al. 2010), and the intervals are identical.
    int bins = 1000;
    QuantileTree t = new QuantileTree(bins, QuantileTree.BRANCHING);
    long[] c = cells(bins, 99);
    long[] exact = t.counts(c);
    RandomSource r = new SeededRandomSource(100);
    double raw = 0;
    double cons = 0;
    int[] terms = new int[1];
    long[] band = new long[t.maxTerms() + 1];
    double[] ranks = {0.1, 0.5, 0.9};
    for (int run = 0; run < 400; run++) {
      long[] noisy = QuantileTree.release(exact, x -> x + r.nextLong(41) - 20);
      double[] h = t.consistent(noisy);
      double cum = 0;
      for (int j = 1; j <= bins; j++) {
        cum += h[t.size() - bins + j - 1];
        double truth = t.prefix(exact, j, terms);
        raw += Math.pow(t.prefix(noisy, j, terms) - truth, 2);
        cons += Math.pow(cum - truth, 2);
      }
      QuantileTree.Answer a = t.quantiles(noisy, ranks, band, true);
      QuantileTree.Answer b = t.quantiles(noisy, ranks, band, false);
      assertTrue(Arrays.equals(a.lowerEdge(), b.lowerEdge())
          && Arrays.equals(a.upperEdge(), b.upperEdge()));
    }
    assertTrue(cons < 0.8 * raw, "consistent " + cons + " vs raw " + raw);
  }
}
