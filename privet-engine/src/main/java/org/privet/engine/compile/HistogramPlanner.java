package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;
import org.privet.engine.spi.Measure;

/**
 * HISTOGRAM: one noisy vector of cell counts (per-group sensitivity L∞), one output per cell.
 * Sensitivity over all groups: L1 = L0·L∞, L2 = √L0·L∞; under a total row cap m, L1 = L2 = m
 * (each kept row adds 1 to one cell; {@code docs/proofs/rows-contributed.md}).
 */
record HistogramPlanner(Aggregation.Histogram aggregation) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.of(aggregation.column());
  }

  @Override
  public void plan(Rewrite r) {
    Aggregation.Histogram h = aggregation;
    int mi = r.addMeasure(new Measure.Bins(h.column(), h.lower(), h.upper(), h.bins()));
    r.bounds.add(h.name() + ": " + h.bins() + " cells over [" + h.lower() + ", " + h.upper()
        + "] of " + h.column() + ", NULL/NaN ignored, ≤ L∞ rows per unit per group");
    r.release(new Release.Target(h.name(), "noisy cell counts of " + h.column(),
        Release.Field.BINS, mi, 0), r.lInf);
  }

  @Override
  public List<String> outputNames() {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < aggregation.bins(); i++) {
      names.add(aggregation.name() + "[" + i + "]");
    }
    return names;
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    int ri = releases.get(0);
    long[] cells = g.aggregate().bins()[g.target(ri).measure()];
    List<String> names = outputNames();
    for (int i = 0; i < aggregation.bins(); i++) {
      out.put(names.get(i), g.entry(ri, cells[i]));
    }
  }
}
