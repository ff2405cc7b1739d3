package org.privet.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.spi.Measure;

/**
 * Clamping bounds estimated privately ("bounds without peeking"): a stated share of the query's
 * budget buys a noisy quantile tree ({@link QuantileTree}) of each AUTO column, and the cell
 * edges around its {@code lowerRank} and {@code upperRank} quantiles become the clamping bounds
 * of the aggregation, which then runs with the rest of the budget. This is Google's {@code
 * ApproxBounds} (differential-privacy library, {@code ApproxBounds}: a noisy histogram over
 * power-of-two bins, read at the edges) and BigQuery's automatic contribution bounds, with the
 * consistent quantile tree of Hay, Rastogi, Miklau, Suciu (VLDB 2010) instead of a thresholded
 * histogram, and sign-symmetric log bins as in Google's library; reading quantiles from a
 * hierarchical histogram follows Cormode, Kulkarni, Srivastava (2019, "Answering range queries
 * under local differential privacy") and Qardaji, Yang, Li (VLDB 2013).
 *
 * <p>Decisions: the bounds are global (one estimate per column over the filtered table, before
 * grouping, like a pre-query; per-group bounds would split the share over groups and leak group
 * membership through the bounds of small groups). The estimation pass keeps at most L∞ rows per
 * privacy unit (the query's own contribution bound), so its sensitivity is the quantile tree's.
 * The estimated bounds are cell edges of a public grid, always with lower &lt; upper (an empty
 * table gives a valid interval too), and are released with the answer ({@link Result#bounds()}):
 * they are DP outputs. The privacy argument (composition of the two passes, post-processing):
 * {@code docs/proofs/auto-bounds.md}.
 *
 * @param share the fraction of the query's budget spent on the bounds, in [0.001, 0.9]
 * @param lowerRank the rank whose quantile gives the lower bound, in [0, 0.5)
 * @param upperRank the rank whose quantile gives the upper bound, in (0.5, 1]
 * @param outputs the grid of each output whose bounds are estimated, by output name
 */
public record AutoBounds(double share, double lowerRank, double upperRank,
    Map<String, Grid> outputs) {
  /** Default share of the budget spent on the bounds (10%). */
  public static final double DEFAULT_SHARE = 0.1;
  /** Default lower rank (the 1st percentile). */
  public static final double DEFAULT_LOWER_RANK = 0.01;
  /** Default upper rank (the 99th percentile). */
  public static final double DEFAULT_UPPER_RANK = 0.99;
  /** Smallest accepted share. */
  public static final double MIN_SHARE = 0.001;
  /** Largest accepted share. */
  public static final double MAX_SHARE = 0.9;

  public AutoBounds {
    requireShare(share);
    requireRanks(lowerRank, upperRank);
    Objects.requireNonNull(outputs, "outputs");
    outputs = Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
    if (outputs.isEmpty()) {
      throw new IllegalArgumentException("autoBounds: at least one output is required");
    }
    outputs.values().forEach(g -> Objects.requireNonNull(g, "grid"));
  }

  static void requireShare(double share) {
    if (!(share >= MIN_SHARE && share <= MAX_SHARE)) {
      throw new IllegalArgumentException("autoBoundsShare must be in [" + MIN_SHARE + ", "
          + MAX_SHARE + "], was " + share);
    }
  }

  static void requireRanks(double lowerRank, double upperRank) {
    if (!(lowerRank >= 0 && lowerRank < 0.5)) {
      throw new IllegalArgumentException("autoBoundsRanks lower must be in [0, 0.5), was "
          + lowerRank);
    }
    if (!(upperRank > 0.5 && upperRank <= 1)) {
      throw new IllegalArgumentException("autoBoundsRanks upper must be in (0.5, 1], was "
          + upperRank);
    }
  }

  /**
   * The public grid the bounds are chosen from: sign-symmetric powers of two (for a column without
   * public bounds) or equal cells over a public range. Every estimated bound is one of its edges.
   *
   * @param log true: edges 0, ±2^m, ±2^(m+1), …, ±2^E ({@link #LOG_MIN_EXPONENT} to {@link
   *     #LOG_MAX_EXPONENT}); false: {@link #LINEAR_CELLS} equal cells over [lower, upper]
   * @param lower the public lower bound (linear), or −2^E
   * @param upper the public upper bound (linear), or 2^E
   */
  public record Grid(boolean log, double lower, double upper) {
    /** E: the log grid reaches ±2^60 (the engine's largest bound); larger values are clamped. */
    public static final int LOG_MAX_EXPONENT = 60;
    /** m: magnitudes below 2^(m+1) share the cells next to 0. */
    public static final int LOG_MIN_EXPONENT = -32;
    /** Cells of a linear grid. */
    public static final int LINEAR_CELLS = 1024;

    public Grid {
      if (log) {
        if (lower != -Math.scalb(1.0, LOG_MAX_EXPONENT) || upper != Math.scalb(1.0, LOG_MAX_EXPONENT)) {
          throw new IllegalArgumentException("a log grid spans ±2^" + LOG_MAX_EXPONENT);
        }
      } else {
        if (!Double.isFinite(lower) || !Double.isFinite(upper) || !(lower < upper)
            || Math.max(Math.abs(lower), Math.abs(upper)) > 0x1p60) {
          throw new IllegalArgumentException("autoBounds public range must be finite with lower "
              + "< upper, within ±2^60, were " + lower + " and " + upper);
        }
        Measure.Bins.requireResolvableCells(lower, upper, LINEAR_CELLS);
      }
    }

    /** The sign-symmetric power-of-two grid (for columns without public bounds). */
    public static Grid logScale() {
      double e = Math.scalb(1.0, LOG_MAX_EXPONENT);
      return new Grid(true, -e, e);
    }

    /** Equal cells over a public range [lower, upper] (values outside are clamped into it). */
    public static Grid linear(double lower, double upper) {
      return new Grid(false, lower, upper);
    }

    /** The number of cells. */
    public int cells() {
      return log ? 2 * (LOG_MAX_EXPONENT - LOG_MIN_EXPONENT) : LINEAR_CELLS;
    }

    /** The backend measure that counts rows per cell of this grid. */
    public Measure.Bins measure(String column) {
      return new Measure.Bins(column, lower, upper, cells(), log);
    }

    /** The value of edge j (0 ≤ j ≤ cells): exactly lower at 0 and upper at cells. */
    public double edge(int j) {
      int b = cells();
      if (j <= 0) {
        return lower;
      }
      if (j >= b) {
        return upper;
      }
      if (!log) {
        return lower + (upper - lower) * j / b;
      }
      int k = b / 2;
      return j == k ? 0.0 : Math.signum(j - k) * Math.scalb(1.0, LOG_MIN_EXPONENT + Math.abs(j - k));
    }

    @Override
    public String toString() {
      return log ? "log2 grid ±2^" + LOG_MIN_EXPONENT + "..±2^" + LOG_MAX_EXPONENT + " and 0 ("
          + cells() + " cells)" : LINEAR_CELLS + " equal cells over [" + lower + ", " + upper + "]";
    }
  }

  /**
   * Bounds estimated for one output and released with the answer (a DP output).
   *
   * @param output the output they clamp
   * @param column its column
   * @param lower the estimated lower bound (a grid edge)
   * @param upper the estimated upper bound (a grid edge, &gt; lower)
   * @param lowerRank the rank whose noisy quantile gave {@code lower}
   * @param upperRank the rank whose noisy quantile gave {@code upper}
   */
  public record Estimated(String output, String column, double lower, double upper,
      double lowerRank, double upperRank) {}
}
