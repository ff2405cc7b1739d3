package org.privet.engine;

import java.util.List;
import java.util.Objects;

/**
 * The released result of a query.
 *
 * @param groupColumns names of the key columns
 * @param outputs output names in order (a histogram {@code h} with 3 cells gives {@code h[0]},
 *     {@code h[1]}, {@code h[2]}; quantiles {@code q} at ranks 0.5, 0.9 give {@code q[0.5]},
 *     {@code q[0.9]}, or just {@code q} for a single rank)
 * @param rows released groups (public groups in the listed order; private groups in backend order)
 * @param receipt what was charged
 * @param bounds the clamping bounds estimated privately for AUTO outputs ({@link
 *     Query.Builder#autoBounds}), in output order: part of the release (DP outputs); empty
 *     without AUTO bounds
 * @param estimatedMaxRowsPerGroup the L∞ estimated privately ({@link
 *     Query.Builder#estimateMaxRowsPerGroup}; a DP output, part of the release), or 0 when L∞
 *     was given
 */
public record Result(List<String> groupColumns, List<String> outputs, List<ResultRow> rows,
    Receipt receipt, List<AutoBounds.Estimated> bounds, int estimatedMaxRowsPerGroup) {
  public Result {
    if (estimatedMaxRowsPerGroup < 0) {
      throw new IllegalArgumentException("estimatedMaxRowsPerGroup must not be negative");
    }
    groupColumns = List.copyOf(groupColumns);
    outputs = List.copyOf(outputs);
    rows = List.copyOf(rows);
    Objects.requireNonNull(receipt, "receipt");
    bounds = List.copyOf(bounds);
  }

  /** A result whose L∞ was given. */
  public Result(List<String> groupColumns, List<String> outputs, List<ResultRow> rows,
      Receipt receipt, List<AutoBounds.Estimated> bounds) {
    this(groupColumns, outputs, rows, receipt, bounds, 0);
  }

  /** A result without estimated bounds. */
  public Result(List<String> groupColumns, List<String> outputs, List<ResultRow> rows,
      Receipt receipt) {
    this(groupColumns, outputs, rows, receipt, List.of());
  }
}
