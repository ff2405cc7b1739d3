package org.privet.engine.spi;

import java.util.Objects;
import java.util.Optional;

/** A value aggregate the backend computes per group, besides the always-present unit and row counts. */
public sealed interface Measure
    permits Measure.FixedPointSum, Measure.Bins, Measure.PairRows, Measure.PairValues {

  /**
   * C = 2^62: the public cap at which per-group sums of fixed-point values saturate ({@link
   * FixedPointSum}), so that no release path fails on a data-dependent magnitude (issue 10,
   * item 3; {@code docs/proofs/engine-fixed-point.md}).
   */
  long SUM_CAP = 1L << 62;

  /** The source column. */
  String column();

  /**
   * The number of cells of a binned measure ({@link Bins}, {@link PairRows}, {@link PairValues});
   * 0 for a sum.
   */
  static int cells(Measure m) {
    return m instanceof Bins b ? b.bins() : m instanceof PairRows p ? p.bins()
        : m instanceof PairValues v ? v.bins() : 0;
  }

  /**
   * A fixed-point sum. Per row: x = CAST(column AS DOUBLE); NULL or NaN → ignored; otherwise
   * u = rnd(clamp(x, lower, upper) · 2^scaleExponent), where rnd is any monotone rounding to an
   * integer (|u| ≤ 2^31 guaranteed by the engine), and v = u − center (v = u with a pair clamp:
   * its centre is applied in step 3). Write a = ⌊lower·2^k⌋ − center and b = ⌈upper·2^k⌉ − center
   * (center 0 with a pair clamp) for the range of v, and M = max(|a|, |b|).
   *
   * <p>Per (unit, group) pair, over the pair's non-ignored rows (exact integer arithmetic
   * throughout, at least 128 bits before the clamp):
   * <ol>
   *   <li>s = Σv, c = number of non-ignored rows, q = Σ(u − center)² (if {@code squares});
   *   <li>row bound: if c &gt; L∞ then s ← ⌊s·L∞/c⌋, q ← ⌊q·L∞/c⌋, c ← L∞ — <em>except</em> that
   *       for a {@link PairClamp#allRows() allRows} pair clamp s keeps the sum over all the
   *       pair's rows (c and q are still bounded as stated);
   *   <li>pair bound: if {@code pairClamp} is present and c &gt; 0 then
   *       s ← min(max(s, pairClamp.lower), pairClamp.upper) − center·c (a pair with c = 0 keeps
   *       s = 0).
   * </ol>
   * Row-level queries (no unit column) treat each row as its own pair (c ≤ 1), so steps 2 and 3
   * reduce to clamping u to [pairClamp.lower, pairClamp.upper] and subtracting center.
   *
   * <p>Overflow (total, never an error): if a pair's exact Σv or Σv² before step 2 leaves the
   * signed 64-bit range (only possible with more than 2^32 values in one pair), a backend that
   * sums in 64 bits may use instead, after the row bound, any value of s in [c·a, c·b] (of q in
   * [0, c·M²]) computed from that pair's rows alone; the sensitivity argument only needs those
   * ranges ({@code docs/proofs/engine-fixed-point.md}).
   *
   * <p>Per group, over the kept pairs: N = Σc exactly; S = min(Σ max(s, 0), C) + max(Σ min(s, 0),
   * −C) and Q = min(Σq, C) with C = {@link #SUM_CAP}: the exact sums whenever the positive and the
   * negative parts each stay within 2^62, and otherwise saturated, part by part. Each part is a
   * monotone, 1-Lipschitz function of each pair's s, so S moves by at most |s| when a pair is
   * added or removed: the cap costs no sensitivity. A backend that cannot do one of these steps
   * exactly must refuse the spec (the engine's sensitivities rely on them:
   * {@code docs/proofs/engine-bounding.md}). Every step must be exact in whatever types the
   * backend uses (DuckDB sums a pair's values in DOUBLE only while c·max|v| ≤ 2^53, else in 128
   * bits: {@code docs/proofs/engine-fixed-point.md}).
   *
   * @param column the source column (numeric)
   * @param lower clamping lower bound
   * @param upper clamping upper bound
   * @param scaleExponent k: the grid is 2^-k
   * @param center subtracted from every scaled value (with a pair clamp: from every pair's clamped
   *     sum, per value)
   * @param squares also compute the sum of squares of the centered values
   * @param pairClamp bounds on each unit's (bounded, uncentred) sum in a group, in grid units, or
   *     null for none; only without squares, and with {@code center == 0} if {@code allRows}
   * @param rows true: a row count ({@link #rowCount}): every row that passes step 1 of {@link
   *     BoundedAggregation} has u = 1 (NULL or NaN in {@code column} is not ignored, and the
   *     column's value is never read), so s = c = the pair's rows; only with lower = upper = 1,
   *     k = 0, center 0 and no squares. A contract extension: a backend that does not implement it
   *     must refuse the spec
   */
  record FixedPointSum(String column, double lower, double upper, int scaleExponent, long center,
      boolean squares, PairClamp pairClamp, boolean rows) implements Measure {
    public FixedPointSum {
      Objects.requireNonNull(column, "column");
      if (pairClamp != null && (squares || (pairClamp.allRows() && center != 0))) {
        throw new IllegalArgumentException(
            "pairClamp needs no squares, and center 0 for an allRows pair clamp");
      }
      if (rows && (lower != 1 || upper != 1 || scaleExponent != 0 || center != 0 || squares)) {
        throw new IllegalArgumentException(
            "a row count needs lower = upper = 1, scale exponent 0, center 0 and no squares");
      }
      // The contract's |v| ≤ 2^31, checked here so that every backend gets it: the no-overflow
      // arguments for v² and for 64-bit pair sums rely on it (docs/proofs/engine-fixed-point.md).
      long rowCenter = pairClamp == null ? center : 0;
      double a = Math.floor(Math.scalb(lower, scaleExponent)) - rowCenter;
      double b = Math.ceil(Math.scalb(upper, scaleExponent)) - rowCenter;
      if (!(lower <= upper) || !(Math.max(Math.abs(a), Math.abs(b)) <= MAX_ABS_VALUE)) {
        throw new IllegalArgumentException("fixed-point measure on column '" + column
            + "': clamped, scaled and centred values must lie within ±2^31");
      }
    }

    /** 2^31: the largest |v| of a per-row value (so that v² fits 64 bits). */
    public static final double MAX_ABS_VALUE = 0x1p31;

    /** A fixed-point sum of the column's values (not a row count). */
    public FixedPointSum(String column, double lower, double upper, int scaleExponent, long center,
        boolean squares, PairClamp pairClamp) {
      this(column, lower, upper, scaleExponent, center, squares, pairClamp, false);
    }

    /** A fixed-point sum without a pair clamp. */
    public FixedPointSum(String column, double lower, double upper, int scaleExponent, long center,
        boolean squares) {
      this(column, lower, upper, scaleExponent, center, squares, null);
    }

    /**
     * Each pair's row count as a fixed-point sum of ones ({@code rows}): s = c = the pair's rows
     * that pass step 1, then the pair clamp, so that the group's S is Σ<sub>pairs</sub>
     * clamp(rows). With an {@link PairClamp#allRows allRows} clamp [0, τ] that is R2T's truncated
     * count Σ<sub>u</sub> min(c<sub>u</sub>, τ) whatever L∞ is ({@code
     * docs/proofs/r2t-truncation.md}).
     *
     * @param column a column the spec reads anyway (the unit column), never read for values
     * @param pairClamp the bounds on each pair's row count
     */
    public static FixedPointSum rowCount(String column, PairClamp pairClamp) {
      return new FixedPointSum(column, 1, 1, 0, 0, false, pairClamp, true);
    }

    /** The center subtracted from each row's value before summing (0 with a pair clamp). */
    public long rowCenter() {
      return pairClamp == null ? center : 0;
    }

    /** a = ⌊lower·2^k⌋ − rowCenter, the smallest per-row value (exact for |a| ≤ 2^53). */
    public double lowestValue() {
      return Math.floor(Math.scalb(lower, scaleExponent)) - rowCenter();
    }

    /** b = ⌈upper·2^k⌉ − rowCenter, the largest per-row value (exact for |b| ≤ 2^53). */
    public double highestValue() {
      return Math.ceil(Math.scalb(upper, scaleExponent)) - rowCenter();
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
      if (Math.abs(lower) > SUM_CAP || Math.abs(upper) > SUM_CAP || lower == Long.MIN_VALUE) {
        throw new IllegalArgumentException("pairClamp bounds must lie within ±2^62");
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
   * <p>With {@code logScale} the cells are instead sign-symmetric powers of two: lower = −2^E,
   * upper = 2^E, bins = 2K, m = E − K; a clamped value c ≥ 0 falls in cell K + min(max(e − m, 0),
   * K − 1) and c &lt; 0 in cell K − 1 − min(max(e' − m, 0), K − 1), with e = ⌊log₂ max(c, 2^m)⌋
   * and e' = ⌊log₂ max(−c, 2^m)⌋ exactly (a power of two starts its cell). Edges:
   * edge K = 0, edge K ± i = ±2^(m+i) for 1 ≤ i ≤ K ({@code docs/proofs/auto-bounds.md}).
   *
   * @param bins number of cells
   * @param logScale false: equal cells; true: sign-symmetric power-of-two cells (a contract
   *     extension: a backend that does not implement it must refuse the spec)
   */
  record Bins(String column, double lower, double upper, int bins, boolean logScale)
      implements Measure {
    /** Cells must be at least this many ulps of the bounds wide. */
    private static final double MIN_CELL_ULPS = 16;

    public Bins {
      Objects.requireNonNull(column, "column");
      if (!logScale) {
        requireResolvableCells(lower, upper, bins);
      } else if (bins < 2 || bins % 2 != 0 || lower != -upper
          || Math.getExponent(upper) - bins / 2 < Double.MIN_EXPONENT
          || upper != Math.scalb(1.0, Math.getExponent(upper)) || !Double.isFinite(upper)) {
        throw new IllegalArgumentException("log-scale bins need bounds ±2^E and an even number "
            + "2K of cells with 2^(E−K) a normal double");
      }
    }

    /** Equal cells over [lower, upper]. */
    public Bins(String column, double lower, double upper, int bins) {
      this(column, lower, upper, bins, false);
    }

    /** m = E − K with {@code logScale}: the smallest magnitude exponent of the grid. */
    public int logMinExponent() {
      return Math.getExponent(upper) - bins / 2;
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

  /**
   * The distribution of rows per (unit, group) pair: per group, the number of <em>kept</em> pairs
   * (step 3 of {@link BoundedAggregation}: after L0 bounding) whose row count n (all the pair's
   * rows that pass step 1, before any L∞ cap; n ≥ 1) falls in cell min(⌈log₂ n⌉, bins − 1): cell
   * 0 holds n = 1, cell 1 n = 2, cell 2 n ∈ {3, 4}, cell j n ∈ (2^(j−1), 2^j]. Each kept pair
   * counts exactly once, in one cell, whatever L∞ and the other measures are: one unit adds at
   * most L0 to the cells of all groups together. It reads no value column and needs a unit
   * column (row-level specs are refused). A contract extension: a backend that does not implement
   * it must refuse the spec. Proof path: {@code docs/proofs/contribution-bound-estimate.md}.
   *
   * @param column the spec's unit column (whose pairs are counted)
   * @param bins the number of cells, 1 to 62
   */
  record PairRows(String column, int bins) implements Measure {
    public PairRows {
      Objects.requireNonNull(column, "column");
      if (bins < 1 || bins > 62) {
        throw new IllegalArgumentException("pair-rows bins must be in [1, 62]");
      }
    }

    /** The cell of a pair of {@code n ≥ 1} rows: min(⌈log₂ n⌉, bins − 1). */
    public int cellOf(long n) {
      int c = n <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(n - 1);
      return Math.min(c, bins - 1);
    }
  }

  /**
   * The distribution of the (unit, group) pairs' <em>values</em> in row-equivalents: per group, the
   * number of kept pairs (after L0, as {@link PairRows}) in cell min(⌈log₂ max(r, 1)⌉, bins − 1),
   * where r is the smallest number of rows at the clamping bound of the sum's sign that reach
   * the pair's sum. Per pair, over its non-ignored rows (x = CAST(column AS DOUBLE), NULL or NaN
   * ignored; no L∞ cap): u = rnd(clamp(x, lower, upper)·2^k) as for {@link FixedPointSum} (centre
   * 0), s = Σu exactly, a = ⌊lower·2^k⌋, b = ⌈upper·2^k⌉; r = ⌈s/b⌉ if s &gt; 0, ⌈s/a⌉ if s &lt; 0,
   * 0 if s = 0 or the pair has no value (a pair clamped to [L·min(a, 0), L·max(b, 0)] keeps its sum
   * iff r ≤ L). Equivalently, with a' = min(a, 0) and b' = max(b, 0), the cell is the smallest
   * j &lt; bins − 1 with 2^j·a' ≤ s ≤ 2^j·b', else bins − 1, computed by exact integer comparisons; a pair with |s| &gt; 2^62 (only with more
   * than 2^31 values) falls in cell bins − 1. Each kept pair counts exactly once, whatever its
   * values: one unit adds at most L0 to the cells of all groups together. Needs a unit column. A
   * contract extension: a backend that does not implement it must refuse the spec. Proof path:
   * {@code docs/proofs/contribution-bound-estimate.md}.
   *
   * @param column the source column (numeric) whose pair sums are measured
   * @param lower per-row clamping lower bound
   * @param upper per-row clamping upper bound
   * @param scaleExponent k: the grid is 2^-k
   * @param bins the number of cells, 1 to 62
   */
  record PairValues(String column, double lower, double upper, int scaleExponent, int bins)
      implements Measure {
    public PairValues {
      Objects.requireNonNull(column, "column");
      if (bins < 1 || bins > 62) {
        throw new IllegalArgumentException("pair-values bins must be in [1, 62]");
      }
      // The same per-row range as a fixed-point sum (|u| ≤ 2^31): checked there.
      new FixedPointSum(column, lower, upper, scaleExponent, 0, false);
    }

    /** The per-row values as a fixed-point sum (centre 0, no pair clamp) computes them. */
    public FixedPointSum rowValues() {
      return new FixedPointSum(column, lower, upper, scaleExponent, 0, false);
    }

    /** a' = min(⌊lower·2^k⌋, 0): the most negative pair sum per row-equivalent. */
    public long lowestValue() {
      return Math.min(0, (long) rowValues().lowestValue());
    }

    /** b' = max(⌈upper·2^k⌉, 0): the largest pair sum per row-equivalent. */
    public long highestValue() {
      return Math.max(0, (long) rowValues().highestValue());
    }

    /** The cell of a pair with exact value sum {@code s} (any pair with no value: s = 0). */
    public int cellOf(java.math.BigInteger s) {
      if (s.abs().compareTo(java.math.BigInteger.ONE.shiftLeft(62)) > 0) {
        return bins - 1;
      }
      java.math.BigInteger lo = java.math.BigInteger.valueOf(lowestValue());
      java.math.BigInteger hi = java.math.BigInteger.valueOf(highestValue());
      for (int j = 0; j < bins - 1; j++) {
        if (s.compareTo(lo.shiftLeft(j)) >= 0 && s.compareTo(hi.shiftLeft(j)) <= 0) {
          return j;
        }
      }
      return bins - 1;
    }
  }
}
