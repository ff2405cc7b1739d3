package org.privet.engine;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** COUNT(*): one noisy count of the kept rows (per-group sensitivity L∞). */
record CountPlanner(Aggregation.Count aggregation) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.empty();
  }

  @Override
  public void plan(Rewrite r) {
    r.release(new Release.Target(aggregation.name(), "noisy row count", Release.Field.ROWS, -1, 0),
        r.lInf);
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    out.put(aggregation.name(), g.scalar(releases.get(0)));
  }
}
