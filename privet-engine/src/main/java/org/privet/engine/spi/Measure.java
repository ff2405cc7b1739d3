package org.privet.engine.spi;

import java.util.Objects;

/** A value aggregate the backend computes per group, besides the always-present unit and row counts. */
public sealed interface Measure permits Measure.FixedPointSum, Measure.Bins {

  /** The source column. */
  String column();

  /**
   * A fixed-point sum. Per row: x = CAST(column AS DOUBLE); NULL or NaN → ignored; otherwise
   * v = rnd(clamp(x, lower, upper) · 2^scaleExponent) − center, an exact 64-bit integer, where rnd
   * is any monotone rounding to an integer (|v| ≤ 2^31 guaranteed by the engine). Per (unit, group) pair: s = Σv, c = number of non-ignored
   * rows, q = Σv² (if {@code squares}), then when c &gt; L∞ scaled to L∞ rows: s ← ⌊s·L∞/c⌋,
   * q ← ⌊q·L∞/c⌋, c ← L∞. Per group: the sums over the kept pairs, exactly (128-bit or wider).
   * Every step must be exact in whatever types the backend uses (DuckDB sums a pair's values in
   * DOUBLE only while c·max|v| ≤ 2^53, else in 128 bits: {@code docs/proofs/engine-fixed-point.md}).
   *
   * @param column the source column (numeric)
   * @param lower clamping lower bound
   * @param upper clamping upper bound
   * @param scaleExponent k: the grid is 2^-k
   * @param center subtracted from every scaled value
   * @param squares also compute the sum of squares of the centered values
   */
  record FixedPointSum(String column, double lower, double upper, int scaleExponent, long center,
      boolean squares) implements Measure {
    public FixedPointSum {
      Objects.requireNonNull(column, "column");
    }
  }

  /**
   * Counts per cell: x = CAST(column AS DOUBLE); NULL or NaN → ignored; otherwise cell
   * i = min(⌊(clamp(x) − lower) · bins / (upper − lower)⌋, bins − 1). Per (unit, group) pair at most
   * L∞ non-ignored rows are kept, chosen by smallest salted hash of (unit, cell) (ties by cell).
   *
   * @param column the source column (numeric)
   * @param lower lower edge
   * @param upper upper edge
   * @param bins number of cells
   */
  record Bins(String column, double lower, double upper, int bins) implements Measure {
    public Bins {
      Objects.requireNonNull(column, "column");
    }
  }
}
