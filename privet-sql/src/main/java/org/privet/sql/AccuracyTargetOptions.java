package org.privet.sql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.privet.engine.Query;

/**
 * Applies {@code max_error = (output => half_width, ...)}, {@code confidence}, {@code min_count}
 * and {@code delta} to the engine query (issue 16): the query then has target errors instead of
 * a budget, and the engine solves for the smallest budget ({@link Query.Builder#targetError}).
 * Targets name the SELECT's output columns; several columns reading one engine output take the
 * smallest of their targets. Every aggregate column needs one.
 */
final class AccuracyTargetOptions {
  private AccuracyTargetOptions() {}

  static void apply(DpOptions options, Query.Builder b, List<OutputColumn> outputs,
      SourceText src) {
    int at = options.offsets().getOrDefault("max_error", 0);
    Map<String, Double> byEngine = new LinkedHashMap<>();
    for (Map.Entry<String, Double> e : options.maxError().entrySet()) {
      boolean found = false;
      for (OutputColumn c : outputs) {
        if (c.isAggregate() && c.name().toLowerCase(Locale.ROOT).equals(e.getKey())) {
          found = true;
          byEngine.merge(engineName(c.engineOutput()), e.getValue(), Math::min);
        } else if (!c.isAggregate() && c.name().toLowerCase(Locale.ROOT).equals(e.getKey())) {
          throw src.error(at, "max_error names '" + e.getKey() + "', a GROUP BY column: targets"
              + " apply to aggregates");
        }
      }
      if (!found) {
        throw src.error(at, "max_error names '" + e.getKey() + "', which is not an output column"
            + " of the SELECT");
      }
    }
    for (OutputColumn c : outputs) {
      if (c.isAggregate() && !byEngine.containsKey(engineName(c.engineOutput()))) {
        throw src.error(at, "max_error has no target for output column '" + c.name()
            + "'; give one for every aggregate (or an epsilon instead)");
      }
    }
    applyTargets(options, b, byEngine, at, src);
  }

  /**
   * The targets a workload planner supplied for a {@link DpOptions#planned() planned} statement
   * (by engine aggregation name), or the max_error targets, with the confidence, min_count and
   * delta.
   */
  static void applyTargets(DpOptions options, Query.Builder b, Map<String, Double> halfWidths,
      int at, SourceText src) {
    try {
      halfWidths.forEach(b::targetError);
      b.targetConfidence(options.confidence()).targetDelta(options.delta());
      if (options.minCount() > 0) {
        b.minCount(options.minCount());
      }
    } catch (IllegalArgumentException e) {
      throw src.error(at, e.getMessage());
    }
  }

  /** The engine aggregation an output column reads (without a histogram/quantile suffix). */
  private static String engineName(String engineOutput) {
    int i = engineOutput.indexOf('[');
    return i < 0 ? engineOutput : engineOutput.substring(0, i);
  }
}
