package org.privet.sql;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.privet.engine.Receipt;

/**
 * The released answer of a DP SQL query, after post-processing (column order, ORDER BY, LIMIT,
 * OFFSET). A cell of a group-key column holds the key value (String, Long, Double, Boolean,
 * LocalDate, ... or null); a cell of an aggregate column holds an {@link org.privet.engine.Estimate}
 * (noisy value and confidence interval).
 *
 * @param columns the columns in SELECT order
 * @param rows the released rows
 * @param receipt what the engine charged for the query
 * @param bounds the clamping bounds estimated privately for {@code contribution_bounds_per_row =>
 *     AUTO} columns (DP outputs, part of the release), each named by its output column; empty
 *     without AUTO
 * @param estimatedMaxRowsPerGroup the L∞ (rows per privacy unit per group) estimated privately
 *     when the query gave none (a DP output, part of the release), or 0 when L∞ was given
 */
public record SqlResult(List<OutputColumn> columns, List<List<Object>> rows, Receipt receipt,
    List<org.privet.engine.AutoBounds.Estimated> bounds, int estimatedMaxRowsPerGroup) {
  /** An answer whose L∞ was given. */
  public SqlResult(List<OutputColumn> columns, List<List<Object>> rows, Receipt receipt,
      List<org.privet.engine.AutoBounds.Estimated> bounds) {
    this(columns, rows, receipt, bounds, 0);
  }

  /** An answer without AUTO bounds. */
  public SqlResult(List<OutputColumn> columns, List<List<Object>> rows, Receipt receipt) {
    this(columns, rows, receipt, List.of());
  }

  public SqlResult {
    bounds = List.copyOf(bounds);
    columns = List.copyOf(columns);
    List<List<Object>> copy = new ArrayList<>(rows.size());
    for (List<Object> r : rows) {
      copy.add(Collections.unmodifiableList(new ArrayList<>(r)));
    }
    rows = Collections.unmodifiableList(copy);
  }

  /** The column names in SELECT order. */
  public List<String> columnNames() {
    return columns.stream().map(OutputColumn::name).toList();
  }
}
