package org.privet.sql;

import java.util.List;
import java.util.Map;
import org.privet.engine.Aggregation;

/**
 * Supplies the target errors of a statement a workload planner plans by weight: one that gives
 * neither a budget nor {@code max_error} ({@link DpSql#parseForPlanning}). It sees only the
 * statement's public parts (its engine aggregations with their bounds, and the user's {@code
 * min_count} and contribution bound), never the data.
 */
@FunctionalInterface
public interface PlannedTargets {
  /**
   * The target half-width per engine aggregation name.
   *
   * @param aggregations the statement's engine aggregations (identical calls once)
   * @param minCount the statement's {@code min_count} (or {@code min_group_size}); 0 if not given
   * @param maxRowsPerGroup the statement's L∞ (1 when each row is a unit)
   * @throws IllegalArgumentException if the statement cannot be planned (the message is shown)
   */
  Map<String, Double> halfWidths(List<Aggregation> aggregations, long minCount,
      int maxRowsPerGroup);
}
