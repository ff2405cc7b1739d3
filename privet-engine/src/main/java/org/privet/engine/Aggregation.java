package org.privet.engine;

import java.util.Arrays;
import java.util.List;
import org.privet.engine.spi.Measure;

/**
 * One aggregate a query releases per group. Each has an output {@code name} (unique in the query).
 *
 * <p>Value aggregations clamp each row's value to {@code [lower, upper]} before anything else;
 * NULL and NaN values are ignored by them (as SQL ignores NULL), ±∞ are clamped to the bounds.
 * COUNT counts rows, whatever their values.
 */
public sealed interface Aggregation
    permits Aggregation.Count, Aggregation.CountNonNull, Aggregation.CountDistinctUnits,
        Aggregation.Sum, Aggregation.Mean,
        Aggregation.Variance, Aggregation.StdDev, Aggregation.Quantiles, Aggregation.Histogram {

  /** The output name. */
  String name();

  /** Number of rows (after filtering and bounding). */
  record Count(String name) implements Aggregation {
    public Count {
      Names.requireIdentifier("name", name);
    }
  }

  /**
   * Number of non-NULL, non-NaN values of a numeric column (after filtering and bounding: at most
   * L∞ per unit per group), beside aggregates of other columns (SQL {@code COUNT(column)}).
   */
  record CountNonNull(String name, String column) implements Aggregation {
    public CountNonNull {
      Names.requireIdentifier("name", name);
      Names.requireIdentifier("column", column);
    }
  }

  /** Number of distinct privacy units (COUNT(DISTINCT unit)). */
  record CountDistinctUnits(String name) implements Aggregation {
    public CountDistinctUnits {
      Names.requireIdentifier("name", name);
    }
  }

  /**
   * Sum of a numeric column, each row's value clamped to [lower, upper] and, if {@code perGroup}
   * is given, each privacy unit's total in a group clamped to [perGroup.lower, perGroup.upper]
   * (after the row bound; see {@link GroupBounds}). The sensitivity is the tighter of L∞ × the row
   * bound and the group bound, times the L0 (L1) or √L0 (L2) factor.
   */
  record Sum(String name, String column, double lower, double upper, GroupBounds perGroup)
      implements Aggregation {
    public Sum {
      Names.requireIdentifier("name", name);
      Names.requireIdentifier("column", column);
      requireBounds(lower, upper);
    }

    /** A sum with per-row bounds only. */
    public Sum(String name, String column, double lower, double upper) {
      this(name, column, lower, upper, null);
    }
  }

  /**
   * Mean of a numeric column, each row's value clamped to [lower, upper]; with {@code perGroup},
   * each unit's (row-bounded) sum in a group is also clamped to [perGroup.lower, perGroup.upper]
   * before the per-group sum is formed (mean = Σ clamped unit sums / Σ unit counts). The group
   * bounds must not use {@link GroupBounds#allRows()} (the count is always row-bounded).
   */
  record Mean(String name, String column, double lower, double upper, GroupBounds perGroup)
      implements Aggregation {
    public Mean {
      Names.requireIdentifier("name", name);
      Names.requireIdentifier("column", column);
      requireBounds(lower, upper);
      if (perGroup != null && perGroup.allRows()) {
        throw new IllegalArgumentException("perGroup: a mean's group bounds cannot be allRows "
            + "(its count is bounded to L∞ rows, so its sum must be too)");
      }
    }

    /** A mean with per-row bounds only. */
    public Mean(String name, String column, double lower, double upper) {
      this(name, column, lower, upper, null);
    }
  }

  /**
   * Bounds on one privacy unit's total contribution to one group (per unit per group clamping,
   * like PipelineDP's {@code min/max_sum_per_partition} or BigQuery's
   * {@code contribution_bounds_per_group} on SUM).
   *
   * @param lower smallest unit total kept in a group
   * @param upper largest unit total kept in a group
   * @param allRows false (default): the unit's total over its L∞-bounded rows (a pair with more
   *     than L∞ values has its sum scaled to L∞ values first), so both the row and the group bound
   *     hold and the sensitivity is the tighter one; true: the unit's total over all its rows in
   *     the group, unscaled (BigQuery's semantics), so only the group bound limits it
   */
  record GroupBounds(double lower, double upper, boolean allRows) {
    public GroupBounds {
      if (!Double.isFinite(lower)) {
        throw new IllegalArgumentException("perGroup lower must be finite, was " + lower);
      }
      if (!Double.isFinite(upper)) {
        throw new IllegalArgumentException("perGroup upper must be finite, was " + upper);
      }
      if (!(lower <= upper)) {
        throw new IllegalArgumentException(
            "perGroup lower must not exceed upper, were " + lower + " and " + upper);
      }
      if (Math.max(Math.abs(lower), Math.abs(upper)) > 0x1p60) {
        throw new IllegalArgumentException("perGroup bounds must be within ±2^60");
      }
    }

    /** Bounds on a unit's total over its L∞-bounded rows in a group. */
    public static GroupBounds of(double lower, double upper) {
      return new GroupBounds(lower, upper, false);
    }

    /** Bounds on a unit's total over all its rows in a group (rows not scaled to L∞ first). */
    public static GroupBounds ofAllRows(double lower, double upper) {
      return new GroupBounds(lower, upper, true);
    }
  }

  /** Population variance of a numeric column, values clamped to [lower, upper]. */
  record Variance(String name, String column, double lower, double upper) implements Aggregation {
    public Variance {
      Names.requireIdentifier("name", name);
      Names.requireIdentifier("column", column);
      requireBounds(lower, upper);
    }
  }

  /** Population standard deviation of a numeric column, values clamped to [lower, upper]. */
  record StdDev(String name, String column, double lower, double upper) implements Aggregation {
    public StdDev {
      Names.requireIdentifier("name", name);
      Names.requireIdentifier("column", column);
      requireBounds(lower, upper);
    }
  }

  /**
   * Quantiles of a numeric column at the given ranks (each in [0, 1]), values clamped to [lower,
   * upper]. Released on a grid of {@code bins} equal cells over [lower, upper].
   *
   * <p>{@link Method#TREE} (the default) releases one noisy quantile tree for all ranks and gives
   * each quantile a value interval; {@link Method#EXPONENTIAL} runs Smith's exponential mechanism
   * once per rank and gives no value interval (only the plan's rank-error bound).
   */
  record Quantiles(String name, String column, double lower, double upper, List<Double> ranks,
      int bins, Method method) implements Aggregation {
    /** Default number of grid cells for quantiles. */
    public static final int DEFAULT_BINS = 1024;

    /** How the quantiles are released. */
    public enum Method {
      /**
       * A hierarchical histogram (branching factor chosen by the number of cells, 11 for the
       * default 1,024) with exact geometric or discrete Gaussian noise on every node: one release
       * (one budget share) for all ranks of the column, monotone in the rank, each value with a
       * confidence interval covering the true quantile's grid cell (per rank). See {@code
       * docs/proofs/engine-quantiles.md}.
       */
      TREE,
      /**
       * Smith (2011)'s exponential mechanism over the grid edges, one run (one budget share) per
       * rank, sorted across ranks afterwards. No value interval: its accuracy is a rank-error bound
       * shown in the plan.
       */
      EXPONENTIAL
    }

    public Quantiles {
      Names.requireIdentifier("name", name);
      Names.requireIdentifier("column", column);
      requireBounds(lower, upper);
      if (ranks == null || ranks.isEmpty()) {
        throw new IllegalArgumentException("ranks must not be empty");
      }
      ranks = List.copyOf(ranks);
      for (double r : ranks) {
        if (!(r >= 0 && r <= 1)) {
          throw new IllegalArgumentException("ranks must be in [0, 1], was " + r);
        }
      }
      if (new java.util.HashSet<>(ranks).size() != ranks.size()) {
        throw new IllegalArgumentException("ranks must not repeat a rank");
      }
      if (bins < 2 || bins > 1 << 16) {
        throw new IllegalArgumentException("bins must be in [2, 65536], was " + bins);
      }
      Measure.Bins.requireResolvableCells(lower, upper, bins);
      if (method == null) {
        throw new IllegalArgumentException("method must not be null");
      }
    }

    /** Quantiles by the default method ({@link Method#TREE}). */
    public Quantiles(String name, String column, double lower, double upper, List<Double> ranks,
        int bins) {
      this(name, column, lower, upper, ranks, bins, Method.TREE);
    }

    static Quantiles of(String name, String column, double lower, double upper, Method method,
        double... ranks) {
      return new Quantiles(name, column, lower, upper,
          Arrays.stream(ranks).boxed().toList(), DEFAULT_BINS, method);
    }
  }

  /**
   * Counts of a numeric column's values in {@code bins} equal cells over [lower, upper] (values
   * clamped into the outer cells). Cell i covers [lower + i·w, lower + (i+1)·w).
   */
  record Histogram(String name, String column, double lower, double upper, int bins)
      implements Aggregation {
    public Histogram {
      Names.requireIdentifier("name", name);
      Names.requireIdentifier("column", column);
      requireBounds(lower, upper);
      if (bins < 1 || bins > 1 << 16) {
        throw new IllegalArgumentException("bins must be in [1, 65536], was " + bins);
      }
      Measure.Bins.requireResolvableCells(lower, upper, bins);
    }
  }

  private static void requireBounds(double lower, double upper) {
    if (!Double.isFinite(lower)) {
      throw new IllegalArgumentException("lower must be finite, was " + lower);
    }
    if (!Double.isFinite(upper)) {
      throw new IllegalArgumentException("upper must be finite, was " + upper);
    }
    if (!(lower < upper)) {
      throw new IllegalArgumentException(
          "lower must be less than upper, were " + lower + " and " + upper);
    }
    if (Math.max(Math.abs(lower), Math.abs(upper)) > 0x1p60) {
      throw new IllegalArgumentException("bounds must be within ±2^60");
    }
  }
}
