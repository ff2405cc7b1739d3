package org.privet.synth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.testing.SeededRandomSource;

class GraphicalModelTest {
  private static final int[] CARD = {2, 3, 2, 3};

  /** A table whose distribution is a Markov chain 0 - 1 - 2 - 3 (so the chain model is exact). */
  private static Table chainTable() {
    var r = new SeededRandomSource(11);
    int n = 4000;
    int[][] cols = new int[4][n];
    for (int i = 0; i < n; i++) {
      cols[0][i] = (int) r.nextLong(2);
      cols[1][i] = (cols[0][i] + (int) r.nextLong(2)) % 3;
      cols[2][i] = r.nextLong(4) == 0 ? 1 - cols[1][i] % 2 : cols[1][i] % 2;
      cols[3][i] = (2 * cols[2][i] + (int) r.nextLong(2)) % 3;
    }
    Domain dom = Domain.of(List.of(Attribute.coded("a", 2), Attribute.coded("b", 3), Attribute.coded("c", 2),
        Attribute.coded("d", 3)));
    return Table.of(dom, cols);
  }

  private static List<Measurement> exactChain(Table t) {
    var ms = new ArrayList<Measurement>();
    for (int[] c : new int[][] {{0}, {1}, {2}, {3}, {0, 1}, {1, 2}, {2, 3}}) {
      ms.add(new Measurement(c, t.marginal(c), 1.0));
    }
    return ms;
  }

  @Test
  void estimate_consistentChainMarginals_reproducesThem() {
    Table t = chainTable();
    GraphicalModel m = new MarginalEstimator(CARD).estimate(exactChain(t), 2000);
    assertEquals(t.rows(), m.total, 1e-6);
    for (int[] c : new int[][] {{0, 1}, {1, 2}, {2, 3}}) {
      double[] real = t.marginal(c);
      double[] est = m.cliqueMarginal(c);
      for (int i = 0; i < real.length; i++) {
        assertEquals(real[i], est[i], 2.0, "cell " + i + " of " + java.util.Arrays.toString(c));
      }
    }
  }

  @Test
  void project_outOfCliqueMarginal_equalsChainFormula() {
    Table t = chainTable();
    GraphicalModel m = new MarginalEstimator(CARD).estimate(exactChain(t), 2000);
    // P(a, d) = sum_{b,c} P(a,b) P(c|b) P(d|c) from the real marginals.
    double[] ab = t.marginal(new int[] {0, 1});
    double[] bc = t.marginal(new int[] {1, 2});
    double[] cd = t.marginal(new int[] {2, 3});
    double[] b = t.marginal(new int[] {1});
    double[] c = t.marginal(new int[] {2});
    double n = t.rows();
    double[] expected = new double[6];
    for (int a = 0; a < 2; a++) {
      for (int d = 0; d < 3; d++) {
        double s = 0;
        for (int bb = 0; bb < 3; bb++) {
          for (int cc = 0; cc < 2; cc++) {
            s += ab[a * 3 + bb] / n * (bc[bb * 2 + cc] / b[bb]) * (cd[cc * 3 + d] / c[cc]);
          }
        }
        expected[a * 3 + d] = s * n;
      }
    }
    double[] got = m.project(new int[] {0, 3}, 1e9);
    assertArrayEquals(expected, got, 2.0);
    double[] got3 = m.project(new int[] {0, 1, 3}, 1e9);
    double[] summed = IndexMap.sum(got3, IndexMap.of(CARD, new int[] {0, 1, 3}, new int[] {0, 3}), 6);
    assertArrayEquals(got, summed, 1e-6);
    // A tiny work cap makes the out-of-clique projection decline rather than blow up.
    assertEquals(null, m.project(new int[] {0, 3}, 2));
  }

  @Test
  void allocate_anyWeights_sumsToMAndRoundsEachCount() {
    var r = new SeededRandomSource(3);
    double[] w = {0.1, 2.5, 0, 7.4};
    for (int m : new int[] {1, 7, 100, 1001}) {
      int[] vals = GraphicalModel.allocate(w, m, r);
      assertEquals(m, vals.length);
      int[] counts = new int[4];
      for (int v : vals) {
        counts[v]++;
      }
      for (int x = 0; x < 4; x++) {
        double target = w[x] / 10.0 * m;
        assertTrue(counts[x] >= Math.floor(target) && counts[x] <= Math.ceil(target),
            "count " + counts[x] + " vs " + target);
      }
    }
  }

  @Test
  void sample_fittedChain_matchesModelMarginalsClosely() {
    Table t = chainTable();
    GraphicalModel m = new MarginalEstimator(CARD).estimate(exactChain(t), 2000);
    int[][] cols = m.sample(t.rows(), new SeededRandomSource(5));
    Table s = Table.trusted(t.domain(), cols);
    // Systematic rounding: 1-way marginals are exact up to rounding of one record per cell, and
    // pairwise marginals of the chain are within sampling error of the model (4000 rows: the
    // L1 distance of a 6-cell empirical marginal is below 0.08 with overwhelming probability).
    for (int a = 0; a < 4; a++) {
      assertEquals(0.0, WorkloadError.l1(t.marginal(new int[] {a}), t.rows(), s.marginal(new int[] {a}), s.rows()),
          2.0 * CARD[a] / t.rows() + 1e-9);
    }
    assertTrue(WorkloadError.evaluate(t, s, Workload.allKWay(t.domain(), 2)).average() < 0.08);
  }

  @Test
  void junctionTree_anyCover_hasRunningIntersection() {
    int[] card = {3, 3, 3, 3, 3};
    JunctionTree jt = JunctionTree.build(card, List.of(new int[] {0, 1}, new int[] {1, 2}, new int[] {2, 3},
        new int[] {3, 0}, new int[] {4}));
    // Every cover set lies in some clique; every attribute's cliques form a connected subtree.
    for (int[] c : new int[][] {{0, 1}, {1, 2}, {2, 3}, {0, 3}, {4}}) {
      assertTrue(jt.cliqueContaining(c) >= 0);
    }
    for (int a = 0; a < 5; a++) {
      int holders = 0;
      int edges = 0;
      for (int c = 0; c < jt.cliques.length; c++) {
        if (IndexMap.indexOf(jt.cliques[c], a) >= 0) {
          holders++;
          if (jt.parent[c] >= 0 && IndexMap.indexOf(jt.cliques[jt.parent[c]], a) >= 0) {
            edges++;
          }
        }
      }
      assertEquals(holders - 1, edges, "attribute " + a);
    }
  }
}
