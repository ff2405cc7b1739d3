package org.privet.engine.compile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.Releaser;

/**
 * How one {@link Aggregation} is compiled and released: the columns it reads, its backend measures
 * and noisy releases (the bounding rewrite, {@code docs/proofs/engine-bounding.md}), its output
 * names, and the post-processing of its noisy values into estimates. Adding an aggregation means
 * one planner here and one case in {@link #of}.
 */
public sealed interface AggregationPlanner
    permits CountPlanner, CountNonNullPlanner, DistinctUnitsPlanner, SumPlanner, MeanPlanner, VariancePlanner,
        HistogramPlanner, QuantilesPlanner {

  /** The aggregation planned. */
  Aggregation aggregation();

  /** The numeric column it reads, if any (checked against the schema before anything runs). */
  Optional<String> column();

  /** Adds its measures, bounds text and noisy releases to {@code rewrite}. */
  void plan(Rewrite rewrite);

  /** Its output column names, in order. */
  default List<String> outputNames() {
    return List.of(aggregation().name());
  }

  /**
   * Releases its outputs for one group from its noisy releases ({@code releases}: their indexes,
   * in the order {@link #plan} added them). Everything after the noise is post-processing.
   */
  void release(Releaser.Group group, List<Integer> releases, Map<String, Estimate> out);

  /** The planner of {@code a}. */
  static AggregationPlanner of(Aggregation a) {
    if (a instanceof Aggregation.Count c) {
      return new CountPlanner(c);
    } else if (a instanceof Aggregation.CountNonNull c) {
      return new CountNonNullPlanner(c);
    } else if (a instanceof Aggregation.CountDistinctUnits c) {
      return new DistinctUnitsPlanner(c);
    } else if (a instanceof Aggregation.Sum s) {
      return new SumPlanner(s);
    } else if (a instanceof Aggregation.Mean m) {
      return new MeanPlanner(m);
    } else if (a instanceof Aggregation.Variance v) {
      return new VariancePlanner(v, v.column(), v.lower(), v.upper(), false);
    } else if (a instanceof Aggregation.StdDev d) {
      return new VariancePlanner(d, d.column(), d.lower(), d.upper(), true);
    } else if (a instanceof Aggregation.Histogram h) {
      return new HistogramPlanner(h);
    } else if (a instanceof Aggregation.Quantiles q) {
      return new QuantilesPlanner(q);
    }
    throw new IllegalStateException("no planner for " + a.getClass().getSimpleName());
  }
}
