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

  /**
   * Whether {@link #keptGroups} is implemented (public: it depends on the backend only). The
   * engine refuses, before any charge, a strategy that needs it on a backend without it.
   */
  default boolean listsKeptGroups() {
    return false;
  }

  /**
   * Hands each privacy unit's kept groups (the pairs of step 3 of {@link BoundedAggregation}
   * after L0 bounding, exactly those that {@link #aggregate} aggregates) to {@code sink}, one unit
   * at a time, in a deterministic order. A row-level spec (no unit column) hands each row as a
   * unit of one group. Measures, L∞ and public groups' emptiness play no part here.
   *
   * @throws IllegalStateException if execution fails (message without data values), or if the
   *     backend does not implement it ({@link #listsKeptGroups()} is false)
   */
  default void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    throw new IllegalStateException("this backend does not list kept groups");
  }

  /**
   * Runs {@code query} rendered by this backend's dialect against {@code source} and hands every
   * result row to {@code rows} as text (exact: integers of any width in decimal, SQL NULL as
   * {@code null}), {@code columns} values per row. For the curator's trusted release paths only
   * ({@link RenderedQuery}); never an analyst's SQL.
   *
   * @throws IllegalStateException if execution fails (message without data values), or if the
   *     backend does not run rendered queries
   */
  default void query(Source source, RenderedQuery query, int columns,
      java.util.function.Consumer<String[]> rows) {
    throw new IllegalStateException("this backend does not run rendered queries");
  }

  /**
   * A view of this backend for the passes of one query that read the same rows (issue 25: the L∞
   * estimate and the release of a query over a join): on the view, {@link #aggregate} and {@link
   * #keptGroups} of a spec with the source, filter and unit column of {@code passes}' first,
   * reading only columns the passes read, may read the rows of step 1 of {@link
   * BoundedAggregation} (source rows the filter keeps, unit not NULL), or steps 1 and 2 up to the
   * (unit, group) pairs' row counts, computed once for all of them; any other spec runs as on
   * this backend. Each spec's result is exactly what this backend computes for it (the same rows,
   * or the same pairs, go through the same bounding). What the view holds belongs to the caller's
   * query only and is dropped by {@link #close()} on the view, which never closes this backend.
   * The default view shares nothing.
   *
   * @param passes the specs the query plans to run, as compiled before the charge (later
   *     recompilations may differ in L∞, salts and grids; without a unit column nothing is shared)
   */
  default Backend sharingRows(java.util.List<BoundedAggregation> passes) {
    return new UnsharedView(this);
  }

  /**
   * Whether {@link #pairRowsHistogram} is implemented (a public property of the backend: the
   * engine decides before the charge whether a query's passes read the histogram, {@link
   * PairRowsHistogram}).
   */
  default boolean countsPairRows() {
    return false;
  }

  /**
   * The exact histogram of the kept (unit, group) pairs' row counts of unit-level {@code spec}
   * without a total row cap (its source, filter, unit, groups, public groups, L0 and salt; its
   * measures and L∞ are not read): one {@link PairRowsCount} per (group, n) with at least one
   * pair, in any order ({@link BoundingPlan#pairRowsHistogramStatement}: the same {@code src},
   * {@code pairs} and {@code keptpairs} steps as {@link #aggregate}).
   *
   * @throws IllegalStateException if execution fails (message without data values), or if the
   *     backend does not implement it ({@link #countsPairRows()} is false)
   */
  default void pairRowsHistogram(BoundedAggregation spec,
      java.util.function.Consumer<PairRowsCount> sink) {
    throw new IllegalStateException("this backend does not count pair rows");
  }

  /** {@link #pairRowsHistogram}'s statement, for EXPLAIN (when {@link #countsPairRows}). */
  default String pairRowsHistogramPlan(BoundedAggregation spec) {
    throw new IllegalStateException("this backend does not count pair rows");
  }

  /** A human-readable physical plan for {@code spec} (e.g. the SQL it would run). */
  String physicalPlan(BoundedAggregation spec);

  @Override
  void close();
}
