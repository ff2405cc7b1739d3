package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.List;
import org.privet.accounting.Budget;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.engine.Aggregation;
import org.privet.engine.MechanismCost;
import org.privet.engine.Query;
import org.privet.engine.selection.PartitionSelection;
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
 *   <li>COUNT(*): c<sub>u</sub> is unit u's (joined) rows; the j-th measure is a row count
 *       ({@link Measure.FixedPointSum#rowCount}) whose all-rows pair clamp is [0, τ<sub>j</sub>],
 *       so its group sum is Q(I, τ<sub>j</sub>);
 *   <li>SUM(x): c<sub>u</sub> is the sum of unit u's clamped values x ∈ [lower, upper], lower ≥ 0,
 *       as integers on the grid 2<sup>−k</sup>; the j-th measure is a fixed-point sum whose
 *       all-rows pair clamp is [0, τ<sub>j</sub>·2<sup>k</sup>] ({@link Measure.PairClamp}), so
 *       its group sum is Q(I, τ<sub>j</sub>) in grid units.
 * </ul>
 *
 * <p>Either way ONE bounding plan (one backend statement) computes all L thresholds, one measure
 * per threshold; the kept (unit, group) pairs (L0) are the same for every measure, as they were
 * for the one-plan-per-threshold COUNT this replaces (the same salt; L0 does not read L∞).
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

  /** With private groups: the share of ε spent on their selection (public, fixed). */
  public static final double SELECTION_SHARE = 0.1;

  private static boolean privateGroups(Query q) {
    return !q.groupBy().isEmpty() && q.publicGroups().isEmpty();
  }

  /** The budget's ε (pure, or with δ for private groups: Query#truncateR2T admits only those). */
  private static double budgetEpsilon(Query q) {
    return q.budget() instanceof Budget.EpsilonDelta ed ? ed.epsilon()
        : ((Budget.Epsilon) q.budget()).epsilon();
  }

  /** ε_sel = ε·{@value #SELECTION_SHARE}, rounded down (private groups only). */
  static double selectionEpsilon(Query q) {
    double eps = budgetEpsilon(q);
    double e = eps * SELECTION_SHARE;
    while (new java.math.BigDecimal(e).compareTo(new java.math.BigDecimal(eps)
        .multiply(java.math.BigDecimal.valueOf(SELECTION_SHARE))) > 0) {
      e = Math.nextDown(e);
    }
    return e;
  }

  /** R2T's ε: the whole ε, or with private groups ε − ε_sel rounded down (sum ≤ ε exactly). */
  static double r2tEpsilon(Query q) {
    double eps = budgetEpsilon(q);
    if (!privateGroups(q)) {
      return eps;
    }
    double sel = selectionEpsilon(q);
    double e = eps - sel;
    while (new java.math.BigDecimal(e).add(new java.math.BigDecimal(sel))
        .compareTo(new java.math.BigDecimal(eps)) > 0) {
      e = Math.nextDown(e);
    }
    return e;
  }

  private final Query query;
  private final CompiledQuery base;
  private final double epsilon;
  private final long globalSensitivity;
  private final List<BoundedAggregation> specs;
  private final long[] thresholds; // grid units (= rows for a COUNT)
  private final Aggregation.Sum sum; // null for COUNT(*)
  private final int gridExponent;
  private final PartitionSelection selection; // private groups only, else null

  private R2TPass(Query query, CompiledQuery base, List<BoundedAggregation> specs,
      long[] thresholds, Aggregation.Sum sum, int gridExponent) {
    this.query = query;
    this.base = base;
    this.epsilon = r2tEpsilon(query);
    this.selection = privateGroups(query) ? PartitionSelection.optimal(selectionEpsilon(query),
        query.budget().delta(), query.maxGroupsContributed()) : null;
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
    if (s.unitColumn().isEmpty()) {
      throw new IllegalStateException("internal error: R2T needs a unit-level spec");
    }
    Aggregation.Sum sum = query.aggregations().get(0) instanceof Aggregation.Sum a ? a : null;
    int k = sum == null ? 0 : gridExponent(query, sum);
    // The mechanism's own levels and thresholds (public: GS, ε and k only).
    R2TMechanism shape = mechanism(query, 0.05, null, k);
    long[] thresholds = new long[shape.levels()];
    List<Measure> perThreshold = new ArrayList<>();
    for (int j = 1; j <= shape.levels(); j++) {
      thresholds[j - 1] = shape.threshold(j);
      Measure.PairClamp clamp = new Measure.PairClamp(0, thresholds[j - 1], true);
      perThreshold.add(sum == null ? Measure.FixedPointSum.rowCount(s.unitColumn().get(), clamp)
          : new Measure.FixedPointSum(sum.column(), sum.lower(), sum.upper(), k, 0, false, clamp));
    }
    // One pass (L0 as the query says; 1 without groups); L∞ bounds only the counts, which R2T
    // does not read (an all-rows pair clamp sums all of the unit's rows in a group).
    List<BoundedAggregation> specs = List.of(new BoundedAggregation(s.source(), s.filter(),
        s.unitColumn(), s.groupBy(), s.publicGroups(), s.l0(), 1, salt, perThreshold));
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
    double eps = r2tEpsilon(query);
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
        .epsilon(r2tEpsilon(query))
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

  /** The bounding plans: one in all, with one measure per threshold in increasing τ. */
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

  /** The only output's name. */
  public String output() {
    return query.aggregations().get(0).name();
  }

  private String what() {
    return sum == null ? "COUNT(*)" : "SUM(" + sum.column() + ")";
  }

  /**
   * What is charged: with private groups their selection first; then R2T, ε in total (L thresholds
   * at ε/L each, rounded down).
   */
  public List<MechanismCost> costs() {
    List<MechanismCost> out = new ArrayList<>();
    if (selection != null) {
      out.add(new MechanismCost("<groups>", "private partition selection (optimal, Desfontaines et"
          + " al. 2022) on each group's units, L0 = " + query.maxGroupsContributed(),
          "optimal partition selection", selection.privacyLoss()));
    }
    out.add(r2tCost());
    return List.copyOf(out);
  }

  private MechanismCost r2tCost() {
    return new MechanismCost(output(), "R2T truncated " + what() + " at "
        + thresholds.length + " thresholds (the best chosen privately)" + (query.groupBy().isEmpty()
            ? "" : " in each " + (selection == null ? "of " + groupKeys().size() + " public"
            : "selected") + " group, L0 = " + query.maxGroupsContributed()),
        "R2T (discrete Laplace per threshold)", new PureDp(epsilon));
  }

  /** The charge: the composition of {@link #costs()} under the query's budget, rounded up. */
  public PrivacyLoss total() {
    return CompiledQuery.composedCost(query.budget(),
        costs().stream().map(MechanismCost::loss).toList());
  }

  /**
   * The composition of the losses the instantiated mechanisms state (the selection's and {@code
   * m}'s), to check against {@link #total()} before the charge.
   */
  public PrivacyLoss stated(R2TMechanism m) {
    List<PrivacyLoss> parts = new ArrayList<>();
    if (selection != null) {
      parts.add(selection.privacyLoss());
    }
    parts.add(m.privacyLoss());
    return CompiledQuery.composedCost(query.budget(), parts);
  }

  /** The private groups' selection, or null (scalar, or public groups). */
  public PartitionSelection selection() {
    return selection;
  }

  /** One group's key, its kept units (for a private selection) and its exact Q_g(I, τ_j). */
  public record GroupValues(List<Object> key, long units, long[] exact) {}

  /**
   * The released groups' keys when public: each listed public group in the query's order, or one
   * empty key without GROUP BY; null for private groups (the selection decides).
   */
  public List<List<Object>> groupKeys() {
    return query.groupBy().isEmpty() ? List.of(List.of())
        : query.publicGroups().orElse(null);
  }

  /**
   * The exact Q<sub>g</sub>(I, τ<sub>j</sub>) per group g and threshold j, from the backend's
   * groups of each spec, in the order of {@link #specs()} (the one spec's j-th sum; saturating). Public groups ({@link #groupKeys}): every listed key in
   * order, 0 where the backend returned nothing; without GROUP BY every group handed back counts
   * (at most one); private groups: the keys the backend returned (those with a kept unit), in the
   * order first seen, with their kept units. Total.
   */
  public List<GroupValues> exact(List<List<GroupAggregate>> groupsPerSpec) {
    List<List<Object>> keys = groupKeys();
    java.util.Map<List<Object>, Integer> index = new java.util.HashMap<>();
    List<GroupValues> out = new ArrayList<>();
    if (keys != null) {
      for (int i = 0; i < keys.size(); i++) {
        List<Object> typed = query.groupBy().isEmpty() ? List.of() : base.releaseKeys().get(i);
        if (typed != null) {
          index.putIfAbsent(GroupKeys.canonical(typed), i);
        }
        out.add(new GroupValues(keys.get(i), 0, new long[thresholds.length]));
      }
    }
    for (int spec = 0; spec < groupsPerSpec.size(); spec++) {
      for (GroupAggregate g : groupsPerSpec.get(spec)) {
        List<Object> canonical = GroupKeys.canonical(g.key());
        Integer i = query.groupBy().isEmpty() ? Integer.valueOf(0) : index.get(canonical);
        if (i == null && keys == null && g.units() > 0) {
          i = out.size();
          index.put(canonical, i);
          out.add(new GroupValues(g.key(), g.units(), new long[thresholds.length]));
        }
        if (i == null) {
          continue; // a listed group's absent key, or a group without kept units
        }
        long[] exact = out.get(i).exact();
        for (int j = 0; j < thresholds.length; j++) {
          long v = g.sums() == null || g.sums().length <= j ? 0 : Math.max(0, g.sums()[j]);
          exact[j] = saturatingAdd(exact[j], v);
        }
      }
    }
    return out;
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
    String perGroup = query.groupBy().isEmpty() ? "" : " in each " + (selection == null
        ? "public" : "selected") + " group (one R2T per"
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
