package org.privet.cli.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.Aggregation;
import org.privet.sql.PlannedTargets;

/**
 * The public magnitude of each output of a workload statement planned by weight (one with neither
 * a budget nor {@code max_error}, issue 22 item 4): the scale its relative error is measured
 * against. It is read from the statement's public parts only, never from the data:
 *
 * <ul>
 *   <li>N₀ = the statement's {@code min_count} (or {@code min_group_size}), the user's public lower
 *       bound on every released group's rows; required (a count has no other public scale);
 *   <li>COUNT(*), COUNT(col): N₀ rows; COUNT(DISTINCT unit): N₀ / L∞ units (at least 1), as each
 *       unit adds at most L∞ rows to a group;
 *   <li>SUM over row bounds [L, U]: N₀ · max(|L|, |U|), the largest total N₀ rows can have; with
 *       per-group bounds [Lg, Ug]: N₀ / L∞ units · max(|Lg|, |Ug|);
 *   <li>AVG over [L, U]: max(|L|, |U|), the largest mean (AVG's count is then the shared count);
 *   <li>PERCENTILE_CONT (tree): N₀ rows, as its error is a rank error in rows;
 *   <li>histogram with b bins: N₀ / b rows per bin (at least 1);
 *   <li>VARIANCE, STDDEV: refused (their error depends on the data, as for max_error).
 * </ul>
 *
 * <p>The statement is then given the target half-width {@link #SCALE} · magnitude for each output
 * (at its {@code confidence}, default 0.95), which the engine's solver turns into the statement's
 * own split and its solved budget s; the planner only uses the ratio error / magnitude, so the
 * scale cancels out of the allocation (it only keeps the solver away from grid effects at tiny
 * targets).
 */
final class PublicMagnitude implements PlannedTargets {
  /** Target half-width, as a fraction of the magnitude, handed to the solver. */
  static final double SCALE = 0.1;

  private boolean used;

  /** Whether a statement took its targets from this instance (was planned by weight). */
  boolean used() {
    return used;
  }

  @Override
  public Map<String, Double> halfWidths(List<Aggregation> aggregations, long minCount,
      int maxRowsPerGroup) {
    used = true;
    Map<String, Double> out = new LinkedHashMap<>();
    for (Aggregation a : aggregations) {
      out.put(a.name(), SCALE * of(a, minCount, maxRowsPerGroup));
    }
    return out;
  }

  /** The public magnitude of one output (see the class comment). */
  static double of(Aggregation a, long minCount, int maxRowsPerGroup) {
    if (a instanceof Aggregation.Variance || a instanceof Aggregation.StdDev) {
      throw new IllegalArgumentException("'" + a.name() + "': a statement planned by weight has"
          + " no public magnitude for VARIANCE or STDDEV (their error depends on the data); give"
          + " it max_error or leave it out of the workload");
    }
    if (minCount < 1) {
      throw new IllegalArgumentException("a statement planned by weight (no max_error, no"
          + " epsilon) needs min_count, a public lower bound on every released group's rows:"
          + " its outputs' errors are relative to public magnitudes (a count's is min_count)");
    }
    double n0 = minCount;
    double units = Math.max(1, n0 / Math.max(1, maxRowsPerGroup));
    double magnitude;
    if (a instanceof Aggregation.Count) {
      magnitude = n0;
    } else if (a instanceof Aggregation.CountDistinctUnits) {
      magnitude = units;
    } else if (a instanceof Aggregation.Sum s) {
      magnitude = s.perGroup() == null ? n0 * largest(s.lower(), s.upper())
          : units * largest(s.perGroup().lower(), s.perGroup().upper());
    } else if (a instanceof Aggregation.Mean m) {
      magnitude = largest(m.lower(), m.upper());
    } else if (a instanceof Aggregation.Quantiles) {
      magnitude = n0;
    } else if (a instanceof Aggregation.Histogram h) {
      magnitude = Math.max(1, n0 / h.bins());
    } else {
      throw new IllegalArgumentException("'" + a.name() + "': no public magnitude");
    }
    if (!(magnitude > 0) || Double.isInfinite(magnitude)) {
      throw new IllegalArgumentException("'" + a.name() + "': its bounds give no public magnitude"
          + " (both are 0, or not given); give public bounds or max_error");
    }
    return magnitude;
  }

  private static double largest(double lower, double upper) {
    return Math.max(Math.abs(lower), Math.abs(upper));
  }
}
