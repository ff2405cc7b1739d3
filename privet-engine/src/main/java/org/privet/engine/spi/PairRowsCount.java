package org.privet.engine.spi;

import java.util.List;

/**
 * One row of the pairs' row-count histogram ({@link BoundingPlan#pairRowsHistogramStatement}):
 * in group {@code key}, {@code pairs} kept (unit, group) pairs have exactly {@code rows} rows.
 * Internal to the curator (never shown to the analyst).
 *
 * @param key the group's key (empty without groups), as the driver returns it
 * @param rows a pair's row count n (at least 1)
 * @param pairs the number of kept pairs of the group with n rows (at least 1)
 */
public record PairRowsCount(List<Object> key, long rows, long pairs) {
  public PairRowsCount {
    key = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(key));
  }
}
