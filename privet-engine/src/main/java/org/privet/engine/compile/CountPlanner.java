package org.privet.engine.compile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;

/**
 * COUNT(*): one noisy count of the kept rows (per-group sensitivity L∞), or, under
 * post-aggregation thresholding at L∞ = 1 (the row count is then the distinct-unit count), the
 * partition selection's own noisy count at no extra cost.
 *
 * <p>Sensitivity over all groups: L0/L∞ bounding L1 = L0·L∞, L2 = √L0·L∞; a total row cap m
 * ({@code maxRowsContributed}) L1 = m, L2 = m (a unit's m rows add m in all, however spread;
 * {@code docs/proofs/rows-contributed.md}).
 */
record CountPlanner(Aggregation.Count aggregation) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.empty();
  }

  @Override
  public void plan(Rewrite r) {
    if (r.reuse && r.lInf == 1) {
      // L∞ = 1: the row count is the distinct-unit count that selection noises and thresholds.
      r.bounds.add(aggregation.name() + ": the partition selection's noisy distinct-unit count, "
          + "which equals the row count at L∞ = 1 (post-aggregation thresholding, no extra cost)");
      return;
    }
    r.release(new Release.Target(aggregation.name(), "noisy row count", Release.Field.ROWS, -1, 0),
        r.lInf);
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    out.put(aggregation.name(),
        releases.isEmpty() ? g.selectionEstimate() : g.scalar(releases.get(0)));
  }
}
