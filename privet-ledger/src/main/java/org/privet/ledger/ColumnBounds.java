package org.privet.ledger;

/**
 * Public bounds of a numeric column, registered as public metadata (they must not be derived from
 * the protected data).
 *
 * @param lower the lower bound (finite)
 * @param upper the upper bound (finite, ≥ lower)
 */
public record ColumnBounds(double lower, double upper) {
  public ColumnBounds {
    if (!Double.isFinite(lower) || !Double.isFinite(upper)) {
      throw new IllegalArgumentException("bounds must be finite, were [" + lower + ", " + upper + "]");
    }
    if (lower > upper) {
      throw new IllegalArgumentException(
          "bounds lower must be <= upper, were [" + lower + ", " + upper + "]");
    }
  }
}
