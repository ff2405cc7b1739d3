package org.privet.engine.spi;

import java.util.Objects;
import java.util.Optional;

/** A value aggregate the backend computes per group, besides the always-present unit and row counts. */
public sealed interface Measure permits Measure.FixedPointSum, Measure.Bins {

  /** The source column. */
  String column();

  /**
   * A fixed-point sum. Per row: x = CAST(column AS DOUBLE); NULL or NaN → ignored; otherwise
   * v = rnd(clamp(x, lower, upper) · 2^scaleExponent) − center, an exact 64-bit integer, where rnd
   * is any monotone rounding to an integer (|v| ≤ 2^31 guaranteed by the engine).
   *
   * <p>Per (unit, group) pair, over the pair's non-ignored rows (exact integer arithmetic
   * throughout, at least 128 bits before the clamp):
   * <ol>
   *   <li>s = Σv, c = number of non-ignored rows, q = Σv² (if {@code squares});
   *   <li>row bound: if c &gt; L∞ then s ← ⌊s·L∞/c⌋, q ← ⌊q·L∞/c⌋, c ← L∞ — <em>except</em> that
   *       for a {@link PairClamp#allRows() allRows} pair clamp s keeps the sum over all the
   *       pair's rows (c and q are still bounded as stated);
   *   <li>pair bound: if {@code pairClamp} is present and c &gt; 0 then
   *       s ← min(max(s, pairClamp.lower), pairClamp.upper) (a pair with c = 0 keeps s = 0).
   * </ol>
   * Row-level queries (no unit column) treat each row as its own pair (c ≤ 1), so steps 2 and 3
   * reduce to clamping v to [pairClamp.lower, pairClamp.upper].
   *
   * <p>Per group: the sums of s, c and q over the kept pairs, exactly. A backend that cannot do
   * one of these steps exactly must refuse the spec (the engine's sensitivities rely on them:
   * {@code docs/proofs/engine-bounding.md}).
   * Every step must be exact in whatever types the backend uses (DuckDB sums a pair's values in
   * DOUBLE only while c·max|v| ≤ 2^53, else in 128 bits: {@code docs/proofs/engine-fixed-point.md}).
   *
   * @param column the source column (numeric)
   * @param lower clamping lower bound
   * @param upper clamping upper bound
   * @param scaleExponent k: the grid is 2^-k
   * @param center subtracted from every scaled value
   * @param squares also compute the sum of squares of the centered values
   * @param pairClamp bounds on each unit's (bounded) sum in a group, in grid units, or null for
   *     none; only with {@code center == 0} and without squares
   */
  record FixedPointSum(String column, double lower, double upper, int scaleExponent, long center,
      boolean squares, PairClamp pairClamp) implements Measure {
    public FixedPointSum {
      Objects.requireNonNull(column, "column");
      if (pairClamp != null && (center != 0 || squares)) {
        throw new IllegalArgumentException("pairClamp needs center 0 and no squares");
      }
    }

    /** A fixed-point sum without a pair clamp. */
    public FixedPointSum(String column, double lower, double upper, int scaleExponent, long center,
        boolean squares) {
      this(column, lower, upper, scaleExponent, center, squares, null);
    }

    /** The pair clamp, if any. */
    public Optional<PairClamp> pairClampIfAny() {
      return Optional.ofNullable(pairClamp);
    }
  }

  /**
   * Bounds on one privacy unit's sum within one group, in grid units (integers on the measure's
   * 2^-k grid), as documented on {@link FixedPointSum}.
   *
   * @param lower the smallest pair sum kept (pairs with values below are raised to it)
   * @param upper the largest pair sum kept
   * @param allRows true: clamp the sum over all of the pair's rows (no scaling to L∞ rows first);
   *     false: clamp the sum after it was scaled to L∞ rows
   */
  record PairClamp(long lower, long upper, boolean allRows) {
    public PairClamp {
      if (lower > upper) {
        throw new IllegalArgumentException("pairClamp lower must not exceed upper");
      }
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
    /** Cells must be at least this many ulps of the bounds wide. */
    private static final double MIN_CELL_ULPS = 16;

    public Bins {
      Objects.requireNonNull(column, "column");
      requireResolvableCells(lower, upper, bins);
    }

    /**
     * Refuses bounds whose cell arithmetic is not finite and exact enough, before anything runs
     * (issue 10, item 2: otherwise the cell computation fails on every non-null row after the
     * charge, which tells an empty table from a one-row table). Requires finite bounds with lower
     * &lt; upper and bins ≥ 1, a cell width w = (upper − lower)/bins that is a normal double (so
     * the cell rate bins/(upper − lower) is finite), and w ≥ 16 ulps of max(|lower|, |upper|) (so
     * that the rounded cell edges and the clamped values fall into their cells up to a small
     * fraction of a cell).
     *
     * @throws IllegalArgumentException naming the bounds (public query parameters only)
     */
    public static void requireResolvableCells(double lower, double upper, int bins) {
      if (bins < 1) {
        throw new IllegalArgumentException("bins must be positive");
      }
      double range = upper - lower;
      double width = range / bins;
      double magnitude = Math.max(Math.abs(lower), Math.abs(upper));
      if (!(lower < upper) || !Double.isFinite(range) || !(width >= Double.MIN_NORMAL)
          || !Double.isFinite(bins / range) || !(width >= MIN_CELL_ULPS * Math.ulp(magnitude))) {
        throw new IllegalArgumentException("bounds [" + lower + ", " + upper + "] are too close "
            + "for " + bins + " cells: each cell must be a normal double at least 16 ulps of the "
            + "bounds wide; widen the bounds or use fewer cells");
      }
    }
  }
}
