package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.List;
import org.privet.accounting.PureDp;
import org.privet.engine.Aggregation;
import org.privet.engine.MechanismCost;
import org.privet.engine.Query;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;
import org.privet.mechanisms.truncation.R2TMechanism;
import org.privet.mechanisms.truncation.ThresholdAnswers;
import org.privet.mechanisms.truncation.TruncationResult;
import org.privet.random.RandomSource;

/**
 * R2T over the engine's bounding plan (issue 25): the truncation of a COUNT(*) or SUM, scalar
 * or per public group, chosen privately (Dong, Fang, Yi, Tao, Machanavajjhala, "R2T: Instance-optimal Truncation for
 * Differentially Private Query Evaluation with Foreign Keys", SIGMOD 2022). For each public
 * threshold τ<sub>j</sub> = 2<sup>j</sup>, j = 1..L = ⌈log₂ GS⌉, the backend computes the exact
 * Q(I, τ<sub>j</sub>) = Σ<sub>u</sub> min(c<sub>u</sub>, τ<sub>j</sub>) (R2T's truncation for
 * self-join-free queries, each joined row attributed to one unit):
 *
 * <ul>
 *   <li>COUNT(*): c<sub>u</sub> is unit u's (joined) rows; one bounding plan per threshold with L0
 *       = 1 (one group) and L∞ = τ<sub>j</sub>, whose row count is Q(I, τ<sub>j</sub>);
 *   <li>SUM(x): c<sub>u</sub> is the sum of unit u's clamped values x ∈ [lower, upper], lower ≥ 0,
 *       as integers on the grid 2<sup>−k</sup>; ONE bounding plan with L measures, the j-th a
 *       fixed-point sum whose all-rows pair clamp is [0, τ<sub>j</sub>·2<sup>k</sup>] ({@link
 *       Measure.PairClamp}), so its group sum is Q(I, τ<sub>j</sub>) in grid units.
 * </ul>
 *
 * <p>With GROUP BY (public groups only, each unit in at most L0 of them), the same plans keep
 * the groups, Q<sub>g</sub>(I, τ) is computed per group from each unit's contributions in it
 * (after L0 bounding), and R2T runs once per listed group at ε/(L·L0) per threshold.
 *
 * <p>{@link R2TMechanism} adds its noise and bias to those values and releases the maximum. The
 * backend only renders and sums; the thresholds, noise, bias and choice are all here. One charge
 * of ε covers the whole release.
 *
 * <p>Privacy: {@code docs/proofs/r2t-truncation.md} ("The engine's use", "SUM"), with the
 * neighbour relation of {@code docs/proofs/engine-joins.md}.
 */
public final class R2TPass {
  /** The finest grid used for a SUM's values: 2^-20 of the column's unit. */
  static final int MAX_GRID_EXPONENT = 20;

  private final Query query;
  private final CompiledQuery base;
  private final double epsilon;
  private final long globalSensitivity;
  private final List<BoundedAggregation> specs;
  private final long[] thresholds; // grid units (= rows for a COUNT)
  private final Aggregation.Sum sum; // null for COUNT(*)
  private final int gridExponent;

  private R2TPass(Query query, CompiledQuery base, List<BoundedAggregation> specs,
      long[] thresholds, Aggregation.Sum sum, int gridExponent) {
    this.query = query;
    this.base = base;
    this.epsilon = ((PureDp) query.budget().loss()).epsilon();
    this.globalSensitivity = query.r2tTruncation().getAsLong();
    this.specs = List.copyOf(specs);
    this.thresholds = thresholds;
    this.sum = sum;
    this.gridExponent = gridExponent;
  }

  /**
   * Compiles the per-threshold bounding plans from public information only (before any charge).
   *
   * @throws IllegalArgumentException naming the parameter if the query does not fit the source
   */
  public static R2TPass compile(Query query, TableSchema schema, long salt) {
    if (query.r2tTruncation().isEmpty()) {
      throw new IllegalArgumentException("internal error: not an R2T query");
    }
    CompiledQuery base = Compiler.compile(query, schema, salt);
    BoundedAggregation s = base.spec();
    if (s.unitColumn().isEmpty() || (!s.groupBy().isEmpty() && s.publicGroups().isEmpty())) {
      throw new IllegalStateException("internal error: R2T needs a unit-level spec, scalar or"
          + " with public groups");
    }
    Aggregation.Sum sum = query.aggregations().get(0) instanceof Aggregation.Sum a ? a : null;
    int k = sum == null ? 0 : gridExponent(query, sum);
    // The mechanism's own levels and thresholds (public: GS, ε and k only).
    R2TMechanism shape = mechanism(query, 0.05, null, k);
    long[] thresholds = new long[shape.levels()];
    List<BoundedAggregation> specs = new ArrayList<>();
    List<Measure> perThreshold = new ArrayList<>();
    for (int j = 1; j <= shape.levels(); j++) {
      thresholds[j - 1] = shape.threshold(j);
      if (sum == null) {
        specs.add(new BoundedAggregation(s.source(), s.filter(), s.unitColumn(), s.groupBy(),
            s.publicGroups(), s.l0(), Math.toIntExact(thresholds[j - 1]), salt, s.measures()));
      } else {
        perThreshold.add(new Measure.FixedPointSum(sum.column(), sum.lower(), sum.upper(), k, 0,
            false, new Measure.PairClamp(0, thresholds[j - 1], true)));
      }
    }
    if (sum != null) {
      // One pass (L0 as the query says; 1 without groups); L∞ bounds only the counts, which R2T
      // does not read (an all-rows pair clamp sums all of the unit's rows in a group).
      specs.add(new BoundedAggregation(s.source(), s.filter(), s.unitColumn(), s.groupBy(),
          s.publicGroups(), s.l0(), 1, salt, perThreshold));
    }
    return new R2TPass(query, base, specs, thresholds, sum, k);
  }

  /**
   * k for a SUM, from public parameters only: the largest k ≤ {@value #MAX_GRID_EXPONENT} such that
   * a clamped value stays within the measure's ±2^31 (upper·2^k ≤ 2^31) and the largest
   * threshold's noise scale L·2^(L+k)/ε stays below 2^60 (so the discrete Laplace scale and the
   * saturating sums keep their meaning).
   *
   * @throws IllegalArgumentException naming the bound or option if even k = 0 does not fit
   */
  static int gridExponent(Query query, Aggregation.Sum sum) {
    double eps = ((PureDp) query.budget().loss()).epsilon();
    long gs = query.r2tTruncation().getAsLong();
    int levels = 64 - Long.numberOfLeadingZeros(gs - 1); // ⌈log2 GS⌉
    double noiseRoom = 60 - levels - Math.log(levels / eps) / Math.log(2);
    int k = (int) Math.min(MAX_GRID_EXPONENT, Math.floor(noiseRoom));
    while (k >= 0 && Math.ceil(Math.scalb(sum.upper(), k)) > Measure.FixedPointSum.MAX_ABS_VALUE) {
      k--;
    }
    if (k < 0) {
      throw new IllegalArgumentException(sum.name() + ": with truncateR2T the per-row upper bound"
          + " must be at most 2^31 and GS·L/ε at most 2^60 (lower truncation_bound or raise"
          + " epsilon)");
    }
    return k;
  }

  private static R2TMechanism mechanism(Query query, double beta, RandomSource random, int k) {
    R2TMechanism.Builder b = R2TMechanism.builder()
        .epsilon(((PureDp) query.budget().loss()).epsilon())
        .globalSensitivity(query.r2tTruncation().getAsLong()).beta(beta).gridExponent(k)
        .groupsPerUnit(query.groupBy().isEmpty() ? 1 : query.maxGroupsContributed());
    if (random != null) {
      b.randomSource(random);
    }
    return b.build();
  }

  /** The mechanism with its randomness, at failure probability β of the one-sided interval. */
  public R2TMechanism mechanism(double beta, RandomSource random) {
    return mechanism(query, beta, random, gridExponent);
  }

  /** The bounding plans: one per threshold (COUNT), in increasing τ, or one in all (SUM). */
  public List<BoundedAggregation> specs() {
    return specs;
  }

  /** The public thresholds τ<sub>1</sub>..τ<sub>L</sub>, in grid units (rows for a COUNT). */
  public long[] thresholds() {
    return thresholds.clone();
  }

  /** k: values and thresholds are integers on the grid 2<sup>−k</sup> (0 for a COUNT). */
  public int gridExponent() {
    return gridExponent;
  }

  /** True for a SUM: one bounding plan whose measures are the thresholds. */
  public boolean onePass() {
    return sum != null;
  }

  /** The only output's name. */
  public String output() {
    return query.aggregations().get(0).name();
  }

  private String what() {
    return sum == null ? "COUNT(*)" : "SUM(" + sum.column() + ")";
  }

  /** What is charged: one mechanism, ε in total (L thresholds at ε/L each, rounded down). */
  public List<MechanismCost> costs() {
    return List.of(new MechanismCost(output(), "R2T truncated " + what() + " at "
        + thresholds.length + " thresholds (the best chosen privately)" + (query.groupBy().isEmpty()
            ? "" : " in each of " + groupKeys().size() + " public groups, L0 = "
            + query.maxGroupsContributed()),
        "R2T (discrete Laplace per threshold)", new PureDp(epsilon)));
  }

  public PureDp total() {
    return new PureDp(epsilon);
  }

  /**
   * The released groups' keys: each listed public group in the query's order, or one empty key
   * without GROUP BY. Public: the output's shape.
   */
  public List<List<Object>> groupKeys() {
    return query.groupBy().isEmpty() ? List.of(List.of()) : query.publicGroups().get();
  }

  /**
   * The exact Q<sub>g</sub>(I, τ<sub>j</sub>) per released group g ({@link #groupKeys}) and
   * threshold j, from the backend's groups of each spec, in the order of {@link #specs()} (COUNT:
   * the j-th spec's row count; SUM: the one spec's j-th sum; saturating). A listed group the
   * backend did not return (no rows) has 0 everywhere; without GROUP BY every group handed back
   * counts (at most one). Total.
   */
  public long[][] exact(List<List<GroupAggregate>> groupsPerSpec) {
    List<List<Object>> keys = groupKeys();
    java.util.Map<List<Object>, Integer> index = new java.util.HashMap<>();
    if (!query.groupBy().isEmpty()) {
      for (int i = 0; i < keys.size(); i++) {
        List<Object> typed = base.releaseKeys().get(i);
        if (typed != null) {
          index.putIfAbsent(GroupKeys.canonical(typed), i);
        }
      }
    }
    long[][] exact = new long[keys.size()][thresholds.length];
    for (int spec = 0; spec < groupsPerSpec.size(); spec++) {
      for (GroupAggregate g : groupsPerSpec.get(spec)) {
        Integer i = query.groupBy().isEmpty() ? Integer.valueOf(0)
            : index.get(GroupKeys.canonical(g.key()));
        if (i == null) {
          continue; // not a listed key (the backend drops those; defensive)
        }
        for (int j = 0; j < thresholds.length; j++) {
          long v = sum == null ? (j == spec ? Math.max(0, g.rows()) : 0)
              : g.sums() == null || g.sums().length <= j ? 0 : Math.max(0, g.sums()[j]);
          exact[i][j] = saturatingAdd(exact[i][j], v);
        }
      }
    }
    return exact;
  }

  /**
   * The exact Q(I, τ<sub>j</sub>) from the backend's groups of the j-th COUNT spec (the row count,
   * summed over the groups handed back, saturating; no rows: 0). Total.
   */
  public static long truncatedCount(List<GroupAggregate> groups) {
    long sum = 0;
    for (GroupAggregate g : groups) {
      sum = saturatingAdd(sum, Math.max(0, g.rows()));
    }
    return sum;
  }

  private static long saturatingAdd(long a, long b) {
    return Long.MAX_VALUE - a < b ? Long.MAX_VALUE : a + b;
  }

  /** Runs R2T's noise, bias and maximum on the exact values (post-charge, total). */
  public TruncationResult release(R2TMechanism m, long[] exact) {
    return m.release(ThresholdAnswers.of(thresholds, exact));
  }

  /** The released value in the column's units: the grid integer times 2<sup>−k</sup>. */
  public double value(TruncationResult r) {
    return Math.scalb((double) r.value(), -gridExponent);
  }

  /** EXPLAIN's lines for the method, thresholds and cost. */
  public List<String> describe(R2TMechanism m) {
    List<String> lines = new ArrayList<>();
    StringBuilder t = new StringBuilder();
    for (int j = 1; j <= m.levels(); j++) {
      // τ_j = 2^(j+k) grid units = 2^j in the column's units (exact).
      t.append(j > 1 ? ", " : "").append(m.threshold(j) >> gridExponent);
    }
    String perGroup = query.groupBy().isEmpty() ? "" : " in each public group (one R2T per"
        + " group; a unit counts in at most L0 = " + query.maxGroupsContributed() + " groups, so"
        + " each threshold's noise is at ε/(" + m.levels() + "·" + query.maxGroupsContributed()
        + "))";
    if (sum == null) {
      lines.add(output() + ": truncation chosen privately by R2T (Dong et al., SIGMOD 2022): each"
          + " unit's rows (over joins: its joined rows) are truncated at τ ∈ {" + t + "} (powers"
          + " of two up to the public bound GS = " + globalSensitivity + "); each truncated count"
          + " gets discrete Laplace noise at ε/" + m.levels() + " (sensitivity τ) minus a public"
          + " bias, and the largest is released" + perGroup + "; ε = " + epsilon + " in total");
      lines.add(output() + ": the answer is biased low: it is at most the true count with"
          + " probability ≥ 1 − β (β = " + m.beta() + "), a one-sided bound only; no interval is"
          + " reported with the value");
    } else {
      lines.add(output() + ": " + sum.column() + " clamped to [" + sum.lower() + ", "
          + sum.upper() + "] per row, fixed point 2^-" + gridExponent + " (NULL/NaN ignored)");
      lines.add(output() + ": truncation chosen privately by R2T (Dong et al., SIGMOD 2022): each"
          + " unit's total of " + sum.column() + " (over joins: over its joined rows) is"
          + " truncated at τ ∈ {" + t + "} (powers of two up to the public bound GS = "
          + globalSensitivity + "); each truncated sum gets discrete Laplace noise at ε/"
          + m.levels() + " (sensitivity τ) minus a public bias, and the largest is released"
          + perGroup + "; ε = " + epsilon + " in total");
      lines.add(output() + ": the answer is biased low: it is at most the true clamped sum with"
          + " probability ≥ 1 − β (β = " + m.beta() + "), a one-sided bound only; no interval is"
          + " reported with the value");
    }
    return lines;
  }

  /** The base compilation at the stand-in L∞ = 1 (its noise kind for EXPLAIN). */
  public CompiledQuery base() {
    return base;
  }
}
