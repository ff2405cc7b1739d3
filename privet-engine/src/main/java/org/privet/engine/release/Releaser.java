package org.privet.engine.release;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.Estimate;
import org.privet.engine.Query;
import org.privet.engine.ResultRow;
import org.privet.engine.compile.AggregationPlanner;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
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
public final class Releaser {
  private final CompiledQuery compiled;
  private final List<Releases.Noise> noises;
  private final List<Releases.Quantile> quantiles;
  private final double beta;
  private final QuantileTree[] trees; // per release, for quantile-tree releases

  public Releaser(CompiledQuery compiled, List<Releases.Noise> noises,
      List<Releases.Quantile> quantiles, RandomSource random, double beta) {
    this.compiled = compiled;
    this.noises = noises;
    this.quantiles = quantiles;
    this.beta = beta;
    int n = compiled.releases().size();
    this.trees = new QuantileTree[n];
    for (int i = 0; i < n; i++) {
      Release.Target t = compiled.releases().get(i).target();
      if (t.field() == Release.Field.TREE) {
        trees[i] = QuantileTree.forCells(Measure.cells(compiled.spec().measures()
            .get(t.measure())));
      }
    }
  }

  /** An all-zero aggregate for a group that has no rows. */
  public GroupAggregate empty(List<Object> key) {
    List<Measure> ms = compiled.spec().measures();
    long[][] bins = new long[ms.size()][];
    for (int i = 0; i < ms.size(); i++) {
      if (Measure.cells(ms.get(i)) > 0) {
        bins[i] = new long[Measure.cells(ms.get(i))];
      }
    }
    int m = ms.size();
    return new GroupAggregate(key, 0, 0, new long[m], new long[m], new long[m], bins);
  }

  public List<String> outputNames() {
    List<String> names = new ArrayList<>();
    for (Compiler.PlannedOutput o : compiled.outputs()) {
      names.addAll(o.planner().outputNames());
    }
    return names;
  }

  public ResultRow release(List<Object> key, GroupAggregate g) {
    return release(key, g, 0);
  }

  /** One group's aggregates with the query's mechanisms, for a pass that post-processes itself. */
  public Group group(GroupAggregate g) {
    return new Group(g, 0);
  }

  /**
   * Releases one group; {@code selectionCount} is the partition selection's noisy unit count of
   * the group, output for COUNT(DISTINCT unit) and COUNT(*) at L∞ = 1 under post-aggregation
   * thresholding.
   */
  public ResultRow release(List<Object> key, GroupAggregate g, long selectionCount) {
    Map<String, Estimate> values = new LinkedHashMap<>();
    Group group = new Group(g, selectionCount);
    for (Compiler.PlannedOutput o : compiled.outputs()) {
      o.planner().release(group, o.releases(), values);
    }
    return new ResultRow(key, values);
  }

  /** One group being released: its exact aggregates and the query's mechanisms. */
  public final class Group {
    private final GroupAggregate aggregate;
    private final long selectionCount;
    private final Long[] released; // per scalar release: its one noisy value in this group

    private Group(GroupAggregate aggregate, long selectionCount) {
      this.aggregate = aggregate;
      this.selectionCount = selectionCount;
      this.released = new Long[compiled.releases().size()];
    }

    public GroupAggregate aggregate() {
      return aggregate;
    }

    public Query query() {
      return compiled.query();
    }

    public double beta() {
      return beta;
    }

    /**
     * The partition selection's noisy unit count of the group with its interval at 1 − β: the
     * output of a threshold statistic under post-aggregation thresholding.
     */
    public Estimate selectionEstimate() {
      double h = compiled.selection().halfWidth(beta);
      return new Estimate(selectionCount, selectionCount - h, selectionCount + h, 1 - beta);
    }

    public Release.Target target(int release) {
      return compiled.releases().get(release).target();
    }

    /**
     * The noisy value of scalar release {@code release} in this group, in grid units: drawn once
     * and then the same for every output that shares the release (a shared measurement is one
     * measurement; everything computed from it is post-processing).
     */
    public long noisy(int release) {
      if (released[release] == null) {
        released[release] = noises.get(release).release(exact(target(release)));
      }
      return released[release];
    }

    /** The exact per-group statistic a scalar target perturbs. */
    private long exact(Release.Target t) {
      return switch (t.field()) {
        case ROWS -> aggregate.rows();
        case UNITS -> aggregate.units();
        case SUM -> aggregate.sums()[t.measure()];
        case COUNT -> aggregate.counts()[t.measure()];
        case SQUARES -> aggregate.squares()[t.measure()];
        default -> throw new IllegalStateException("not a scalar release: " + t.field());
      };
    }

    /** {@code exact} plus fresh noise of vector release {@code release} (one cell or node). */
    public long noisyEntry(int release, long exact) {
      return noises.get(release).release(exact);
    }

    /** The noise of release {@code release} (its kind and scale, for joint intervals). */
    public Releases.Noise noise(int release) {
      return noises.get(release);
    }

    public ConfidenceInterval interval(int release, long released, double level) {
      return noises.get(release).interval(released, level);
    }

    /** Scalar release {@code release} in output units with its interval at 1 − β. */
    public Estimate scalar(int release) {
      return estimate(release, noisy(release));
    }

    /** One entry of a vector release (a histogram cell) in output units, with its interval. */
    public Estimate entry(int release, long exact) {
      return estimate(release, noisyEntry(release, exact));
    }

    private Estimate estimate(int release, long value) {
      ConfidenceInterval ci = noises.get(release).interval(value, beta);
      double unit = target(release).unit();
      return new Estimate(value * unit, ci.lower() * unit, ci.upper() * unit, ci.level());
    }

    public QuantileTree tree(int release) {
      return trees[release];
    }

    /** The noise of every node of tree release {@code release}. */
    public QuantileTree.NodeNoise nodeNoise(int release) {
      return QuantileTree.NodeNoise.of(noises.get(release));
    }

    public Releases.Quantile quantile(int release) {
      return quantiles.get(release);
    }
  }
}
