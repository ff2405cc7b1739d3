package org.privet.engine.compile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;

/**
 * COUNT(DISTINCT unit): one noisy count of the kept units (per-group sensitivity 1), or, under
 * post-aggregation thresholding, the partition selection's own noisy count at no extra cost.
 *
 * <p>Sensitivity over all groups: L1 = L0, L2 = √L0; under a total row cap m a unit is in up to
 * m groups with 1 each: L1 = m, L2 = √m, not the rows' m ({@code docs/proofs/rows-contributed.md}).
 */
record DistinctUnitsPlanner(Aggregation.CountDistinctUnits aggregation)
    implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.empty();
  }

  @Override
  public void plan(Rewrite r) {
    if (r.reuse) {
      // No release of its own: the selection's thresholded noisy count is the output.
      r.bounds.add(aggregation.name() + ": the partition selection's noisy distinct-unit count "
          + "(post-aggregation thresholding, no extra cost)");
    } else {
      r.release(new Release.Target(aggregation.name(), "noisy count of distinct units",
          Release.Field.UNITS, -1, 0), 1, j -> 1);
    }
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    out.put(aggregation.name(),
        releases.isEmpty() ? g.selectionEstimate() : g.scalar(releases.get(0)));
  }
}
