package org.privet.engine.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.privet.engine.NoiseKind;
import org.privet.engine.compile.Compiler;
import org.privet.random.RandomSource;
import org.privet.testing.ClopperPearson;
import org.privet.testing.SeededRandomSource;

/** The quantile tree's structure, its post-processing and the calibration of its per-rank statements. */
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
      for (QuantileTree t : new QuantileTree[] {QuantileTree.forCells(bins),
          new QuantileTree(bins, 16)}) {
        long[] c = cells(bins, bins);
        long[] nodes = t.counts(c);
        int[] terms = new int[1];
        long cumulative = 0;
        for (int j = 0; j <= bins; j++) {
          assertEquals(cumulative, t.prefix(nodes, j, terms), "bins " + bins + ", prefix " + j);
          if (j < bins) {
            // Level 1 has no complement (no released root): up to b nodes there.
            assertTrue(terms[0] <= t.branching() + (t.levels() - 1) * (t.branching() / 2 + 1),
                "terms " + terms[0]);
            cumulative += c[j];
          }
        }
      }
    }
  }

  @Test
  void forCells_shape_rootNotReleasedAndBranchingByCells() {
    QuantileTree t = QuantileTree.forCells(1024);
    assertEquals(11, t.branching());
    assertEquals(3, t.levels()); // 9 nodes of 121 cells, 94 of 11, 1024 cells; no root
    assertEquals(9 + 94 + 1024, t.size());
    QuantileTree google = QuantileTree.forCells(65536);
    assertEquals(16, google.branching()); // Google's BoundedQuantiles: branching 16, height 4
    assertEquals(4, google.levels());
    assertEquals(1, QuantileTree.forCells(2).levels());
  }

  /**
   * The weights of D̂_j are Π q_j with Π the least-squares projection: Π is symmetric and
   * idempotent (the orthogonal projection), which is what makes Σ w_i Z_i the error of D̂_j.
   */
  @Test
  void project_isTheOrthogonalProjection() {
    for (int bins : new int[] {7, 20, 64}) {
      for (int branching : new int[] {2, 3, 4}) {
        QuantileTree t = new QuantileTree(bins, branching);
        int n = t.size();
        double[][] pi = new double[n][];
        for (int i = 0; i < n; i++) {
          double[] e = new double[n];
          e[i] = 1;
          pi[i] = t.project(e); // column i
        }
        for (int i = 0; i < n; i++) {
          for (int k = 0; k < n; k++) {
            assertEquals(pi[i][k], pi[k][i], 1e-9, "symmetric");
          }
          double[] twice = t.project(pi[i]);
          for (int k = 0; k < n; k++) {
            assertEquals(pi[i][k], twice[k], 1e-9, "idempotent");
          }
        }
      }
    }
  }

  /**
   * With exact counts and no noise every statement is exact: the interval is the set of cells c
   * with P_c ≤ r·n ≤ P_{c+1}, which holds the true quantile's cell.
   */
  @Test
  void quantiles_exactCountsNoNoise_intervalIsTheCellsConsistentWithTheData() {
    for (int bins : new int[] {2, 17, 1024}) {
      QuantileTree t = QuantileTree.forCells(bins);
      long[] c = cells(bins, 7 * bins);
      c[bins / 2] += 3; // at least one row
      long n = Arrays.stream(c).sum();
      long[] p = new long[bins + 1];
      for (int j = 0; j < bins; j++) {
        p[j + 1] = p[j] + c[j];
      }
      double[] ranks = {0, 0.1, 0.25, 0.5, 0.75, 0.9, 1};
      QuantileTree.Answer a = t.quantiles(t.counts(c), ranks, new QuantileTree.NodeNoise(0, 0),
          0.05);
      for (int i = 0; i < ranks.length; i++) {
        long k = QuantileTree.targetRank(ranks[i], n);
        int cell = 0;
        while (p[cell + 1] < k) {
          cell++;
        }
        assertTrue(a.lowerEdge()[i] <= cell && cell + 1 <= a.upperEdge()[i], "rank " + ranks[i]);
        for (int x = a.lowerEdge()[i]; x < a.upperEdge()[i]; x++) {
          assertTrue(p[x] <= ranks[i] * n + 1e-6 && p[x + 1] >= ranks[i] * n - 1e-6,
              "cell " + x + " is consistent with rank " + ranks[i]);
        }
        assertTrue(a.edge()[i] >= a.lowerEdge()[i] && a.edge()[i] <= a.upperEdge()[i]);
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

  /** Whatever the noise (even absurd), values and intervals are monotone in the rank, values inside. */
  @Test
  void quantiles_noisyCounts_monotoneAndWithinIntervals() {
    RandomSource r = new SeededRandomSource(99);
    QuantileTree t = QuantileTree.forCells(300);
    double[] ranks = {0, 0.05, 0.3, 0.5, 0.5000001, 0.8, 1};
    for (int trial = 0; trial < 200; trial++) {
      long[] nodes = t.counts(cells(300, trial));
      long scale = 1 + r.nextLong(200);
      long[] noisy = QuantileTree.release(nodes, v -> v + r.nextLong(2 * scale + 1) - scale);
      QuantileTree.NodeNoise assumed = new QuantileTree.NodeNoise(
          Math.pow(r.nextLong(3 * scale), 2), r.nextLong(4));
      QuantileTree.Answer a = t.quantiles(noisy, ranks, assumed, 0.05);
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
    QuantileTree t = QuantileTree.forCells(64);
    QuantileTree.Answer a = t.quantiles(new long[t.size()], new double[] {0.5},
        QuantileTree.NodeNoise.laplace(3), 0.05);
    assertTrue(a.lowerEdge()[0] < a.upperEdge()[0]);
    assertTrue(a.edge()[0] >= a.lowerEdge()[0] && a.edge()[0] <= a.upperEdge()[0]);
  }

  // --- calibration of the per-edge statements (what the interval's coverage rests on) ----------

  private static final int TRIALS = 4000;
  private static final double GAMMA = 0.025;

  /** The mechanism the compiler plans for a tree with L0 = L∞ = 1 at this ε (or ρ = ε²/2). */
  private static MechanismSpec mechanism(NoiseKind kind, QuantileTree t, double epsilon) {
    long h = t.levels();
    return kind == NoiseKind.LAPLACE
        ? new MechanismSpec.Geometric(epsilon, h)
        : new MechanismSpec.DiscreteGaussian(epsilon * epsilon / 2, Compiler.l2(1, (int) h), 0);
  }

  /**
   * Trials (of {@link #TRIALS}) in which D̂_j exceeds D_j + a_j(γ), with the noise of {@code
   * epsilon} and a_j computed for {@code assumedEpsilon}; the one-sided statement the interval
   * uses at the true cell's lower edge (the upper edge's is its mirror image: the noise is
   * symmetric).
   */
  private static long exceedances(NoiseKind kind, int bins, int edge, double rank,
      double epsilon, double assumedEpsilon, long seed) {
    RandomSource random = new SeededRandomSource(seed);
    QuantileTree t = QuantileTree.forCells(bins);
    Releases.Noise real = Releases.noise(mechanism(kind, t, epsilon), random);
    QuantileTree.NodeNoise assumed = QuantileTree.NodeNoise.of(
        Releases.noise(mechanism(kind, t, assumedEpsilon), random));
    double a = t.edgeHalfWidth(edge, rank, assumed, GAMMA);
    long[] exact = t.counts(cells(bins, 5));
    double truth = t.rankStatistic(exact, rank)[edge];
    long over = 0;
    for (int i = 0; i < TRIALS; i++) {
      if (t.rankStatistic(QuantileTree.release(exact, real::release), rank)[edge] > truth + a) {
        over++;
      }
    }
    return over;
  }

  /**
   * P[D̂_j − D_j &gt; a_j(γ)] ≤ γ: fails wrongly only if a one-sided Clopper–Pearson lower bound at
   * level 1 − 1e-4 exceeds γ (probability ≤ 1e-4 per case). Power: a_j computed as if the noise
   * were 30% smaller (ε/0.7) must be exceeded too often. Cases: one node (2 cells: the
   * Cornish–Fisher correction matters most) and a weighted sum of many (1,024 cells, the median's
   * and the 0.9 quantile's edges).
   */
  private static void assertCalibrated(NoiseKind kind, long seed) {
    int[][] cases = {{2, 1, 50}, {1024, 430, 50}, {1024, 900, 90}};
    for (int[] c : cases) {
      double rank = c[2] / 100.0;
      long ok = exceedances(kind, c[0], c[1], rank, 0.1, 0.1, seed);
      assertTrue(ClopperPearson.lowerBound(ok, TRIALS, 1e-4) <= GAMMA,
          kind + " " + Arrays.toString(c) + ": " + ok + "/" + TRIALS);
      long narrow = exceedances(kind, c[0], c[1], rank, 0.1, 0.1 / 0.7, seed + 1);
      assertTrue(ClopperPearson.lowerBound(narrow, TRIALS, 1e-4) > GAMMA,
          "a 30%-too-small statement must be exceeded too often: " + kind + " "
              + Arrays.toString(c) + ": " + narrow + "/" + TRIALS);
    }
  }

  @Test
  void edgeHalfWidth_geometricNoise_holdsAtStatedRateAndRejectsThirtyPercentLessNoise() {
    assertCalibrated(NoiseKind.LAPLACE, 11);
  }

  @Test
  void edgeHalfWidth_discreteGaussianNoise_holdsAtStatedRateAndRejectsThirtyPercentLessNoise() {
    assertCalibrated(NoiseKind.GAUSSIAN, 13);
  }

  @Test
  void nodeNoise_noiseBelowDoubleResolution_isZeroNotNaN() {
    assertEquals(new QuantileTree.NodeNoise(0, 0), QuantileTree.NodeNoise.laplace(1e-12));
    assertEquals(new QuantileTree.NodeNoise(0, 0), QuantileTree.NodeNoise.gaussian(1e-12));
  }

  @Test
  void nodeNoise_moments_matchTheSampler() {
    // Variance and excess kurtosis against 200,000 draws of the real samplers (s.e. of the
    // variance ≈ 0.6%, of the kurtosis ≈ 0.05 for the Laplace: tolerances ≥ 6 s.e.).
    RandomSource random = new SeededRandomSource(21);
    for (MechanismSpec spec : new MechanismSpec[] {new MechanismSpec.Geometric(0.5, 2),
        new MechanismSpec.DiscreteGaussian(0.3, 1, 0)}) {
      Releases.Noise n = Releases.noise(spec, random);
      QuantileTree.NodeNoise m = QuantileTree.NodeNoise.of(n);
      double s2 = 0;
      double s4 = 0;
      int draws = 200_000;
      for (int i = 0; i < draws; i++) {
        double x = n.release(0);
        s2 += x * x;
        s4 += x * x * x * x;
      }
      s2 /= draws;
      s4 /= draws;
      assertEquals(m.variance(), s2, 0.04 * m.variance(), spec.toString());
      assertEquals(m.excessKurtosis(), s4 / (s2 * s2) - 3, 0.4, spec.toString());
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
    QuantileTree t = QuantileTree.forCells(bins);
    long[] c = cells(bins, 99);
    long[] exact = t.counts(c);
    RandomSource r = new SeededRandomSource(100);
    double raw = 0;
    double cons = 0;
    int[] terms = new int[1];
    QuantileTree.NodeNoise noise = new QuantileTree.NodeNoise(140, 0);
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
      QuantileTree.Answer a = t.quantiles(noisy, ranks, noise, 0.05, true);
      QuantileTree.Answer b = t.quantiles(noisy, ranks, noise, 0.05, false);
      assertTrue(Arrays.equals(a.lowerEdge(), b.lowerEdge())
          && Arrays.equals(a.upperEdge(), b.upperEdge()));
    }
    assertTrue(cons < 0.8 * raw, "consistent " + cons + " vs raw " + raw);
  }
}
