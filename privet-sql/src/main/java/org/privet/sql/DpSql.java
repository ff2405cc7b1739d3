package org.privet.sql;

import java.util.Objects;

/**
 * The entry point of Privet's DP SQL dialect, modelled on BigQuery's differential privacy clause:
 *
 * <pre>{@code
 * SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, max_groups_contributed = 1)
 *   education, COUNT(*) AS n, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS hours
 * FROM adult WHERE age >= 18 GROUP BY education ORDER BY n DESC LIMIT 5
 * }</pre>
 *
 * <p>{@link #parse} validates the whole query and compiles it into an engine query before anything
 * runs, so a refused query reads no data and charges nothing. The dialect is documented in {@code
 * docs/sql.md}.
 */
public final class DpSql {
  private DpSql() {}

  /**
   * Parses, validates and compiles one DP SQL statement.
   *
   * @param sql the query text (optionally starting with {@code EXPLAIN})
   * @param catalog resolves the dataset named in FROM
   * @return the compiled statement
   * @throws DpSqlException if the query is refused (message: {@code line L, column C: reason};
   *     never a value from the data)
   */
  public static DpStatement parse(String sql, DatasetCatalog catalog) {
    Objects.requireNonNull(catalog, "catalog");
    PreparedQuery prepared = DpClauseParser.prepare(sql);
    return SelectCompiler.compile(prepared, catalog);
  }

  /**
   * Like {@link #parse}, for a workload planner: a statement that gives neither a budget ({@code
   * epsilon}, {@code rho}) nor {@code max_error} is accepted, with {@code confidence}, {@code
   * min_count} and {@code delta} as for max_error, and takes the target errors {@code planned}
   * supplies from its public parts. Other statements compile exactly as with {@link #parse}.
   */
  public static DpStatement parseForPlanning(String sql, DatasetCatalog catalog,
      PlannedTargets planned) {
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(planned, "planned");
    PreparedQuery prepared = DpClauseParser.prepare(sql);
    return SelectCompiler.compile(prepared, catalog, planned);
  }

  /**
   * Like {@link #parse}, but the statement is marked {@link DpStatement#explain() explain} whether
   * or not the text starts with {@code EXPLAIN} (the API form of {@code privet query --explain}).
   */
  public static DpStatement explain(String sql, DatasetCatalog catalog) {
    return parse(sql, catalog).asExplain();
  }
}
