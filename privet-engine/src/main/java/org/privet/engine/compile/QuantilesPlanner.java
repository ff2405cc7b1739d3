package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;
import org.privet.engine.spi.Measure;

/**
 * QUANTILES on a grid of cells: one noisy quantile tree for all ranks ({@link QuantileTree},
 * {@code docs/proofs/engine-quantiles.md}), or Smith's exponential mechanism once per rank.
 *
 * <p>Sensitivities: the tree L1 = L0·L∞·H, L2 = L∞·√(L0·H) over H levels; under a total row cap
 * m, L1 = m·H and L2 = m·√H (per level a unit's k_g rows in group g move its nodes by at most
 * k_g, Σ k_g ≤ m). The exponential mechanism: ε/L0 per group at Δu = L∞; under the cap ε per
 * group at Δu = m, which costs Σ ε·k_g/m ≤ ε ({@code docs/proofs/rows-contributed.md}).
 */
record QuantilesPlanner(Aggregation.Quantiles aggregation) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.of(aggregation.column());
  }

  @Override
  public void plan(Rewrite r) {
    Aggregation.Quantiles qs = aggregation;
    int mi = r.addMeasure(new Measure.Bins(qs.column(), qs.lower(), qs.upper(), qs.bins()));
    r.bounds.add(qs.name() + ": quantiles on a grid of " + qs.bins() + " cells over ["
        + qs.lower() + ", " + qs.upper() + "] of " + qs.column()
        + ", NULL/NaN ignored, ≤ L∞ rows per unit per group");
    if (qs.method() == Aggregation.Quantiles.Method.TREE) {
      // One noisy quantile tree for all ranks: each kept row counts in one node per level.
      QuantileTree tree = QuantileTree.forCells(qs.bins());
      int levels = tree.levels();
      r.treeRelease(new Release.Target(qs.name(), "quantile tree of " + qs.column()
          + " for ranks " + qs.ranks() + " (branching " + tree.branching() + ", " + levels
          + " levels, " + tree.size() + " noisy node counts per group)", Release.Field.TREE, mi,
          0), levels);
    } else {
      for (double rank : qs.ranks()) {
        r.exponentialRelease(new Release.Target(qs.name(), "exponential-mechanism quantile "
            + rank + " of " + qs.column(), Release.Field.QUANTILE, mi, 0, 0, rank), r.lInf);
      }
    }
  }

  @Override
  public List<String> outputNames() {
    if (aggregation.ranks().size() == 1) {
      return List.of(aggregation.name());
    }
    List<String> names = new ArrayList<>();
    for (double rank : aggregation.ranks()) {
      names.add(aggregation.name() + "[" + rank + "]");
    }
    return names;
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    if (g.target(releases.get(0)).field() == Release.Field.TREE) {
      treeQuantiles(g, releases.get(0), out);
    } else {
      exponentialQuantiles(g, releases, out);
    }
  }

  /**
   * Quantile-tree quantiles: one noisy release of all tree nodes, then post-processing into a
   * monotone value per rank and, per rank, an interval that covers the true quantile's grid cell
   * with probability ≥ 1 − β ({@link QuantileTree}).
   */
  private void treeQuantiles(Releaser.Group g, int ri, Map<String, Estimate> out) {
    Aggregation.Quantiles q = aggregation;
    double[] ranks = q.ranks().stream().mapToDouble(Double::doubleValue).toArray();
    QuantileTree.Answer ans = treeAnswer(g, ri, ranks);
    int b = q.bins();
    List<String> names = outputNames();
    for (int r = 0; r < ranks.length; r++) {
      out.put(names.get(r), new Estimate(edgeValue(ans.edge()[r], b),
          edgeValue(ans.lowerEdge()[r], b), edgeValue(ans.upperEdge()[r], b), 1 - g.beta()));
    }
  }

  /**
   * The noisy tree of release {@code ri} in group {@code g} (fresh noise on every node), read at
   * {@code ranks}: quantiles and intervals in grid-edge units.
   */
  static QuantileTree.Answer treeAnswer(Releaser.Group g, int ri, double[] ranks) {
    QuantileTree tree = g.tree(ri);
    long[] cells = g.aggregate().bins()[g.target(ri).measure()];
    long[] noisy = QuantileTree.release(tree.counts(cells), exact -> g.noisyEntry(ri, exact));
    return tree.quantiles(noisy, ranks, g.nodeNoise(ri), g.beta());
  }

  /** lower + (upper − lower)·j/B, exactly lower at j = 0 and upper at j = B. */
  private double edgeValue(double j, int b) {
    Aggregation.Quantiles q = aggregation;
    return j >= b ? q.upper() : q.lower() + (q.upper() - q.lower()) * j / b;
  }

  /**
   * Exponential-mechanism quantiles over grid edges e_j = lower + j·w (j = 0..B), utility
   * −|L_j − r·n| with L_j the number of bounded values in cells below j (Smith 2011).
   */
  private void exponentialQuantiles(Releaser.Group g, List<Integer> idx,
      Map<String, Estimate> out) {
    Aggregation.Quantiles q = aggregation;
    long[] cells = g.aggregate().bins()[g.target(idx.get(0)).measure()];
    int b = cells.length;
    long n = Arrays.stream(cells).sum();
    double[] values = new double[idx.size()];
    for (int r = 0; r < idx.size(); r++) {
      double rank = g.target(idx.get(r)).rank();
      double[] utilities = new double[b + 1];
      long below = 0;
      for (int j = 0; j <= b; j++) {
        utilities[j] = -Math.abs(below - rank * n);
        if (j < b) {
          below += cells[j];
        }
      }
      int chosen = g.quantile(idx.get(r)).select(utilities);
      values[r] = q.lower() + (q.upper() - q.lower()) * chosen / b;
    }
    // Post-processing: quantiles must be monotone in their ranks.
    Integer[] order = new Integer[idx.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (x, y) -> Double.compare(q.ranks().get(x), q.ranks().get(y)));
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double[] monotone = new double[values.length];
    for (int i = 0; i < order.length; i++) {
      monotone[order[i]] = sorted[i];
    }
    List<String> names = outputNames();
    for (int r = 0; r < idx.size(); r++) {
      out.put(names.get(r), Estimate.withoutInterval(monotone[r]));
    }
  }
}
