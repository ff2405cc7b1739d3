package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.privet.engine.Aggregation;
import org.privet.engine.Filter;
import org.privet.engine.Query;
import org.privet.engine.budget.DefaultSplit;
import org.privet.engine.release.Release;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * The bounding rewrite of one query at one fixed-point precision, filled in by the
 * {@link AggregationPlanner}s: backend measures, the bounds shown in EXPLAIN, and the noisy
 * releases with their per-group sensitivities, before the budget split chooses their mechanisms.
 *
 * <p>Shared measurements (post-processing is free, {@code docs/proofs/engine-budget-split.md}):
 * a planner asking for a release whose exact statistic equals one already planned gets that
 * release back instead of a new one ({@link #release}), so COUNT(*), the count of an AVG and of a
 * VARIANCE of one column are one noisy count when they are equal on every dataset, and SUM, AVG
 * and VARIANCE of one column with the same bounds one noisy sum.
 */
public final class Rewrite {
  final Query query;
  final int l0;
  public final long lInf;
  /**
   * m &gt; 0: each unit keeps at most m rows in total over all groups ({@link
   * Query#maxRowsContributed()}; then l0 = lInf = m); 0: L0/L∞ bounding.
   */
  final int rowsCap;
  final int sumBits;
  final int squareBits;
  /**
   * Post-aggregation thresholding: partition selection's noisy distinct-unit count is the output
   * of the threshold statistics (COUNT(DISTINCT unit), COUNT(*) at L∞ = 1), which get no release.
   */
  final boolean reuse;
  final List<Measure> measures = new ArrayList<>();
  final List<String> bounds = new ArrayList<>();
  public final List<Draft> drafts = new ArrayList<>();
  /** Per draft: the outputs using it, in planning order. */
  final List<List<String>> users = new ArrayList<>();
  private final Map<Object, Integer> byStatistic = new LinkedHashMap<>();
  private final Set<Integer> parts = new HashSet<>(); // drafts planned as parts of an output
  private final TableSchema schema;
  private final List<Integer> current = new ArrayList<>();
  public final List<Compiler.PlannedOutput> outputs = new ArrayList<>();
  public final List<Double> weights = new ArrayList<>(); // per draft: budget weight
  final List<String> reasons = new ArrayList<>(); // per draft: why that weight

  /**
   * A noisy release before the split.
   *
   * @param target what it perturbs
   * @param perGroup its sensitivity in one group (grid units)
   * @param treeLevels a quantile tree's levels H (its per-group L2 norm is L∞·√H), else 0
   * @param exponential released by the exponential mechanism (once per group)
   * @param totals under a total row cap m ({@link #rowsCap}): the sensitivities over all groups,
   *     else null (then L1 = L0·perGroup, L2 = ⌈√L0·perGroup⌉)
   */
  public record Draft(Release.Target target, long perGroup, int treeLevels, boolean exponential,
      Totals totals) {}

  /**
   * A release's sensitivities over all groups when one unit keeps at most m rows in total: L1,
   * ⌈L2⌉ and L2² exactly (0 when it does not fit a long). Argument: {@code
   * docs/proofs/rows-contributed.md}.
   */
  public record Totals(long l1, long l2, long l2Squared) {
    /**
     * For a release whose change from one kept (unit, group) pair with exactly j kept values is
     * at most g(j): a pair allowed k ≤ m rows changes it by at most f(k) = max(1, max_{j ≤ k}
     * g(j)) (at least one grid step, as the per-group sensitivities), and a unit's pairs are
     * allowed k_1 + k_2 + … ≤ m rows, so L1 = Σ f(k_g) ≤ m·max_k f(k)/k and L2² = Σ f(k_g)² ≤
     * max_k f(k) · L1. Linear in m (one pass, k = 1..m).
     */
    static Totals of(int m, java.util.function.LongUnaryOperator g) {
      long l1 = 0;
      long top = 1;
      for (long k = 1; k <= m; k++) {
        top = Math.max(top, g.applyAsLong(k));
        long fk = top;
        // ⌈m·f(k)/k⌉, exactly (in 64 bits while m·f(k) fits, else BigInteger)
        long q;
        if (fk <= Long.MAX_VALUE / m) {
          long p = m * fk;
          q = p / k + (p % k == 0 ? 0 : 1);
        } else {
          q = java.math.BigInteger.valueOf(m).multiply(java.math.BigInteger.valueOf(fk))
              .add(java.math.BigInteger.valueOf(k - 1)).divide(java.math.BigInteger.valueOf(k))
              .longValueExact();
        }
        l1 = Math.max(l1, q);
      }
      java.math.BigInteger sq = java.math.BigInteger.valueOf(top)
          .multiply(java.math.BigInteger.valueOf(l1));
      return new Totals(l1, ceilSqrt(sq), sq.bitLength() < 63 ? sq.longValueExact() : 0);
    }

    /**
     * For a release additive over rows, each row changing it by at most perGroup/m (count, sum
     * and sum of squares without a pair clamp, histogram cells, COUNT(column)): L1 = L2 =
     * perGroup, the most a unit's m rows can add, all in one group or spread.
     */
    static Totals linear(long perGroup) {
      long sq;
      try {
        sq = Math.multiplyExact(perGroup, perGroup);
      } catch (ArithmeticException e) {
        sq = 0;
      }
      return new Totals(perGroup, perGroup, sq);
    }

    private static long ceilSqrt(java.math.BigInteger sq) {
      java.math.BigInteger r = sq.sqrt();
      if (r.multiply(r).compareTo(sq) < 0) {
        r = r.add(java.math.BigInteger.ONE);
      }
      return r.longValueExact();
    }
  }

  Rewrite(Query query, TableSchema schema, int sumBits, int squareBits, boolean reuse) {
    this.query = query;
    this.reuse = reuse;
    this.schema = schema;
    this.l0 = query.maxGroupsContributed();
    this.lInf = query.maxRowsPerGroup();
    this.rowsCap = query.maxRowsContributed();
    this.sumBits = sumBits;
    this.squareBits = squareBits;
  }

  /** The index of {@code m} among the measures, adding it if absent (shared by SUM and MEAN). */
  int measureIndex(Measure m) {
    int i = measures.indexOf(m);
    if (i >= 0) {
      return i;
    }
    return addMeasure(m);
  }

  /** Adds {@code m} as a new measure and returns its index. */
  int addMeasure(Measure m) {
    measures.add(m);
    return measures.size() - 1;
  }

  /** Starts the releases of one planner; {@link #end} returns their indexes. */
  void begin() {
    current.clear();
  }

  /** The releases the planner since {@link #begin} asked for, in order (shared ones included). */
  List<Integer> end() {
    return List.copyOf(current);
  }

  /**
   * Adds an additive-noise release an output asked for itself (COUNT's count, SUM's sum): it
   * reuses a part of another output's release of the same statistic (say an AVG's count), but two
   * such releases stay two measurements, as the user asked for two.
   */
  void release(Release.Target target, long perGroup) {
    add(new Draft(target, perGroup, 0, false, linear(perGroup)), statistic(target), false);
  }

  /**
   * As {@link #release}, for a release whose per-pair change is not proportional to the pair's
   * rows: under a total row cap its sensitivities come from {@code perPair}, f(k) for a pair
   * with k kept rows ({@link Totals#of}).
   */
  void release(Release.Target target, long perGroup, java.util.function.LongUnaryOperator perPair) {
    add(new Draft(target, perGroup, 0, false, rowsCap > 0 ? Totals.of(rowsCap, perPair) : null),
        statistic(target), false);
  }

  /** Under a total row cap, {@link Totals#linear}; else null. */
  private Totals linear(long perGroup) {
    return rowsCap > 0 ? Totals.linear(perGroup) : null;
  }

  /**
   * Adds an additive-noise release that is a part of an output (an AVG's or a VARIANCE's sum or
   * count): it reuses any release of the same statistic.
   */
  void partRelease(Release.Target target, long perGroup) {
    add(new Draft(target, perGroup, 0, false, linear(perGroup)), statistic(target), true);
  }

  /** As {@link #partRelease}, with a per-pair change f(k) as for {@link #release(Release.Target, long, java.util.function.LongUnaryOperator)}. */
  void partRelease(Release.Target target, long perGroup,
      java.util.function.LongUnaryOperator perPair) {
    add(new Draft(target, perGroup, 0, false, rowsCap > 0 ? Totals.of(rowsCap, perPair) : null),
        statistic(target), true);
  }

  /** Adds a quantile tree release (H levels, per-group L1 sensitivity L∞·H). */
  void treeRelease(Release.Target target, int levels) {
    // Under a total row cap m: per level a unit's k_g rows in group g change its nodes by L1 ≤
    // k_g (so L2 ≤ k_g), hence L1 = m·H and L2² = Σ_levels Σ_g k_g² ≤ H·m² over all groups.
    Totals t = rowsCap > 0 ? new Totals(Math.multiplyExact((long) rowsCap, (long) levels),
        Compiler.l2(rowsCap, levels), Math.multiplyExact((long) rowsCap * rowsCap, (long) levels))
        : null;
    add(new Draft(target, Math.multiplyExact(lInf, (long) levels), levels, false, t), null, false);
  }

  /** Adds an exponential-mechanism release. */
  void exponentialRelease(Release.Target target, long perGroup) {
    add(new Draft(target, perGroup, 0, true, linear(perGroup)), null, false);
  }

  private void add(Draft d, Object statistic, boolean part) {
    Integer shared = statistic == null ? null : byStatistic.get(statistic);
    if (shared != null && (part || parts.contains(shared))
        && drafts.get(shared).perGroup() == d.perGroup()
        && java.util.Objects.equals(drafts.get(shared).totals(), d.totals())) {
      if (!users.get(shared).contains(d.target().output())) {
        users.get(shared).add(d.target().output());
      }
      current.add(shared);
      return;
    }
    drafts.add(d);
    users.add(new ArrayList<>(List.of(d.target().output())));
    int i = drafts.size() - 1;
    if (statistic != null) {
      byStatistic.putIfAbsent(statistic, i);
    }
    if (part) {
      parts.add(i);
    }
    current.add(i);
  }

  /**
   * What exact per-group value a target releases, equal for equal keys on every dataset: counts
   * of the kept non-ignored values of one column are the same for every measure of it, and equal
   * the row count when no row can be ignored (see {@link #neverIgnored}); sums and squares are
   * their measure's (measures are deduplicated, a centre is part of the measure).
   */
  private Object statistic(Release.Target t) {
    return switch (t.field()) {
      case ROWS -> Release.Field.ROWS;
      case UNITS -> Release.Field.UNITS;
      case COUNT -> {
        String column = measures.get(t.measure()).column();
        yield neverIgnored(column) ? Release.Field.ROWS : List.of(Release.Field.COUNT, column);
      }
      case SUM, SQUARES -> List.of(t.field(), t.measure(), t.scaleExponent(), t.center());
      default -> null;
    };
  }

  /**
   * Whether no kept row can have {@code column} NULL or NaN, so that its non-null count equals
   * the row count: the query's filter requires {@code NOT (column IS NULL)} (alone or as a
   * conjunct) and the column cannot hold NaN (INTEGER or DECIMAL).
   */
  boolean neverIgnored(String column) {
    ColumnType type = schema.column(column).map(TableSchema.Column::type).orElse(ColumnType.OTHER);
    if (type != ColumnType.INTEGER && type != ColumnType.DECIMAL) {
      return false;
    }
    return query.filter().map(f -> requiresNotNull(f, column)).orElse(false);
  }

  private static boolean requiresNotNull(Filter f, String column) {
    if (f instanceof Filter.Not n && n.operand() instanceof Filter.IsNull i) {
      return i.column().equals(column);
    }
    return f instanceof Filter.And a && a.operands().stream()
        .anyMatch(o -> requiresNotNull(o, column));
  }

  /**
   * The aggregation whose sum a value aggregation of {@code column} over [lower, upper] (no group
   * bounds) shares: the first SUM with these bounds and no group bounds when reading its
   * uncentred sum is never worse ({@link #uncentredSumNeverWorse}), else the first MEAN (a centred
   * sum), else none.
   */
  Aggregation sumSharedWith(String column, double lower, double upper) {
    Aggregation mean = null;
    // With estimated bounds the choice must not depend on their values (the stand-in and the
    // estimate must give the same releases): share the SUM's sum.
    boolean shareSum = query.boundsEstimated() || uncentredSumNeverWorse(lower, upper);
    for (Aggregation a : query.aggregations()) {
      if (shareSum && a instanceof Aggregation.Sum s && s.perGroup() == null
          && s.column().equals(column) && s.lower() == lower && s.upper() == upper) {
        return s;
      }
      if (mean == null && a instanceof Aggregation.Mean m && m.perGroup() == null
          && m.column().equals(column) && m.lower() == lower && m.upper() == upper) {
        mean = m;
      }
    }
    return mean;
  }

  /**
   * Whether an AVG over [lower, upper] reading a SUM's uncentred sum is at least as accurate as
   * with its own centred sum, for every true mean μ in the range, under ε (noise variance ∝
   * 1/share²) and ρ (∝ 1/share) splits (issue 22): with the default split the shared sum gets the
   * SUM's part plus the AVG's (≥ 3× the AVG's own sum part, {@link DefaultSplit#weights}), so per
   * unit of the AVG's own part the noise variances are, to first order, shared U²/3<sup>p</sup> +
   * μ² and own C² + (μ − c)² (U = max(|lower|, |upper|), C = (upper − lower)/2, c the centre, the
   * count's part at least the AVG's own sum part). Their difference is linear in μ, so checking
   * both ends checks the whole range. Public: a function of the bounds only.
   */
  static boolean uncentredSumNeverWorse(double lower, double upper) {
    double u = Math.max(Math.abs(lower), Math.abs(upper));
    double h = (upper - lower) / 2;
    double c = (upper + lower) / 2;
    for (double r : new double[] {3, 9}) {
      for (double mu : new double[] {lower, upper}) {
        if (u * u / r + mu * mu > h * h + (mu - c) * (mu - c)) {
          return false;
        }
      }
    }
    return true;
  }

  /** The output names of draft {@code i}, joined for receipts. */
  String users(int i) {
    return String.join(", ", users.get(i));
  }
}
