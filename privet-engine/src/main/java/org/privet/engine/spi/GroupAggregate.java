package org.privet.engine.spi;

import java.util.List;

/**
 * One group's exact bounded aggregates, as a backend returns them. Arrays are indexed like the
 * spec's measures (entries for measures of the other kind are unused) and are owned by the
 * receiver.
 *
 * @param key group-by values in column order (empty without GROUP BY)
 * @param units number of distinct privacy units kept in the group (after L0 bounding)
 * @param rows Σ over kept pairs of min(rows, L∞)
 * @param sums per FixedPointSum measure: Σ of bounded pair sums
 * @param counts per FixedPointSum measure: Σ of bounded pair non-NULL counts
 * @param squares per FixedPointSum measure with squares: Σ of bounded pair sums of squares
 * @param bins per Bins measure: counts per cell (null for other measures)
 */
public record GroupAggregate(List<Object> key, long units, long rows, long[] sums, long[] counts,
    long[] squares, long[][] bins) {
  public GroupAggregate {
    key = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(key));
  }
}
