package org.privet.engine.spi;

import org.privet.engine.Source;

/**
 * Executes bounded aggregations where the data lives (embedded DuckDB now; Spark or a JDBC
 * database later). Implementations must be safe for one query at a time per instance at least.
 */
public interface Backend extends AutoCloseable {

  /**
   * Returns the columns of {@code source}.
   *
   * @throws IllegalArgumentException if the source does not exist or cannot be read (message
   *     without data values)
   */
  TableSchema describe(Source source);

  /**
   * Runs {@code spec} and hands every group's exact bounded aggregates to {@code sink}, in any
   * order. Groups with no bounded rows may be omitted (the engine fills in public groups).
   *
   * @throws IllegalStateException if execution fails (message without data values)
   */
  void aggregate(BoundedAggregation spec, GroupSink sink);

  /** A human-readable physical plan for {@code spec} (e.g. the SQL it would run). */
  String physicalPlan(BoundedAggregation spec);

  @Override
  void close();
}
