package org.privet.engine.compile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;
import org.privet.engine.spi.Measure;

/**
 * COUNT(column) beside aggregates of other columns: the noisy count of the column's kept
 * non-null values (per-group sensitivity L∞), read from a fixed-point sum measure of the column
 * (one a SUM, MEAN or VARIANCE of it already has, else one over [0, 1], whose clamping does not
 * change the count). The count of a measure is the number of kept non-NULL, non-NaN values, each
 * unit's capped at L∞ ({@code docs/proofs/engine-bounding.md}).
 *
 * <p>Sensitivity over all groups: L1 = L0·L∞, L2 = √L0·L∞; under a total row cap m: L1 = L2 = m
 * ({@code docs/proofs/rows-contributed.md}).
 */
record CountNonNullPlanner(Aggregation.CountNonNull aggregation) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.of(aggregation.column());
  }

  @Override
  public void plan(Rewrite r) {
    String column = aggregation.column();
    int mi = -1;
    for (int i = 0; i < r.measures.size(); i++) {
      if (r.measures.get(i) instanceof Measure.FixedPointSum && r.measures.get(i).column()
          .equals(column)) {
        mi = i;
        break;
      }
    }
    if (mi < 0) {
      Compiler.Grid g = Compiler.Grid.of(0, 1, r.sumBits, false);
      mi = r.measureIndex(new Measure.FixedPointSum(column, 0, 1, g.k, 0, false, null));
    }
    r.bounds.add(aggregation.name() + ": the non-NULL, non-NaN values of " + column + ", at most"
        + " L∞ = " + r.lInf + " per unit per group");
    r.release(new Release.Target(aggregation.name(), "noisy count of non-null " + column,
        Release.Field.COUNT, mi, 0), r.lInf);
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    out.put(aggregation.name(), g.scalar(releases.get(0)));
  }
}
