package org.privet.engine.spi;

/**
 * A read-only SELECT statement written once and rendered by each backend's {@link SqlDialect}
 * against a source, for the curator's own release paths that are sequences of aggregates beyond
 * {@link BoundedAggregation} (issue 26: a model's sufficient statistics, or the bounded encoded
 * rows objective perturbation reads). The privacy logic (encoding, contribution bounding, the
 * sensitivity, the noise) stays in the caller's Java; a backend only renders the source and runs
 * the statement ({@link Backend#query}). Implementations must be pure functions of their
 * arguments (no data values), so a statement is the same on every backend up to the dialect.
 */
@FunctionalInterface
public interface RenderedQuery {

  /**
   * The statement.
   *
   * @param from the source as SQL text, usable after {@code FROM} (a quoted name or a subquery)
   * @param schema the source's columns as the backend describes them
   * @param dialect the backend's spelling
   */
  String render(String from, TableSchema schema, SqlDialect dialect);
}
