package org.privet.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.mechanisms.ConfidenceInterval;
import org.privet.random.RandomSource;

/**
 * Turns one group's exact bounded aggregates into released estimates: adds noise through the
 * query's mechanisms, then each output's {@link AggregationPlanner} post-processes (ratios,
 * clamping to the value range, sorting quantiles). Everything after the noisy releases is
 * post-processing and costs no privacy ({@code docs/proofs/engine-fixed-point.md}).
 */
final class Releaser {
  private final CompiledQuery compiled;
  private final List<Releases.Noise> noises;
  private final List<Releases.Quantile> quantiles;
  private final double beta;
  private final QuantileTree[] trees; // per release, for quantile-tree releases
  private final long[][] bands; // per release: the simultaneous band's half-widths by term count

  Releaser(CompiledQuery compiled, List<Releases.Noise> noises,
      List<Releases.Quantile> quantiles, RandomSource random, double beta) {
    this.compiled = compiled;
    this.noises = noises;
    this.quantiles = quantiles;
    this.beta = beta;
    int n = compiled.releases().size();
    this.trees = new QuantileTree[n];
    this.bands = new long[n][];
    for (int i = 0; i < n; i++) {
      Release.Target t = compiled.releases().get(i).target();
      if (t.field() == Release.Field.TREE) {
        Measure.Bins b = (Measure.Bins) compiled.spec().measures().get(t.measure());
        trees[i] = new QuantileTree(b.bins(), QuantileTree.BRANCHING);
        Releases.Noise noise = noises.get(i);
        bands[i] = trees[i].band(noise::sumHalfWidth, beta);
      }
    }
  }

  /** An all-zero aggregate for a group that has no rows. */
  GroupAggregate empty(List<Object> key) {
    List<Measure> ms = compiled.spec().measures();
    long[][] bins = new long[ms.size()][];
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.Bins b) {
        bins[i] = new long[b.bins()];
      }
    }
    int m = ms.size();
    return new GroupAggregate(key, 0, 0, new long[m], new long[m], new long[m], bins);
  }

  List<String> outputNames() {
    List<String> names = new ArrayList<>();
    for (Compiler.PlannedOutput o : compiled.outputs()) {
      names.addAll(o.planner().outputNames());
    }
    return names;
  }

  ResultRow release(List<Object> key, GroupAggregate g) {
    return release(key, g, 0);
  }

  /**
   * Releases one group; {@code selectionCount} is the partition selection's noisy unit count of
   * the group, output for COUNT(DISTINCT unit) under post-aggregation thresholding.
   */
  ResultRow release(List<Object> key, GroupAggregate g, long selectionCount) {
    Map<String, Estimate> values = new LinkedHashMap<>();
    Group group = new Group(g, selectionCount);
    for (Compiler.PlannedOutput o : compiled.outputs()) {
      o.planner().release(group, o.releases(), values);
    }
    return new ResultRow(key, values);
  }

  /** One group being released: its exact aggregates and the query's mechanisms. */
  final class Group {
    private final GroupAggregate aggregate;
    private final long selectionCount;

    private Group(GroupAggregate aggregate, long selectionCount) {
      this.aggregate = aggregate;
      this.selectionCount = selectionCount;
    }

    GroupAggregate aggregate() {
      return aggregate;
    }

    Query query() {
      return compiled.query();
    }

    double beta() {
      return beta;
    }

    /** The partition selection's noisy unit count of the group. */
    long selectionCount() {
      return selectionCount;
    }

    /** Half-width of the selection count's interval at 1 − β. */
    double selectionHalfWidth() {
      return compiled.selection().halfWidth(beta);
    }

    Release.Target target(int release) {
      return compiled.releases().get(release).target();
    }

    /** {@code exact} plus fresh noise of release {@code release}, in grid units. */
    long noisy(int release, long exact) {
      return noises.get(release).release(exact);
    }

    ConfidenceInterval interval(int release, long released, double level) {
      return noises.get(release).interval(released, level);
    }

    /** One noisy value in output units with its interval at 1 − β. */
    Estimate scalar(int release, long exact) {
      Releases.Noise n = noises.get(release);
      long released = n.release(exact);
      ConfidenceInterval ci = n.interval(released, beta);
      double unit = target(release).unit();
      return new Estimate(released * unit, ci.lower() * unit, ci.upper() * unit, ci.level());
    }

    QuantileTree tree(int release) {
      return trees[release];
    }

    long[] band(int release) {
      return bands[release];
    }

    Releases.Quantile quantile(int release) {
      return quantiles.get(release);
    }
  }
}
