package org.privet.sql;

import java.util.List;
import java.util.Objects;

/**
 * One column of a DP SQL answer, in SELECT order.
 *
 * @param name the column's name (its alias, or the column / call as written)
 * @param groupKeyIndex for a GROUP BY column, its index in the engine result's key; else -1
 * @param engineOutput for a DP aggregate, the engine output it reads; else null
 * @param engineOutputs for an array aggregate (APPROX_QUANTILES), the engine outputs of its
 *     elements, in order; else empty
 */
public record OutputColumn(String name, int groupKeyIndex, String engineOutput,
    List<String> engineOutputs) {
  public OutputColumn {
    Objects.requireNonNull(name, "name");
    engineOutputs = engineOutputs == null ? List.of() : List.copyOf(engineOutputs);
    if ((groupKeyIndex >= 0) == (engineOutput != null)) {
      throw new IllegalArgumentException("an output column is either a group key or an aggregate");
    }
  }

  /** A group key column or a scalar aggregate column. */
  public OutputColumn(String name, int groupKeyIndex, String engineOutput) {
    this(name, groupKeyIndex, engineOutput, List.of());
  }

  /**
   * An aggregate column whose cell is a list of estimates ({@code APPROX_QUANTILES}), read from
   * {@code engineOutputs} in order; {@link #engineOutput()} is the first of them.
   */
  static OutputColumn array(String name, List<String> engineOutputs) {
    return new OutputColumn(name, -1, engineOutputs.get(0), engineOutputs);
  }

  /** True when the cell is a list of estimates, one per {@link #engineOutputs()}. */
  public boolean isArray() {
    return !engineOutputs.isEmpty();
  }

  /** True for a DP aggregate (its cells are {@link org.privet.engine.Estimate}s). */
  public boolean isAggregate() {
    return engineOutput != null;
  }
}
