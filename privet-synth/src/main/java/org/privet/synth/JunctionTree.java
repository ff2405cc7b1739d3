package org.privet.synth;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A junction tree over all attributes whose cliques cover a given set of attribute subsets: the
 * structure on which {@link GraphicalModel} runs exact belief propagation (Koller &amp; Friedman
 * 2009, ch. 10; as used by Private-PGM, McKenna, Sheldon &amp; Miklau 2019).
 *
 * <p>Built by greedy variable elimination (at each step the attribute whose elimination clique has
 * the fewest cells), keeping the maximal elimination cliques, and joining them by a maximum spanning
 * tree on separator size, which yields the running-intersection property for the cliques of a
 * chordal graph. Disconnected parts are joined by empty separators.
 */
final class JunctionTree {
  final int[] card;
  /** Sorted attribute indices of each clique. */
  final int[][] cliques;
  /** Parent of each clique, −1 for the root (clique 0). */
  final int[] parent;
  /** Cliques in breadth-first order from the root: every parent precedes its children. */
  final int[] order;
  /** Separator of each clique with its parent (empty for the root). */
  final int[][] separator;
  final List<List<Integer>> children;

  private JunctionTree(int[] card, int[][] cliques, int[] parent) {
    this.card = card;
    this.cliques = cliques;
    this.parent = parent;
    int k = cliques.length;
    children = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      children.add(new ArrayList<>());
    }
    for (int i = 0; i < k; i++) {
      if (parent[i] >= 0) {
        children.get(parent[i]).add(i);
      }
    }
    order = new int[k];
    var queue = new ArrayDeque<Integer>();
    queue.add(0);
    int n = 0;
    while (!queue.isEmpty()) {
      int c = queue.poll();
      order[n++] = c;
      queue.addAll(children.get(c));
    }
    separator = new int[k][];
    for (int i = 0; i < k; i++) {
      separator[i] = parent[i] < 0 ? new int[0] : IndexMap.intersect(cliques[i], cliques[parent[i]]);
    }
  }

  /** Builds a junction tree over attributes {@code 0..card.length-1} covering every given subset. */
  static JunctionTree build(int[] card, List<int[]> cover) {
    int[][] maximal = maximalCliques(card, cover);
    int k = maximal.length;
    // Maximum spanning tree on separator size (Prim), from clique 0.
    int[] parent = new int[k];
    Arrays.fill(parent, -1);
    boolean[] in = new boolean[k];
    int[] best = new int[k];
    int[] bestFrom = new int[k];
    Arrays.fill(best, -1);
    in[0] = true;
    for (int j = 1; j < k; j++) {
      best[j] = IndexMap.intersect(maximal[0], maximal[j]).length;
      bestFrom[j] = 0;
    }
    for (int step = 1; step < k; step++) {
      int pick = -1;
      for (int j = 0; j < k; j++) {
        if (!in[j] && (pick < 0 || best[j] > best[pick])) {
          pick = j;
        }
      }
      in[pick] = true;
      parent[pick] = bestFrom[pick];
      for (int j = 0; j < k; j++) {
        if (!in[j]) {
          int w = IndexMap.intersect(maximal[pick], maximal[j]).length;
          if (w > best[j]) {
            best[j] = w;
            bestFrom[j] = pick;
          }
        }
      }
    }
    return new JunctionTree(card, maximal, parent);
  }

  /** Total number of cells over all cliques of the tree that would cover {@code cover}. */
  static double size(int[] card, List<int[]> cover) {
    double s = 0;
    for (int[] c : maximalCliques(card, cover)) {
      s += IndexMap.cellsApprox(card, c);
    }
    return s;
  }

  double size() {
    double s = 0;
    for (int[] c : cliques) {
      s += IndexMap.cellsApprox(card, c);
    }
    return s;
  }

  private static int[][] maximalCliques(int[] card, List<int[]> cover) {
    int d = card.length;
    boolean[][] adj = new boolean[d][d];
    for (int[] c : cover) {
      for (int a : c) {
        for (int b : c) {
          if (a != b) {
            adj[a][b] = true;
          }
        }
      }
    }
    boolean[] gone = new boolean[d];
    var elim = new ArrayList<int[]>();
    for (int step = 0; step < d; step++) {
      int pick = -1;
      double pickCost = Double.POSITIVE_INFINITY;
      for (int v = 0; v < d; v++) {
        if (gone[v]) {
          continue;
        }
        double cost = card[v];
        for (int u = 0; u < d; u++) {
          if (!gone[u] && adj[v][u]) {
            cost *= card[u];
          }
        }
        if (cost < pickCost) {
          pickCost = cost;
          pick = v;
        }
      }
      var clique = new ArrayList<Integer>();
      clique.add(pick);
      for (int u = 0; u < d; u++) {
        if (!gone[u] && adj[pick][u]) {
          clique.add(u);
        }
      }
      for (int x : clique) {
        for (int y : clique) {
          if (x != y) {
            adj[x][y] = true;
          }
        }
      }
      gone[pick] = true;
      elim.add(clique.stream().mapToInt(Integer::intValue).sorted().toArray());
    }
    var maximal = new ArrayList<int[]>();
    for (int i = 0; i < elim.size(); i++) {
      int[] c = elim.get(i);
      boolean dominated = false;
      for (int j = 0; j < elim.size() && !dominated; j++) {
        int[] o = elim.get(j);
        if (j != i && o.length >= c.length && IndexMap.contains(o, c) && (o.length > c.length || j < i)) {
          dominated = true;
        }
      }
      if (!dominated) {
        maximal.add(c);
      }
    }
    return maximal.toArray(int[][]::new);
  }

  /** Index of a clique containing all of {@code attrs}, or −1. */
  int cliqueContaining(int[] attrs) {
    int best = -1;
    for (int i = 0; i < cliques.length; i++) {
      if (IndexMap.contains(cliques[i], attrs)
          && (best < 0 || IndexMap.cellsApprox(card, cliques[i]) < IndexMap.cellsApprox(card, cliques[best]))) {
        best = i;
      }
    }
    return best;
  }
}
