package org.privet.sql;

import java.util.Objects;

/**
 * One column of a DP SQL answer, in SELECT order.
 *
 * @param name the column's name (its alias, or the column / call as written)
 * @param groupKeyIndex for a GROUP BY column, its index in the engine result's key; else -1
 * @param engineOutput for a DP aggregate, the engine output it reads; else null
 */
public record OutputColumn(String name, int groupKeyIndex, String engineOutput) {
  public OutputColumn {
    Objects.requireNonNull(name, "name");
    if ((groupKeyIndex >= 0) == (engineOutput != null)) {
      throw new IllegalArgumentException("an output column is either a group key or an aggregate");
    }
  }

  /** True for a DP aggregate (its cells are {@link org.privet.engine.Estimate}s). */
  public boolean isAggregate() {
    return engineOutput != null;
  }
}
