package org.privet.synth;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.privet.random.RandomSource;

/**
 * A calibrated discrete graphical model on a {@link JunctionTree}: clique log-potentials, their
 * exact marginals from sum-product belief propagation in log space, and a total record count.
 *
 * <p>Used as the estimate of the data distribution in Private-PGM style (McKenna, Sheldon &amp;
 * Miklau 2019, "Graphical-model based estimation and inference for differential privacy"). It is
 * computed only from noisy measurements, so everything done with it is post-processing.
 */
final class GraphicalModel {
  /** Default cap (in cells) on the work of one out-of-clique marginal computation. */
  static final double DEFAULT_PROJECTION_CAP = 4e6;

  final JunctionTree tree;
  final double total;
  /** Normalized clique marginals (probabilities), per clique. */
  final double[][] prob;
  private final int[][] sepMap;

  private GraphicalModel(JunctionTree tree, double total, double[][] prob, int[][] sepMap) {
    this.tree = tree;
    this.total = total;
    this.prob = prob;
    this.sepMap = sepMap;
  }

  /** Index maps from each clique to its separator with its parent (reusable across calibrations). */
  static int[][] separatorMaps(JunctionTree jt) {
    int[][] maps = new int[jt.cliques.length][];
    for (int c = 0; c < maps.length; c++) {
      maps[c] = jt.parent[c] < 0 ? null : IndexMap.of(jt.card, jt.cliques[jt.parent[c]], jt.separator[c]);
    }
    return maps;
  }

  /** Index maps from each non-root clique to its own separator with its parent. */
  static int[][] childMaps(JunctionTree jt) {
    int[][] maps = new int[jt.cliques.length][];
    for (int c = 0; c < maps.length; c++) {
      maps[c] = jt.parent[c] < 0 ? null : IndexMap.of(jt.card, jt.cliques[c], jt.separator[c]);
    }
    return maps;
  }

  /**
   * Runs belief propagation on the given clique log-potentials.
   *
   * @param parentToSep for each non-root clique c, the map from parent(c)'s cells to sep(c)
   * @param selfToSep for each non-root clique c, the map from c's cells to sep(c)
   */
  static GraphicalModel calibrate(
      JunctionTree jt, double[][] logPotential, double total, int[][] parentToSep, int[][] selfToSep) {
    int k = jt.cliques.length;
    double[][] inward = new double[k][];
    double[][] up = new double[k][];
    for (int i = k - 1; i >= 0; i--) {
      int c = jt.order[i];
      double[] b = logPotential[c].clone();
      for (int child : jt.children.get(c)) {
        int[] map = parentToSep[child];
        double[] m = up[child];
        for (int x = 0; x < b.length; x++) {
          b[x] += m[map[x]];
        }
      }
      inward[c] = b;
      if (jt.parent[c] >= 0) {
        up[c] = IndexMap.logSumExp(b, selfToSep[c], IndexMap.cells(jt.card, jt.separator[c]));
      }
    }
    double[][] full = new double[k][];
    double[][] down = new double[k][];
    for (int i = 0; i < k; i++) {
      int c = jt.order[i];
      double[] b = inward[c];
      if (jt.parent[c] >= 0) {
        int[] map = selfToSep[c];
        double[] m = down[c];
        for (int x = 0; x < b.length; x++) {
          b[x] += m[map[x]];
        }
      }
      full[c] = b;
      for (int child : jt.children.get(c)) {
        int[] map = parentToSep[child];
        double[] u = up[child];
        double[] tmp = new double[b.length];
        for (int x = 0; x < b.length; x++) {
          tmp[x] = b[x] - u[map[x]];
        }
        down[child] = IndexMap.logSumExp(tmp, map, u.length);
      }
    }
    double[][] prob = new double[k][];
    for (int c = 0; c < k; c++) {
      double[] b = full[c];
      double max = Double.NEGATIVE_INFINITY;
      for (double v : b) {
        max = Math.max(max, v);
      }
      double[] p = new double[b.length];
      double s = 0;
      for (int x = 0; x < b.length; x++) {
        p[x] = Math.exp(b[x] - max);
        s += p[x];
      }
      for (int x = 0; x < b.length; x++) {
        p[x] /= s;
      }
      prob[c] = p;
    }
    return new GraphicalModel(jt, total, prob, selfToSep);
  }

  /** The model's marginal counts (scaled to {@link #total}) over sorted attrs; must lie in a clique. */
  double[] cliqueMarginal(int[] attrs) {
    int c = tree.cliqueContaining(attrs);
    if (c < 0) {
      throw new IllegalStateException("no clique contains the attributes");
    }
    double[] p = IndexMap.sum(prob[c], IndexMap.of(tree.card, tree.cliques[c], attrs),
        IndexMap.cells(tree.card, attrs));
    for (int i = 0; i < p.length; i++) {
      p[i] *= total;
    }
    return p;
  }

  /**
   * The model's marginal counts over sorted attrs by variable elimination on the smallest subtree
   * covering them, or {@code null} when that would touch more than {@code cap} cells at once.
   */
  double[] project(int[] attrs, double cap) {
    if (tree.cliqueContaining(attrs) >= 0) {
      return cliqueMarginal(attrs);
    }
    int k = tree.cliques.length;
    // Choose, for each attribute, a clique holding it (preferring cliques holding many of attrs).
    Set<Integer> chosen = new HashSet<>();
    for (int a : attrs) {
      int best = -1;
      int bestHits = -1;
      for (int c = 0; c < k; c++) {
        if (IndexMap.indexOf(tree.cliques[c], a) >= 0) {
          int hits = IndexMap.intersect(tree.cliques[c], attrs).length;
          if (hits > bestHits) {
            bestHits = hits;
            best = c;
          }
        }
      }
      chosen.add(best);
    }
    // Steiner subtree: all cliques on tree paths between chosen cliques (via depth and parents).
    int[] depth = new int[k];
    for (int c : tree.order) {
      depth[c] = tree.parent[c] < 0 ? 0 : depth[tree.parent[c]] + 1;
    }
    Set<Integer> sub = new HashSet<>(chosen);
    Integer[] ch = chosen.toArray(Integer[]::new);
    for (int i = 1; i < ch.length; i++) {
      int x = ch[0];
      int y = ch[i];
      while (x != y) {
        if (depth[x] >= depth[y]) {
          x = tree.parent[x];
        } else {
          y = tree.parent[y];
        }
        sub.add(x);
        sub.add(y);
      }
    }
    // The subtree's top node (minimum depth) is its root.
    int root = -1;
    for (int c : sub) {
      if (root < 0 || depth[c] < depth[root]) {
        root = c;
      }
    }
    Factor f = eliminate(root, sub, attrs, cap);
    if (f == null) {
      return null;
    }
    double[] out = IndexMap.sum(f.values, IndexMap.of(tree.card, f.attrs, attrs), IndexMap.cells(tree.card, attrs));
    for (int i = 0; i < out.length; i++) {
      out[i] *= total;
    }
    return out;
  }

  private record Factor(int[] attrs, double[] values) {}

  /** Message from clique c (within the subtree) to its parent: Σ over non-kept vars of P(c | sep) Π children. */
  private Factor eliminate(int c, Set<Integer> sub, int[] keep, double cap) {
    var msgs = new ArrayList<Factor>();
    int[] carried = new int[0];
    for (int child : tree.children.get(c)) {
      if (sub.contains(child)) {
        Factor m = eliminate(child, sub, keep, cap);
        if (m == null) {
          return null;
        }
        msgs.add(m);
        carried = IndexMap.union(carried, m.attrs);
      }
    }
    boolean isRoot = !sub.contains(tree.parent[c]) || tree.parent[c] < 0;
    int[] sep = isRoot ? new int[0] : tree.separator[c];
    int[] clique = tree.cliques[c];
    double[] local = prob[c];
    if (!isRoot) {
      int[] map = sepMap[c];
      double[] ps = IndexMap.sum(prob[c], map, IndexMap.cells(tree.card, sep));
      local = new double[prob[c].length];
      for (int x = 0; x < local.length; x++) {
        double s = ps[map[x]];
        local[x] = s > 0 ? prob[c][x] / s : 0;
      }
    }
    // Sum out, before any product, the clique's variables needed neither above nor below.
    final int[] below = carried;
    int[] needed = Arrays.stream(clique).filter(a -> IndexMap.indexOf(keep, a) >= 0
        || IndexMap.indexOf(sep, a) >= 0 || IndexMap.indexOf(below, a) >= 0).toArray();
    if (needed.length < clique.length) {
      local = IndexMap.sum(local, IndexMap.of(tree.card, clique, needed), IndexMap.cells(tree.card, needed));
    }
    int[] vars = IndexMap.union(needed, carried);
    if (IndexMap.cellsApprox(tree.card, vars) > cap) {
      return null;
    }
    double[] prod;
    if (msgs.isEmpty()) {
      prod = local;
    } else {
      prod = new double[IndexMap.cells(tree.card, vars)];
      int[] m0 = IndexMap.of(tree.card, vars, needed);
      for (int x = 0; x < prod.length; x++) {
        prod[x] = local[m0[x]];
      }
      for (Factor m : msgs) {
        int[] mm = IndexMap.of(tree.card, vars, m.attrs);
        for (int x = 0; x < prod.length; x++) {
          prod[x] *= m.values[mm[x]];
        }
      }
    }
    int[] out = Arrays.stream(vars).filter(a -> IndexMap.indexOf(keep, a) >= 0 || IndexMap.indexOf(sep, a) >= 0).toArray();
    if (out.length == vars.length) {
      return new Factor(out, prod);
    }
    return new Factor(out, IndexMap.sum(prod, IndexMap.of(tree.card, vars, out), IndexMap.cells(tree.card, out)));
  }

  /**
   * Draws {@code rows} records: attributes are generated clique by clique in tree order, each one
   * conditionally on the attributes of its clique already generated; within each group of equal
   * conditioning values the counts are the model's conditional counts, rounded by systematic
   * sampling (unbiased, and much less variable than i.i.d. draws; Private-PGM's "round" method).
   * The uniforms are built from {@link RandomSource} bits; this is post-processing of a DP output.
   */
  int[][] sample(int rows, RandomSource random) {
    int d = tree.card.length;
    int[][] cols = new int[d][rows];
    boolean[] done = new boolean[d];
    for (int c : tree.order) {
      int[] clique = tree.cliques[c];
      for (int v : clique) {
        if (done[v]) {
          continue;
        }
        int[] cond = Arrays.stream(clique).filter(a -> done[a]).toArray();
        int[] joint = IndexMap.union(cond, new int[] {v});
        double[] pj = IndexMap.sum(prob[c], IndexMap.of(tree.card, clique, joint), IndexMap.cells(tree.card, joint));
        fillColumn(cols, cond, v, pj, rows, random);
        done[v] = true;
      }
    }
    return cols;
  }

  private void fillColumn(int[][] cols, int[] cond, int v, double[] pj, int rows, RandomSource random) {
    int cv = tree.card[v];
    int groups = IndexMap.cells(tree.card, cond);
    // joint index = groupIndex * cv + value, because v is... not necessarily last in sorted order
    int[] jointAttrs = IndexMap.union(cond, new int[] {v});
    int[] toGroup = IndexMap.of(tree.card, jointAttrs, cond);
    int[] toValue = IndexMap.of(tree.card, jointAttrs, new int[] {v});
    double[][] cond2 = new double[groups][cv];
    for (int x = 0; x < pj.length; x++) {
      cond2[toGroup[x]][toValue[x]] += pj[x];
    }
    int[] stride = new int[cond.length];
    int s = 1;
    for (int j = cond.length - 1; j >= 0; j--) {
      stride[j] = s;
      s *= tree.card[cond[j]];
    }
    int[] key = new int[rows];
    int[] count = new int[groups + 1];
    for (int i = 0; i < rows; i++) {
      int g = 0;
      for (int j = 0; j < cond.length; j++) {
        g += cols[cond[j]][i] * stride[j];
      }
      key[i] = g;
      count[g + 1]++;
    }
    for (int g = 0; g < groups; g++) {
      count[g + 1] += count[g];
    }
    int[] sorted = new int[rows];
    int[] pos = Arrays.copyOf(count, groups);
    for (int i = 0; i < rows; i++) {
      sorted[pos[key[i]]++] = i;
    }
    for (int g = 0; g < groups; g++) {
      int from = count[g];
      int m = count[g + 1] - from;
      if (m == 0) {
        continue;
      }
      int[] vals = allocate(cond2[g], m, random);
      for (int t = 0; t < m; t++) {
        cols[v][sorted[from + t]] = vals[t];
      }
    }
  }

  /** m values with counts m·p (normalized), rounded by systematic sampling, in random order. */
  static int[] allocate(double[] weights, int m, RandomSource random) {
    double sum = 0;
    for (double w : weights) {
      sum += Math.max(0, w);
    }
    int n = weights.length;
    int[] vals = new int[m];
    int filled = 0;
    double u = uniform(random);
    double acc = 0;
    for (int x = 0; x < n && filled < m; x++) {
      double target = sum > 0 ? Math.max(0, weights[x]) / sum * m : (double) m / n;
      // Systematic sampling: value x gets the integers in [acc + u, acc + target + u) count.
      int before = (int) Math.floor(acc + u);
      acc += target;
      int after = x == n - 1 ? m + (int) Math.floor(u) : (int) Math.floor(acc + u);
      for (int t = before; t < after && filled < m; t++) {
        vals[filled++] = x;
      }
    }
    while (filled < m) {
      vals[filled++] = n - 1;
    }
    for (int i = m - 1; i > 0; i--) {
      int j = (int) random.nextLong(i + 1);
      int t = vals[i];
      vals[i] = vals[j];
      vals[j] = t;
    }
    return vals;
  }

  /** A uniform double in [0, 1) from 53 random bits (post-processing only, never privacy noise). */
  static double uniform(RandomSource random) {
    return (random.nextLong() >>> 11) * 0x1.0p-53;
  }
}
