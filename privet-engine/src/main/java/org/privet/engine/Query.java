package org.privet.engine;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.Budget;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.engine.budget.BudgetSolver;
import org.privet.engine.budget.DefaultSplit;
import org.privet.engine.compile.AutoBoundsPass;
import org.privet.engine.compile.GroupKeys;
import org.privet.engine.selection.SelectionChoice;

/**
 * An immutable DP aggregate query: what to read, whose privacy is protected, how much each privacy
 * unit may contribute, how to group, what to release and with what budget.
 *
 * <pre>{@code
 * Query q = Query.from(Source.table("salaries"))
 *     .privacyUnit("user_id").maxGroupsContributed(3).maxRowsPerGroup(1)
 *     .groupBy("dept")
 *     .count("n").sum("total", "salary", 0, 200_000).mean("avg_age", "age", 18, 100)
 *     .quantiles("salary_q", "salary", 0, 200_000, 0.5, 0.9)
 *     .budget(Budget.approx(1.0, 1e-6))
 *     .build();
 * }</pre>
 *
 * <p>Neighbouring tables differ by adding or removing all rows of one privacy unit ({@link
 * org.privet.accounting.NeighbouringRelation#ADD_REMOVE_ONE}). The privacy unit is mandatory: a
 * column whose value identifies the person, or {@link Builder#eachRowIsAUnit()}.
 *
 * <p>Without {@link Builder#publicGroups public groups}, grouped queries select the released
 * groups privately (this needs δ &gt; 0: an (ε, δ) budget or a ρ-plus-δ budget {@link
 * Builder#rhoDelta}; Laplace or Gaussian {@link Thresholding}); with them, exactly the listed groups are released, empty
 * ones too, and no δ is spent on selection.
 */
public final class Query {
  /** Smallest accepted budget weight. */
  public static final double MIN_WEIGHT = 1e-6;
  /** Largest accepted budget weight. */
  public static final double MAX_WEIGHT = 1e6;
  /** The stand-in bound ±2^60 of an aggregation declared without bounds (AUTO bounds). */
  static final double AUTO_PLACEHOLDER = 0x1p60;

  private final Source source;
  private final String privacyUnit; // null: each row is a unit
  private final int maxGroupsContributed;
  private final int maxRowsPerGroup;
  private final int maxRowsContributed; // m > 0: at most m rows per unit in total; 0: L0/L∞
  private final List<String> groupBy;
  private final List<List<Object>> publicGroups; // null: private partition selection
  private final Filter filter; // null: all rows
  private final List<Aggregation> aggregations;
  private final Budget budget;
  private final NoiseKind noise;
  private final Map<String, Double> budgetWeights; // explicit weights by output name
  private final double selectionBudgetWeight; // NaN: default
  private final Thresholding thresholding;
  private final boolean postAggregationThresholding;
  private final int minPrivacyUnitsPerGroup; // k ≥ 1: selection sees max(0, units − (k − 1))
  private final AccuracyTargets targets; // null: the budget is given
  private final AutoBounds autoBounds; // null: every bound is given
  private final ContributionBoundEstimate rowsEstimate; // null: L∞ is given
  private final long r2tBound; // 0: no R2T truncation (issue 25)
  // A main pass of an AutoBoundsPass: some clamping bounds are stand-ins, later estimates.
  private final boolean boundsEstimated;
  // Solver-set weights per release, by BudgetSolver#key(output, field); null: not solved.
  private final Map<String, Double> releaseWeights;

  private Query(Builder b) {
    this.source = b.source;
    this.privacyUnit = b.privacyUnit;
    this.maxGroupsContributed = b.maxGroupsContributed;
    this.maxRowsPerGroup = b.maxRowsPerGroup;
    this.maxRowsContributed = b.maxRowsContributed;
    this.groupBy = List.copyOf(b.groupBy);
    this.publicGroups = b.publicGroups == null ? null
        : b.publicGroups.stream()
            .map(k -> java.util.Collections.unmodifiableList(new ArrayList<>(k))).toList();
    this.filter = b.filter;
    this.aggregations = List.copyOf(b.aggregations);
    this.budget = b.budget;
    this.noise = b.noise;
    this.budgetWeights = Collections.unmodifiableMap(new LinkedHashMap<>(b.budgetWeights));
    this.selectionBudgetWeight = b.selectionBudgetWeight;
    this.thresholding = b.thresholding;
    this.postAggregationThresholding = b.postAggregationThresholding;
    this.minPrivacyUnitsPerGroup = b.minPrivacyUnitsPerGroup;
    this.targets = b.targets.isEmpty() ? null : new AccuracyTargets(b.targets,
        b.targetConfidence, b.minCount, b.targetDelta);
    this.autoBounds = b.autoOutputs.isEmpty() ? null : new AutoBounds(b.autoShare,
        b.autoLowerRank, b.autoUpperRank, b.autoOutputs);
    this.rowsEstimate = b.rowsEstimate;
    this.r2tBound = b.r2tBound;
    this.boundsEstimated = false;
    this.releaseWeights = null;
  }

  /** A copy of {@code q} with another budget, noise, weights and targets. */
  private Query(Query q, Budget budget, NoiseKind noise, Map<String, Double> weights,
      double selectionWeight, AccuracyTargets targets, Map<String, Double> releaseWeights) {
    this(q, q.aggregations, budget, noise, weights, selectionWeight, targets, q.autoBounds,
        releaseWeights, q.maxRowsPerGroup);
  }

  /** A copy of {@code q} with the given parts replaced. */
  private Query(Query q, List<Aggregation> aggregations, Budget budget, NoiseKind noise,
      Map<String, Double> weights, double selectionWeight, AccuracyTargets targets,
      AutoBounds autoBounds, Map<String, Double> releaseWeights, int maxRowsPerGroup) {
    this.source = q.source;
    this.privacyUnit = q.privacyUnit;
    this.maxGroupsContributed = q.maxGroupsContributed;
    this.maxRowsPerGroup = maxRowsPerGroup;
    this.maxRowsContributed = q.maxRowsContributed;
    this.rowsEstimate = q.rowsEstimate;
    this.r2tBound = q.r2tBound;
    // Dropping the AUTO bounds (withAggregations) makes this a main pass of an AutoBoundsPass.
    this.boundsEstimated = q.boundsEstimated || (q.autoBounds != null && autoBounds == null);
    this.groupBy = q.groupBy;
    this.publicGroups = q.publicGroups;
    this.filter = q.filter;
    this.aggregations = List.copyOf(aggregations);
    this.budget = budget;
    this.noise = noise;
    this.budgetWeights = Collections.unmodifiableMap(new LinkedHashMap<>(weights));
    this.selectionBudgetWeight = selectionWeight;
    this.thresholding = q.thresholding;
    this.postAggregationThresholding = q.postAggregationThresholding;
    this.minPrivacyUnitsPerGroup = q.minPrivacyUnitsPerGroup;
    this.targets = targets;
    this.autoBounds = autoBounds;
    this.releaseWeights = releaseWeights == null ? null
        : Collections.unmodifiableMap(new LinkedHashMap<>(releaseWeights));
  }

  /**
   * This query with other aggregations (the AUTO bounds replaced), budget and noise, and no AUTO
   * bounds: one pass of an {@link AutoBoundsPass} (package hook). Without explicit weights the
   * pass gets equal weights (one per output), not the {@link DefaultSplit}: the default split
   * reads the clamping bounds, which for the main pass are only known after the charge, and the
   * pass compiled with the estimate must cost exactly what its stand-in compilation charged.
   */
  public Query withAggregations(List<Aggregation> aggregations, Budget budget, NoiseKind noise) {
    Map<String, Double> weights = budgetWeights;
    if (weights.isEmpty()) {
      weights = new LinkedHashMap<>();
      for (Aggregation a : aggregations) {
        weights.put(a.name(), 1.0);
      }
    }
    return new Query(this, aggregations, budget, noise, weights, selectionBudgetWeight, null,
        null, null, maxRowsPerGroup);
  }

  /**
   * This query with another budget, noise and L∞, everything else (AUTO bounds, the estimate
   * flag) kept: the rest of a query whose L∞ is estimated ({@link ContributionBoundPass}), at the
   * stand-in L∞ before the charge and at the estimate after it (package hook).
   */
  Query withContributionBound(Budget budget, NoiseKind noise, int lInf) {
    return new Query(this, aggregations, budget, noise, budgetWeights, selectionBudgetWeight,
        targets, autoBounds, releaseWeights, lInf);
  }

  /**
   * Whether the L∞ estimate may read the pairs' values instead of their row counts ({@link
   * ContributionBoundPass}, {@code docs/proofs/contribution-bound-estimate.md}): one SUM with
   * per-row bounds and no group bounds, no AUTO bounds and no accuracy targets. A public
   * property of the query (package hook).
   */
  boolean pairValuesEstimable() {
    return rowsEstimate != null && privacyUnit != null && aggregations.size() == 1
        && aggregations.get(0) instanceof Aggregation.Sum s && s.perGroup() == null
        && autoBounds == null && targets == null && maxRowsContributed == 0;
  }

  /**
   * The SUMs whose bound the L∞ estimate may read from the pairs' values, each in its own tree
   * ({@link ContributionBoundPass}, {@code docs/proofs/contribution-bound-estimate.md}, "SUMs
   * beside other aggregates"): every SUM with per-row bounds and no group bounds, when no AUTO
   * bounds, accuracy targets or total row cap apply and the SUMs of one column share its per-row
   * bounds (else none): SUMs of one column and bounds have the same pair values, so they share one
   * tree ("Two SUMs of one column"). The other aggregations keep L∞ from the pairs' row counts. A
   * public property of the query text (package hook).
   */
  List<String> sumsEstimableByValue() {
    if (rowsEstimate == null || privacyUnit == null || autoBounds != null || targets != null
        || maxRowsContributed != 0) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    Map<String, Aggregation.Sum> byColumn = new java.util.HashMap<>();
    for (Aggregation a : aggregations) {
      if (a instanceof Aggregation.Sum s && s.perGroup() == null) {
        Aggregation.Sum seen = byColumn.putIfAbsent(s.column(), s);
        if (seen != null && (Double.compare(seen.lower(), s.lower()) != 0
            || Double.compare(seen.upper(), s.upper()) != 0)) {
          return List.of();
        }
        names.add(s.name());
      }
    }
    return List.copyOf(names);
  }

  /**
   * This query with L∞ = {@code lInf} and each SUM named in {@code perSum} clamped per pair, over
   * all its rows, to [L·min(lower, 0), L·max(upper, 0)] with L its own bound (the same
   * sensitivity as L rows in [lower, upper]; package hook).
   *
   * @throws IllegalArgumentException if the group bounds are out of range (public: the bounds)
   */
  Query withSumsClampedPerPair(int lInf, Map<String, Integer> perSum) {
    List<Aggregation> clamped = new ArrayList<>();
    for (Aggregation a : aggregations) {
      Integer l = perSum.get(a.name());
      if (l != null && a instanceof Aggregation.Sum s) {
        clamped.add(new Aggregation.Sum(s.name(), s.column(), s.lower(), s.upper(),
            Aggregation.GroupBounds.ofAllRows((double) l * Math.min(s.lower(), 0),
                (double) l * Math.max(s.upper(), 0))));
      } else {
        clamped.add(a);
      }
    }
    return new Query(this, List.copyOf(clamped), budget, noise, budgetWeights,
        selectionBudgetWeight, targets, autoBounds, releaseWeights, lInf);
  }

  /**
   * This query (one SUM, {@link #pairValuesEstimable}) with L∞ = {@code lInf} and the SUM's
   * per-unit total in a group, over all its rows, clamped to [L∞·min(lower, 0), L∞·max(upper, 0)]
   * (the same sensitivity as L∞ rows in [lower, upper]; package hook).
   *
   * @throws IllegalArgumentException if the group bounds are out of range (public: L∞ and the
   *     query's bounds)
   */
  Query withSumClampedPerPair(int lInf) {
    Aggregation.Sum s = (Aggregation.Sum) aggregations.get(0);
    Aggregation.Sum clamped = new Aggregation.Sum(s.name(), s.column(), s.lower(), s.upper(),
        Aggregation.GroupBounds.ofAllRows((double) lInf * Math.min(s.lower(), 0),
            (double) lInf * Math.max(s.upper(), 0)));
    return new Query(this, List.of(clamped), budget, noise, budgetWeights, selectionBudgetWeight,
        targets, autoBounds, releaseWeights, lInf);
  }

  /**
   * Whether this is the main pass of an {@link AutoBoundsPass} (its AUTO outputs carry stand-in
   * bounds before the charge and estimated ones after it): choices the compiler would otherwise
   * make from the bounds' values (such as which sum an AVG or VARIANCE shares) must then not
   * depend on them, so that both compilations cost the same (engine-internal hook).
   */
  public boolean boundsEstimated() {
    return boundsEstimated;
  }

  /**
   * How L∞ is estimated privately when it was not given ({@link Builder#estimateMaxRowsPerGroup}),
   * or empty when L∞ is given; with an estimate {@link #maxRowsPerGroup()} is the stand-in {@link
   * ContributionBoundEstimate#largestBound()} until the estimate replaces it.
   */
  public Optional<ContributionBoundEstimate> contributionBoundEstimate() {
    return Optional.ofNullable(rowsEstimate);
  }

  /**
   * The public bound GS on one unit's rows when the truncation is chosen privately by R2T
   * ({@link Builder#truncateR2T}), or empty; with it {@link #maxRowsPerGroup()} is a stand-in 1.
   */
  public java.util.OptionalLong r2tTruncation() {
    return r2tBound == 0 ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(r2tBound);
  }

  /**
   * The outputs whose clamping bounds are estimated privately ({@link Builder#autoBounds}), with
   * the share of the budget spent on them, or empty when every bound is given.
   */
  public Optional<AutoBounds> autoBounds() {
    return Optional.ofNullable(autoBounds);
  }

  /**
   * This query given by target errors, with {@code noise} instead (GAUSSIAN: the solver solves for
   * ρ; LAPLACE: for ε). For planners comparing both families.
   *
   * @throws IllegalArgumentException if the query has a budget instead of targets
   */
  public Query withTargetNoise(NoiseKind noise) {
    Objects.requireNonNull(noise, "noise");
    if (targets == null) {
      throw new IllegalArgumentException("withTargetNoise: the query has a budget, not targets");
    }
    return new Query(this, null, noise, budgetWeights, selectionBudgetWeight, targets, null);
  }

  /** The query with the budget and split a {@link BudgetSolver} chose (engine-internal hook). */
  public Query withSolvedBudget(Budget budget, NoiseKind noise, Map<String, Double> weights,
      double selectionWeight) {
    return new Query(this, budget, noise, weights, selectionWeight, null, null);
  }

  /**
   * The query with a budget and split a {@link BudgetSolver} chose: a weight per noisy release,
   * keyed by {@link BudgetSolver#key} of each output reading it and the release's field. A
   * release shared by several outputs (a COUNT(*) that is also an AVG's count, a SUM that is also
   * an AVG's sum) is one measurement, costed once, at the largest weight of its outputs' keys.
   */
  public Query withSolverWeights(Budget budget, NoiseKind noise, Map<String, Double> releaseWeights,
      double selectionWeight) {
    return new Query(this, budget, noise, Map.of(), selectionWeight, null, releaseWeights);
  }

  /** The solver's weights per release (see {@link #withSolverWeights}), or null. */
  public Map<String, Double> releaseWeights() {
    return releaseWeights;
  }

  /**
   * The target errors set with {@link Builder#targetError}, or empty when the query has a budget.
   * Such a query's {@link #budget()} is null until {@link Session#solve} (run and explain call it)
   * finds the smallest budget that meets every target.
   */
  public Optional<AccuracyTargets> targets() {
    return Optional.ofNullable(targets);
  }

  /** Starts a query over {@code source}. */
  public static Builder from(Source source) {
    return new Builder(Objects.requireNonNull(source, "source"));
  }

  /** Starts a query over a table registered with the backend. */
  public static Builder from(String table) {
    return from(Source.table(table));
  }

  public Source source() {
    return source;
  }

  /** The privacy-unit column, or empty when each row is a unit. */
  public Optional<String> privacyUnit() {
    return Optional.ofNullable(privacyUnit);
  }

  /** L0: the most groups one unit may contribute to (1 when each row is a unit). */
  public int maxGroupsContributed() {
    return maxGroupsContributed;
  }

  /** L∞: the most rows one unit may contribute to one group (1 when each row is a unit). */
  public int maxRowsPerGroup() {
    return maxRowsPerGroup;
  }

  /**
   * m &gt; 0 when each unit keeps at most m rows in total over all groups ({@link
   * Builder#maxRowsContributed}; then {@link #maxGroupsContributed()} and {@link
   * #maxRowsPerGroup()} are m too, valid if loose bounds); 0 for L0/L∞ bounding.
   */
  public int maxRowsContributed() {
    return maxRowsContributed;
  }

  public List<String> groupBy() {
    return groupBy;
  }

  /** The public group keys (each a list, one value per group-by column), or empty if private. */
  public Optional<List<List<Object>>> publicGroups() {
    return Optional.ofNullable(publicGroups);
  }

  public Optional<Filter> filter() {
    return Optional.ofNullable(filter);
  }

  public List<Aggregation> aggregations() {
    return aggregations;
  }

  public Budget budget() {
    return budget;
  }

  public NoiseKind noise() {
    return noise;
  }

  /**
   * The budget weights set explicitly with {@link Builder#budgetWeight}, by output name. An
   * aggregation without one weighs as many shares as it has noisy releases (COUNT, SUM, HISTOGRAM
   * 1; MEAN 2; VARIANCE/STDDEV 3; QUANTILES 1 as a tree, one per rank by the exponential
   * mechanism).
   */
  public Map<String, Double> budgetWeights() {
    return budgetWeights;
  }

  /** The weight of private partition selection (default 1), if set. */
  public OptionalDouble selectionBudgetWeight() {
    return Double.isNaN(selectionBudgetWeight) ? OptionalDouble.empty()
        : OptionalDouble.of(selectionBudgetWeight);
  }

  /**
   * True when COUNT(DISTINCT unit) outputs release partition selection's own noisy unit count
   * (see {@link Builder#postAggregationThresholding()}).
   */
  public boolean postAggregationThresholding() {
    return postAggregationThresholding;
  }

  /** The requested partition-selection thresholding (AUTO unless overridden). */
  public Thresholding thresholding() {
    return thresholding;
  }

  /**
   * k of {@link Builder#minPrivacyUnitsPerGroup}: private group selection runs on max(0, units −
   * (k − 1)), so no group of fewer than k units is released (1: the plain selection).
   */
  public int minPrivacyUnitsPerGroup() {
    return minPrivacyUnitsPerGroup;
  }

  /** True when groups are chosen by DP partition selection. */
  public boolean usesPrivatePartitionSelection() {
    return !groupBy.isEmpty() && publicGroups == null;
  }

  /** A one-line description (names, bounds and budget; never data values). */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("Query[source=").append(describe(source));
    s.append(", unit=").append(privacyUnit == null ? "<each row>" : privacyUnit);
    s.append(", L0=").append(maxGroupsContributed).append(", Linf=").append(maxRowsPerGroup);
    if (maxRowsContributed > 0) {
      s.append(", maxRowsContributed=").append(maxRowsContributed);
    }
    if (!groupBy.isEmpty()) {
      s.append(", groupBy=").append(groupBy);
      s.append(publicGroups == null ? ", private groups" : ", " + publicGroups.size() + " public groups");
      if (minPrivacyUnitsPerGroup > 1) {
        s.append(", minUnits=").append(minPrivacyUnitsPerGroup);
      }
    }
    if (filter != null) {
      s.append(", filtered");
    }
    s.append(", aggregations=").append(aggregations.stream().map(Aggregation::name).toList());
    if (!budgetWeights.isEmpty()) {
      s.append(", budgetWeights=").append(budgetWeights);
    }
    if (!Double.isNaN(selectionBudgetWeight)) {
      s.append(", selectionBudgetWeight=").append(selectionBudgetWeight);
    }
    if (releaseWeights != null) {
      s.append(", solvedReleaseWeights=").append(releaseWeights);
    }
    s.append(", budget ").append(budget == null ? "<solved from targets>" : budget)
        .append(", noise=").append(noise);
    if (thresholding != Thresholding.AUTO) {
      s.append(", thresholding=").append(thresholding);
    }
    if (postAggregationThresholding) {
      s.append(", postAggregationThresholding");
    }
    if (targets != null) {
      s.append(", ").append(targets);
    }
    if (r2tBound != 0) {
      s.append(", truncation R2T (GS ").append(r2tBound).append(')');
    }
    if (rowsEstimate != null) {
      s.append(", Linf estimated (share ").append(rowsEstimate.share()).append(", confidence ")
          .append(rowsEstimate.confidence())
          .append(rowsEstimate.maxExponent() < ContributionBoundEstimate.MAX_EXPONENT
              ? ", at most " + rowsEstimate.largestBound() : "").append(')');
    }
    if (autoBounds != null) {
      s.append(", autoBounds=").append(autoBounds.outputs().keySet()).append(" (share ")
          .append(autoBounds.share()).append(", ranks ").append(autoBounds.lowerRank())
          .append('/').append(autoBounds.upperRank()).append(')');
    }
    s.append(']');
    return s.toString();
  }

  static String describe(Source src) {
    if (src instanceof Source.Typed t) {
      return describe(t.file());
    } else if (src instanceof Source.Relational r) {
      return "plan:" + r.relation().describe();
    } else if (src instanceof Source.Table t) {
      return t.name();
    } else if (src instanceof Source.CsvFile c) {
      return "csv:" + c.path().getFileName();
    }
    return "parquet:" + ((Source.ParquetFile) src).path().getFileName();
  }

  /** Fluent builder; setters reject bad values at once, {@link #build()} rejects conflicts. */
  public static final class Builder {
    private final Source source;
    private String privacyUnit;
    private boolean eachRow;
    private int maxGroupsContributed;
    private int maxRowsPerGroup;
    private int maxRowsContributed;
    // L0 and L∞ were set to maxRowsContributed by an earlier build() (targets build twice).
    private boolean rowsCapApplied;
    private final List<String> groupBy = new ArrayList<>();
    private List<List<Object>> publicGroups;
    private Filter filter;
    private final List<Aggregation> aggregations = new ArrayList<>();
    private Budget budget;
    private NoiseKind noise = NoiseKind.AUTO;
    private final Map<String, Double> budgetWeights = new LinkedHashMap<>();
    private double selectionBudgetWeight = Double.NaN;
    private Thresholding thresholding = Thresholding.AUTO;
    private int minPrivacyUnitsPerGroup = 1;
    private boolean postAggregationThresholding;
    private final Map<String, Double> targets = new LinkedHashMap<>();
    private double targetConfidence = AccuracyTargets.DEFAULT_CONFIDENCE;
    private long minCount;
    private double targetDelta;
    private final Map<String, AutoBounds.Grid> autoOutputs = new LinkedHashMap<>();
    private double autoShare = AutoBounds.DEFAULT_SHARE;
    private double autoLowerRank = AutoBounds.DEFAULT_LOWER_RANK;
    private double autoUpperRank = AutoBounds.DEFAULT_UPPER_RANK;
    private ContributionBoundEstimate rowsEstimate;
    private long r2tBound;

    private Builder(Source source) {
      this.source = source;
    }

    /** The column identifying the privacy unit (user-level DP). Rows with a NULL unit are dropped. */
    public Builder privacyUnit(String column) {
      this.privacyUnit = Names.requireIdentifier("privacyUnit", column);
      return this;
    }

    /** Each row is its own privacy unit (row-level DP); L0 and L∞ are then 1. */
    public Builder eachRowIsAUnit() {
      this.eachRow = true;
      return this;
    }

    /** L0: most groups one unit contributes to; beyond it, groups are sampled per unit. */
    public Builder maxGroupsContributed(int l0) {
      if (l0 < 1 || l0 > 1_000_000) {
        throw new IllegalArgumentException("maxGroupsContributed must be in [1, 1000000], was " + l0);
      }
      this.maxGroupsContributed = l0;
      this.rowsCapApplied = false;
      return this;
    }

    /** L∞: most rows one unit contributes to one group; beyond it, contributions are scaled down. */
    public Builder maxRowsPerGroup(int lInf) {
      if (lInf < 1 || lInf > 1_000_000) {
        throw new IllegalArgumentException("maxRowsPerGroup must be in [1, 1000000], was " + lInf);
      }
      this.maxRowsPerGroup = lInf;
      this.rowsCapApplied = false;
      return this;
    }

    /**
     * ZetaSQL's {@code max_rows_contributed}: each unit keeps at most m rows in total, over all
     * groups (its groups in salted-hash order until the m rows are used up, so at most m groups),
     * instead of L0 groups × L∞ rows per group. Sensitivities are then those of m rows in all: a
     * count's L1 and L2 are m, not L0·L∞ ({@code docs/proofs/rows-contributed.md}). Needs a
     * {@link #privacyUnit} column; excludes {@link #maxGroupsContributed}, {@link
     * #maxRowsPerGroup}, {@link #estimateMaxRowsPerGroup} and {@link #truncateR2T}.
     *
     * @param m at least 1, at most 10^6
     */
    public Builder maxRowsContributed(int m) {
      if (m < 1 || m > 1_000_000) {
        throw new IllegalArgumentException("maxRowsContributed must be in [1, 1000000], was " + m);
      }
      this.maxRowsContributed = m;
      this.rowsCapApplied = false;
      return this;
    }

    /**
     * L∞ estimated privately instead of given (ZetaSQL's default contribution: every row of a
     * unit counts, up to a bound computed privately): {@link ContributionBoundEstimate#defaults()}.
     * Excludes {@link #maxRowsPerGroup}.
     */
    public Builder estimateMaxRowsPerGroup() {
      return estimateMaxRowsPerGroup(ContributionBoundEstimate.defaults());
    }

    /** As {@link #estimateMaxRowsPerGroup()}, with its share of the budget and rank. */
    public Builder estimateMaxRowsPerGroup(ContributionBoundEstimate estimate) {
      this.rowsEstimate = Objects.requireNonNull(estimate, "estimateMaxRowsPerGroup");
      return this;
    }

    /**
     * The truncation chosen privately by R2T (Dong, Fang, Yi, Tao, Machanavajjhala, SIGMOD 2022)
     * instead of a given L∞: for one COUNT(*) or SUM, scalar or grouped (each unit in at most
     * {@link #maxGroupsContributed} groups, R2T per group at ε/L0) by {@link #publicGroups}, with a
     * pure-ε budget, or by private groups with an (ε, δ) budget (ε/10 and δ for their selection);
     * one
     * unit's contribution (over joins: its joined rows, or the sum of their clamped values) is
     * truncated at τ<sub>j</sub> = 2<sup>j</sup>, j = 1..⌈log₂ GS⌉, and the best noisy,
     * bias-corrected answer is released (see {@code docs/proofs/r2t-truncation.md}). A SUM needs
     * per-row bounds with lower ≥ 0 and no per-group bounds. Excludes {@link #maxRowsPerGroup} and
     * {@link #estimateMaxRowsPerGroup}.
     *
     * @param globalSensitivity GS, the public bound on one unit's contribution that fixes how many
     *     thresholds are tried, in [2, 2^40] (a COUNT: rows, at most 2^20; a SUM: the column's
     *     units)
     */
    public Builder truncateR2T(long globalSensitivity) {
      if (globalSensitivity < 2 || globalSensitivity > (1L << 40)) {
        throw new IllegalArgumentException("truncateR2T: the global sensitivity bound must be in "
            + "[2, 2^40], was " + globalSensitivity);
      }
      this.r2tBound = globalSensitivity;
      return this;
    }

    public Builder groupBy(String... columns) {
      for (String c : columns) {
        groupBy.add(Names.requireIdentifier("groupBy", c));
      }
      return this;
    }

    /** Public group keys, each a list with one value per group-by column. */
    public Builder publicGroups(List<? extends List<?>> keys) {
      Objects.requireNonNull(keys, "publicGroups");
      List<List<Object>> copy = new ArrayList<>();
      for (List<?> k : keys) {
        if (k == null || k.isEmpty()) {
          throw new IllegalArgumentException("publicGroups keys must not be empty");
        }
        for (Object v : k) {
          requireKeyValue(v);
        }
        copy.add(new ArrayList<>(k));
      }
      // Canonical values: 1, 1L, 1.0 and 1.00 name one group, which must not be listed (and
      // released with fresh noise) twice for one charge (issue 10, item 5). The compiler checks
      // again on the keys typed for their columns.
      Set<List<Object>> seen = new HashSet<>();
      for (List<Object> k : copy) {
        if (!seen.add(GroupKeys.canonical(k))) {
          throw new IllegalArgumentException("publicGroups must not repeat a key (keys are "
              + "compared as values: 1, 1L, 1.0 and 1.00 are the same key)");
        }
      }
      this.publicGroups = copy;
      return this;
    }

    /** Public group keys for a single group-by column. */
    public Builder publicGroups(Object... singleColumnKeys) {
      List<List<Object>> keys = new ArrayList<>();
      for (Object k : singleColumnKeys) {
        keys.add(Arrays.asList(k));
      }
      return publicGroups(keys);
    }

    /** Restricts the rows (applied before bounding). Several calls are combined with AND. */
    public Builder where(Filter f) {
      Objects.requireNonNull(f, "filter");
      this.filter = filter == null ? f : Filter.and(filter, f);
      return this;
    }

    public Builder aggregate(Aggregation a) {
      aggregations.add(Objects.requireNonNull(a, "aggregation"));
      return this;
    }

    public Builder count() {
      return count("count");
    }

    public Builder count(String name) {
      return aggregate(new Aggregation.Count(name));
    }

    public Builder countDistinctUnits(String name) {
      return aggregate(new Aggregation.CountDistinctUnits(name));
    }

    public Builder sum(String column, double lower, double upper) {
      return sum("sum_" + column, column, lower, upper);
    }

    public Builder sum(String name, String column, double lower, double upper) {
      return aggregate(new Aggregation.Sum(name, column, lower, upper));
    }

    /**
     * A sum whose rows are clamped to [lower, upper] and each unit's total in a group to {@code
     * perGroup} ({@link Aggregation.GroupBounds#of} or {@link Aggregation.GroupBounds#ofAllRows}).
     */
    public Builder sum(String name, String column, double lower, double upper,
        Aggregation.GroupBounds perGroup) {
      return aggregate(new Aggregation.Sum(name, column, lower, upper,
          Objects.requireNonNull(perGroup, "perGroup")));
    }

    /** A mean whose rows are clamped to [lower, upper] and each unit's sum in a group too. */
    public Builder mean(String name, String column, double lower, double upper,
        Aggregation.GroupBounds perGroup) {
      return aggregate(new Aggregation.Mean(name, column, lower, upper,
          Objects.requireNonNull(perGroup, "perGroup")));
    }

    public Builder mean(String column, double lower, double upper) {
      return mean("mean_" + column, column, lower, upper);
    }

    public Builder mean(String name, String column, double lower, double upper) {
      return aggregate(new Aggregation.Mean(name, column, lower, upper));
    }

    /** A sum of {@code column} whose clamping bounds are estimated privately ({@link #autoBounds}). */
    public Builder sum(String name, String column) {
      return autoBounded(new Aggregation.Sum(name, column, -AUTO_PLACEHOLDER, AUTO_PLACEHOLDER));
    }

    /** A mean of {@code column} whose clamping bounds are estimated privately. */
    public Builder mean(String name, String column) {
      return autoBounded(new Aggregation.Mean(name, column, -AUTO_PLACEHOLDER, AUTO_PLACEHOLDER));
    }

    /** A variance of {@code column} whose clamping bounds are estimated privately. */
    public Builder variance(String name, String column) {
      return autoBounded(new Aggregation.Variance(name, column, -AUTO_PLACEHOLDER,
          AUTO_PLACEHOLDER));
    }

    /** A standard deviation of {@code column} whose clamping bounds are estimated privately. */
    public Builder stddev(String name, String column) {
      return autoBounded(new Aggregation.StdDev(name, column, -AUTO_PLACEHOLDER,
          AUTO_PLACEHOLDER));
    }

    private Builder autoBounded(Aggregation a) {
      aggregate(a);
      return autoBounds(a.name());
    }

    /**
     * Estimates the clamping bounds of output {@code output} (a SUM, MEAN, VARIANCE or STDDEV)
     * privately instead of using its declared ones (BigQuery's {@code contribution_bounds_per_row
     * => AUTO}, Google's {@code ApproxBounds}): {@link #autoBoundsShare} of the budget buys a
     * noisy quantile tree of the column on a sign-symmetric power-of-two grid (±2^-32 … ±2^60),
     * whose {@link #autoBoundsRanks} quantiles, rounded outward to grid edges, become the bounds.
     * One global estimate per column (not per group); released with the answer ({@link
     * Result#bounds()}). See {@link AutoBounds}.
     */
    public Builder autoBounds(String output) {
      return putAuto(output, AutoBounds.Grid.logScale());
    }

    /**
     * As {@link #autoBounds(String)}, on {@link AutoBounds.Grid#LINEAR_CELLS} equal cells over a
     * public range every value is known to lie in (e.g. the registered schema's bounds).
     */
    public Builder autoBounds(String output, double publicLower, double publicUpper) {
      return putAuto(output, AutoBounds.Grid.linear(publicLower, publicUpper));
    }

    private Builder putAuto(String output, AutoBounds.Grid grid) {
      Names.requireIdentifier("autoBounds output", output);
      if (autoOutputs.putIfAbsent(output, grid) != null) {
        throw new IllegalArgumentException("autoBounds for '" + output + "' is set twice");
      }
      return this;
    }

    /** The fraction of the budget spent estimating AUTO bounds, in [0.001, 0.9] (default 0.1). */
    public Builder autoBoundsShare(double share) {
      AutoBounds.requireShare(share);
      this.autoShare = share;
      return this;
    }

    /**
     * The ranks whose noisy quantiles give the AUTO bounds: lower in [0, 0.5), upper in (0.5, 1]
     * (default 0.01 and 0.99).
     */
    public Builder autoBoundsRanks(double lower, double upper) {
      AutoBounds.requireRanks(lower, upper);
      this.autoLowerRank = lower;
      this.autoUpperRank = upper;
      return this;
    }

    public Builder variance(String name, String column, double lower, double upper) {
      return aggregate(new Aggregation.Variance(name, column, lower, upper));
    }

    public Builder stddev(String name, String column, double lower, double upper) {
      return aggregate(new Aggregation.StdDev(name, column, lower, upper));
    }

    /** Quantiles by the quantile tree (value intervals; one budget share for all ranks). */
    /** Quantiles of {@code column} at {@code ranks}, named {@code quantiles_<column>[rank]}. */
    public Builder quantiles(String column, double lower, double upper, double... ranks) {
      return quantiles("quantiles_" + column, column, lower, upper, ranks);
    }

    public Builder quantiles(String name, String column, double lower, double upper,
        double... ranks) {
      return quantiles(name, column, lower, upper, Aggregation.Quantiles.Method.TREE, ranks);
    }

    /** Quantiles by the given method (see {@link Aggregation.Quantiles.Method}). */
    public Builder quantiles(String name, String column, double lower, double upper,
        Aggregation.Quantiles.Method method, double... ranks) {
      return aggregate(Aggregation.Quantiles.of(name, column, lower, upper, method, ranks));
    }

    public Builder histogram(String name, String column, double lower, double upper, int bins) {
      return aggregate(new Aggregation.Histogram(name, column, lower, upper, bins));
    }

    public Builder budget(Budget b) {
      this.budget = Objects.requireNonNull(b, "budget");
      return this;
    }

    public Builder epsilon(double epsilon) {
      return budget(Budget.pure(epsilon));
    }

    public Builder epsilonDelta(double epsilon, double delta) {
      return budget(Budget.approx(epsilon, delta));
    }

    /** A pure ρ-zCDP budget (private partition selection then needs {@link #rhoDelta}). */
    public Builder rho(double rho) {
      return budget(Budget.zcdp(rho));
    }

    /**
     * Gives the aggregation named {@code output} {@code weight} shares of the budget (PipelineDP's
     * {@code budget_weight}). Shares are relative: each part's fraction is its weight over the sum
     * of all weights (selection included). Default: one share per noisy release of the
     * aggregation. A multi-release aggregation splits its shares evenly over its releases.
     *
     * @throws IllegalArgumentException if the weight is not positive and finite (within [1e-6,
     *     1e6]), or is set twice for the same output
     */
    public Builder budgetWeight(String output, double weight) {
      Names.requireIdentifier("budgetWeight output", output);
      requireWeight("budgetWeight for '" + output + "'", weight);
      if (budgetWeights.putIfAbsent(output, weight) != null) {
        throw new IllegalArgumentException("budgetWeight for '" + output + "' is set twice");
      }
      return this;
    }

    /**
     * Gives private partition selection {@code weight} shares of the budget (default 1; see
     * {@link #budgetWeight}). Only for queries that select groups privately.
     */
    public Builder selectionBudgetWeight(double weight) {
      requireWeight("selectionBudgetWeight", weight);
      this.selectionBudgetWeight = weight;
      return this;
    }

    private static void requireWeight(String parameter, double weight) {
      if (!(weight >= MIN_WEIGHT && weight <= MAX_WEIGHT)) {
        throw new IllegalArgumentException(parameter + " must be positive and finite, in [1e-6, "
            + "1e6], was " + weight);
      }
    }

    /** A δ-approximate ρ-zCDP budget: ρ for the releases, δ for private partition selection. */
    public Builder rhoDelta(double rho, double delta) {
      return budget(Budget.zcdp(rho, delta));
    }

    public Builder noise(NoiseKind kind) {
      this.noise = Objects.requireNonNull(kind, "noise");
      return this;
    }

    /**
     * Forces post-aggregation thresholding (which {@link Thresholding#AUTO} also chooses where it
     * needs fewer units than the alternatives): every {@link #countDistinctUnits} output, and
     * every {@link #count} output at maxRowsPerGroup = 1 (then a count of distinct units), is
     * released as the noisy unit count that private partition selection already thresholded, at
     * no extra cost (as PipelineDP's post-aggregation thresholding): the released set and counts
     * are one post-processing of the selection's noisy counts. Because only counts at or above the
     * threshold τ are shown, small groups' counts are biased upward; the interval covers the
     * selection noise, not that bias. Needs private partition selection and a countDistinctUnits
     * aggregation.
     */
    public Builder postAggregationThresholding() {
      this.postAggregationThresholding = true;
      return this;
    }

    /**
     * Asks for the smallest budget under which output {@code output}'s error is at most {@code
     * halfWidth} (in output units) with probability {@link #targetConfidence}: the half-width of
     * its confidence interval. The query then takes no budget: {@link Session#solve} finds the
     * smallest ε (ρ with GAUSSIAN noise) and the split meeting every target, from public
     * information only (docs/proofs/accuracy-targets.md). Every output needs a target. For a HISTOGRAM the
     * target applies to every bin; a MEAN also needs {@link #minCount}; for tree QUANTILES it bounds
     * each rank's error in rows (see {@code BudgetSolver}).
     *
     * @throws IllegalArgumentException if halfWidth is not positive and finite, or set twice
     */
    public Builder targetError(String output, double halfWidth) {
      Names.requireIdentifier("targetError output", output);
      if (!(halfWidth > 0) || Double.isInfinite(halfWidth)) {
        throw new IllegalArgumentException("targetError for '" + output
            + "' must be a finite number > 0, was " + halfWidth);
      }
      if (targets.putIfAbsent(output, halfWidth) != null) {
        throw new IllegalArgumentException("targetError for '" + output + "' is set twice");
      }
      return this;
    }

    /** The confidence level of the target errors, in (0, 1) (default 0.95). */
    public Builder targetConfidence(double level) {
      if (!(level > 0 && level < 1)) {
        throw new IllegalArgumentException("targetConfidence must be in (0, 1), was " + level);
      }
      this.targetConfidence = level;
      return this;
    }

    /**
     * A public lower bound on the number of (bounded, non-null) rows in every released group,
     * which target errors on data-dependent outputs (a MEAN's denominator) need. It is the
     * user's assertion about public knowledge: it is never checked against the data (that would
     * leak), and if it is false only the accuracy statement fails, never privacy.
     */
    public Builder minCount(long n) {
      if (n < 1 || n > 1L << 53) {
        throw new IllegalArgumentException("minCount must be in [1, 2^53], was " + n);
      }
      this.minCount = n;
      return this;
    }

    /**
     * The δ of the solved budget (default 0: a pure ε budget, or pure ρ with GAUSSIAN noise);
     * private partition selection needs δ &gt; 0.
     */
    public Builder targetDelta(double delta) {
      if (!(delta >= 0 && delta < 1)) {
        throw new IllegalArgumentException("targetDelta must be in [0, 1), was " + delta);
      }
      this.targetDelta = delta;
      return this;
    }

    /** Overrides the partition-selection thresholding (default {@link Thresholding#AUTO}). */
    public Builder thresholding(Thresholding kind) {
      this.thresholding = Objects.requireNonNull(kind, "thresholding");
      return this;
    }

    /**
     * ZetaSQL's {@code min_privacy_units_per_group}: private group selection runs on the shifted
     * unit count max(0, units − (k − 1)) (Google's pre-thresholding), so a group with fewer than
     * k privacy units is never released, and one with n ≥ k units is released as the plain
     * selection would release one with n − k + 1. The shift is 1-Lipschitz and maps 0 to 0, so
     * the selection's guarantee is unchanged (docs/proofs/min-privacy-units.md). Only with
     * private group selection (GROUP BY without public groups), not with SET_UNION.
     *
     * @param k at least 1 (1: no change), at most 10^6
     */
    public Builder minPrivacyUnitsPerGroup(int k) {
      if (k < 1 || k > 1_000_000) {
        throw new IllegalArgumentException("minPrivacyUnitsPerGroup must be in [1, 1000000], was "
            + k);
      }
      this.minPrivacyUnitsPerGroup = k;
      return this;
    }

    /** R2T's refusals, from public parameters only (before any charge). */
    private void checkR2T() {
      if (maxRowsPerGroup != 0 || rowsEstimate != null) {
        throw new IllegalArgumentException("truncateR2T conflicts with " + (rowsEstimate != null
            ? "estimateMaxRowsPerGroup" : "maxRowsPerGroup") + ": R2T chooses the truncation");
      }
      if (groupBy.isEmpty() && maxGroupsContributed > 1) {
        throw new IllegalArgumentException("truncateR2T: maxGroupsContributed above 1 needs a"
            + " groupBy");
      }
      boolean privateGroups = !groupBy.isEmpty() && publicGroups == null;
      if (privateGroups && !(budget instanceof Budget.EpsilonDelta ed && ed.delta() > 0)) {
        throw new IllegalArgumentException("truncateR2T with groupBy needs publicGroups, or an"
            + " (ε, δ) budget with δ > 0 for private partition selection");
      }
      if (minPrivacyUnitsPerGroup > 1 || thresholding != Thresholding.AUTO) {
        throw new IllegalArgumentException("truncateR2T conflicts with "
            + (minPrivacyUnitsPerGroup > 1 ? "minPrivacyUnitsPerGroup" : "thresholding")
            + " (R2T's private groups use optimal partition selection)");
      }
      if (!groupBy.isEmpty() && maxGroupsContributed == 0) {
        throw new IllegalArgumentException("maxGroupsContributed is required when grouping with"
            + " truncateR2T");
      }
      if (aggregations.size() != 1 || !(aggregations.get(0) instanceof Aggregation.Count
          || aggregations.get(0) instanceof Aggregation.Sum)) {
        throw new IllegalArgumentException("truncateR2T supports exactly one COUNT(*) or SUM "
            + "aggregation; was " + aggregations.stream().map(a -> a.getClass().getSimpleName()
            + " " + a.name()).toList());
      }
      if (aggregations.get(0) instanceof Aggregation.Count && r2tBound > (1L << 20)) {
        throw new IllegalArgumentException("truncateR2T: a COUNT's bound (rows per unit) must be"
            + " at most 2^20, was " + r2tBound);
      }
      if (aggregations.get(0) instanceof Aggregation.Sum sum
          && (sum.perGroup() != null || !(sum.lower() >= 0))) {
        throw new IllegalArgumentException("truncateR2T: SUM " + sum.name() + " needs per-row "
            + "bounds with lower ≥ 0 and no per-group bounds (R2T truncates each unit's "
            + "non-negative total itself)");
      }
      if (!targets.isEmpty() || !autoOutputs.isEmpty() || postAggregationThresholding) {
        throw new IllegalArgumentException("truncateR2T conflicts with "
            + (!targets.isEmpty() ? "targetError" : !autoOutputs.isEmpty() ? "autoBounds"
            : "post-aggregation thresholding"));
      }
      if (budget == null || !(budget.loss() instanceof PureDp || privateGroups)) {
        throw new IllegalArgumentException("truncateR2T needs a pure-ε budget (R2T is ε-DP; δ only"
            + " with private groups, for their selection)");
      }
    }

    /**
     * Over a relation with unit caps ({@link org.privet.engine.plan.Relation.UnitCap}, a private
     * self-join, issue 25), the query's truncation stays within the smallest cap m, as DP SQL
     * chooses its caps ({@code docs/proofs/r2t-truncation.md}, "Self-joins"): a unit keeps at
     * most L rows with L ≤ m, so a capped copy still holds every row the truncation would keep.
     * {@link #maxRowsContributed}, L0·L∞ and R2T's L0·2^⌈log2 GS⌉ above m are refused (never
     * clipped: a cap below the truncation would silently under-count heavy units), and so is R2T
     * over a SUM (the cap is in rows, a SUM's thresholds in the column's units); the L∞ estimate's
     * read is limited to the largest 2^e with L0·2^e ≤ m ({@link
     * ContributionBoundEstimate#withMaxExponent}; {@code
     * docs/proofs/contribution-bound-estimate.md}, "A limited read"). Public: m is in the plan.
     */
    private void checkUnitCaps() {
      if (!(source instanceof Source.Relational r)) {
        return;
      }
      long m = org.privet.engine.plan.Relation.UnitCap.smallestIn(r.relation());
      if (m == 0) {
        return;
      }
      String why = " rows per unit, above the relation's smallest unit cap (UnitCap maxRows = " + m
          + "): a capped side must still hold every row the truncation keeps";
      long l0 = Math.max(1, maxGroupsContributed);
      if (maxRowsContributed > 0) {
        if (maxRowsContributed > m) {
          throw new IllegalArgumentException("maxRowsContributed = " + maxRowsContributed
              + " keeps up to " + maxRowsContributed + why + "; give maxRowsContributed ≤ " + m);
        }
        return;
      }
      if (r2tBound != 0) {
        if (aggregations.stream().anyMatch(a -> a instanceof Aggregation.Sum)) {
          throw new IllegalArgumentException("truncateR2T over a relation with unit caps supports"
              + " count() only: the cap per unit is in rows, and a SUM's thresholds are in the"
              + " column's units");
        }
        refuseGroupsAboveCap(l0, 2, m, why);
        long kept = org.privet.engine.plan.Relation.UnitCap.rowsKeptByR2T(l0, r2tBound);
        if (kept > m) {
          throw new IllegalArgumentException("truncateR2T = " + r2tBound + " keeps up to L0·2^⌈log2"
              + " GS⌉ = " + kept + why + "; give truncateR2T ≤ " + Long.highestOneBit(m / l0));
        }
        return;
      }
      if (rowsEstimate != null) {
        refuseGroupsAboveCap(l0, 1, m, why);
        rowsEstimate = rowsEstimate.withMaxExponent(org.privet.engine.plan.Relation.UnitCap
            .largestExponentWithin(m, l0, ContributionBoundEstimate.MAX_EXPONENT));
        return;
      }
      if (maxRowsPerGroup > 0 && l0 * maxRowsPerGroup > m) {
        refuseGroupsAboveCap(l0, 1, m, why);
        throw new IllegalArgumentException("maxRowsPerGroup = " + maxRowsPerGroup + " keeps up to"
            + " L0·L∞ = " + l0 + "·" + maxRowsPerGroup + " = " + (l0 * maxRowsPerGroup) + why
            + "; give maxGroupsContributed · maxRowsPerGroup ≤ " + m);
      }
    }

    /** Refuses an L0 whose least truncation (L0 · {@code least} rows) is already above m. */
    private static void refuseGroupsAboveCap(long l0, long least, long m, String why) {
      if (l0 * least > m) {
        throw new IllegalArgumentException("maxGroupsContributed = " + l0 + " keeps at least "
            + (l0 * least) + why + "; give maxGroupsContributed ≤ " + m / least);
      }
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException naming the missing or conflicting parameter
     */
    public Query build() {
      if (r2tBound != 0 && eachRow) {
        throw new IllegalArgumentException("truncateR2T needs a privacyUnit column (each row as a"
            + " unit has one row per unit)");
      }
      if (privacyUnit == null && !eachRow) {
        throw new IllegalArgumentException(
            "privacyUnit is required: name the unit column or call eachRowIsAUnit()");
      }
      if (privacyUnit != null && eachRow) {
        throw new IllegalArgumentException("privacyUnit conflicts with eachRowIsAUnit()");
      }
      if (maxRowsContributed > 0) {
        if (eachRow) {
          throw new IllegalArgumentException("maxRowsContributed needs a privacyUnit column (each"
              + " row as a unit has one row per unit)");
        }
        if (!rowsCapApplied && (maxGroupsContributed != 0 || maxRowsPerGroup != 0)) {
          throw new IllegalArgumentException("maxRowsContributed conflicts with "
              + (maxGroupsContributed != 0 ? "maxGroupsContributed" : "maxRowsPerGroup")
              + ": it bounds a unit's rows over all groups itself");
        }
        if (rowsEstimate != null || r2tBound != 0) {
          throw new IllegalArgumentException("maxRowsContributed conflicts with "
              + (rowsEstimate != null ? "estimateMaxRowsPerGroup" : "truncateR2T")
              + ": it is the bound on a unit's rows");
        }
        // Both hold (a unit keeps at most m groups and at most m rows in any one): every reader
        // of L0 or L∞ stays sound; the compiler's value sensitivities use the total m.
        maxGroupsContributed = maxRowsContributed;
        maxRowsPerGroup = maxRowsContributed;
        rowsCapApplied = true;
      }
      if (eachRow) {
        if (maxGroupsContributed > 1 || maxRowsPerGroup > 1) {
          throw new IllegalArgumentException(
              "maxGroupsContributed/maxRowsPerGroup must be 1 (or unset) when each row is a unit");
        }
        maxGroupsContributed = 1;
        maxRowsPerGroup = 1;
      } else {
        if (r2tBound != 0) {
          checkR2T();
        }
        checkUnitCaps();
        if (r2tBound != 0) {
          maxRowsPerGroup = 1; // stand-in: R2T runs one pass per threshold
        }
        if (rowsEstimate != null) {
          if (maxRowsPerGroup != 0) {
            throw new IllegalArgumentException("estimateMaxRowsPerGroup conflicts with "
                + "maxRowsPerGroup: give L∞ or have it estimated");
          }
          maxRowsPerGroup = rowsEstimate.largestBound(); // the stand-in
        }
        if (maxRowsPerGroup == 0) {
          throw new IllegalArgumentException(
              "maxRowsPerGroup is required with a privacyUnit column");
        }
        if (maxGroupsContributed == 0) {
          if (!groupBy.isEmpty()) {
            throw new IllegalArgumentException(
                "maxGroupsContributed is required when grouping with a privacyUnit column");
          }
          maxGroupsContributed = 1;
        }
      }
      if (aggregations.isEmpty()) {
        throw new IllegalArgumentException("aggregations: at least one is required");
      }
      Set<String> names = new HashSet<>(groupBy);
      if (names.size() != groupBy.size()) {
        throw new IllegalArgumentException("groupBy must not repeat a column");
      }
      for (Aggregation a : aggregations) {
        if (!names.add(a.name())) {
          throw new IllegalArgumentException("output name '" + a.name() + "' is used twice");
        }
      }
      checkAutoBounds();
      if (rowsEstimate != null && eachRow) {
        throw new IllegalArgumentException("estimateMaxRowsPerGroup needs a privacyUnit column "
            + "(each row as a unit has L∞ = 1)");
      }
      if (rowsEstimate != null && (!targets.isEmpty() || postAggregationThresholding
          || thresholding == Thresholding.POST_AGGREGATION)) {
        throw new IllegalArgumentException("estimateMaxRowsPerGroup conflicts with "
            + (targets.isEmpty() ? "post-aggregation thresholding (it thresholds a count at "
            + "maxRowsPerGroup = 1)" : "targetError (the solver needs a given L∞)"));
      }
      if (minPrivacyUnitsPerGroup > 1 && (groupBy.isEmpty() || publicGroups != null)) {
        throw new IllegalArgumentException("minPrivacyUnitsPerGroup applies only to private group"
            + " selection (groupBy without publicGroups)");
      }
      if (minPrivacyUnitsPerGroup > 1 && thresholding == Thresholding.SET_UNION) {
        throw new IllegalArgumentException("minPrivacyUnitsPerGroup is not supported with"
            + " SET_UNION selection");
      }
      if (!targets.isEmpty()) {
        return buildWithTargets(privateSelectionFor());
      }
      if (budget == null) {
        throw new IllegalArgumentException("budget is required (or give targetError for every "
            + "output)");
      }
      if (publicGroups != null) {
        if (groupBy.isEmpty()) {
          throw new IllegalArgumentException("publicGroups need groupBy columns");
        }
        for (List<Object> k : publicGroups) {
          if (k.size() != groupBy.size()) {
            throw new IllegalArgumentException("publicGroups keys must have " + groupBy.size()
                + " value(s), one per groupBy column");
          }
        }
      }
      boolean privateSelection = !groupBy.isEmpty() && publicGroups == null;
      if (privateSelection && budget.loss() instanceof PureDp) {
        throw new IllegalArgumentException("budget: private partition selection needs δ > 0; "
            + "give publicGroups or an (ε, δ) budget");
      }
      if (privateSelection && budget.loss() instanceof Zcdp) {
        throw new IllegalArgumentException("budget: private partition selection needs a delta > 0 "
            + "(the probability of releasing a group that one unit alone creates), which a pure "
            + "ρ-zCDP budget lacks; use rhoDelta(rho, delta) / Budget.zcdp(rho, delta), an (ε, δ) "
            + "budget, or publicGroups");
      }
      if (postAggregationThresholding && (!privateSelection
          || !hasThresholdStatistic(aggregations, maxRowsPerGroup))) {
        throw new IllegalArgumentException("postAggregationThresholding: needs private partition "
            + "selection (groupBy without publicGroups) and a countDistinctUnits aggregation or a "
            + "count at maxRowsPerGroup = 1");
      }
      if (thresholding == Thresholding.POST_AGGREGATION && privateSelection
          && !hasThresholdStatistic(aggregations, maxRowsPerGroup)) {
        throw new IllegalArgumentException("thresholding: POST_AGGREGATION needs a COUNT(*) with "
            + "maxRowsPerGroup = 1 or a countDistinctUnits aggregation to threshold");
      }
      if (thresholding == Thresholding.OPTIMAL && postAggregationThresholding) {
        throw new IllegalArgumentException("postAggregationThresholding conflicts with thresholding"
            + " OPTIMAL (the optimal mechanism draws no noisy count)");
      }
      if (thresholding != Thresholding.AUTO && !privateSelection) {
        throw new IllegalArgumentException("thresholding: applies only to private partition "
            + "selection (groupBy without publicGroups)");
      }
      if (noise == NoiseKind.GAUSSIAN && budget.loss() instanceof PureDp) {
        throw new IllegalArgumentException("noise: GAUSSIAN needs δ > 0 or a ρ-zCDP budget");
      }
      for (String output : budgetWeights.keySet()) {
        if (aggregations.stream().noneMatch(a -> a.name().equals(output))) {
          throw new IllegalArgumentException("budgetWeight: no aggregation is named '" + output
              + "'");
        }
      }
      if (!Double.isNaN(selectionBudgetWeight) && !privateSelection) {
        throw new IllegalArgumentException("selectionBudgetWeight: the query has no private "
            + "partition selection (no groupBy, or public groups)");
      }
      assert budget.loss() instanceof ApproxDp || budget.loss() instanceof ApproxZcdp
          || !privateSelection;
      return new Query(this);
    }

    /** Refuses AUTO bounds on an unknown output, a non-value aggregation, or with targets. */
    private void checkAutoBounds() {
      if (autoOutputs.isEmpty()) {
        if (autoShare != AutoBounds.DEFAULT_SHARE || autoLowerRank != AutoBounds.DEFAULT_LOWER_RANK
            || autoUpperRank != AutoBounds.DEFAULT_UPPER_RANK) {
          throw new IllegalArgumentException("autoBoundsShare/autoBoundsRanks: no output has "
              + "autoBounds");
        }
        return;
      }
      if (!targets.isEmpty()) {
        throw new IllegalArgumentException("autoBounds conflicts with targetError: give a budget "
            + "with AUTO bounds");
      }
      for (String output : autoOutputs.keySet()) {
        Aggregation a = aggregations.stream().filter(x -> x.name().equals(output)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("autoBounds: no aggregation is named '"
                + output + "'"));
        if (!(a instanceof Aggregation.Sum || a instanceof Aggregation.Mean
            || a instanceof Aggregation.Variance || a instanceof Aggregation.StdDev
            || a instanceof Aggregation.Quantiles)) {
          throw new IllegalArgumentException("autoBounds: output '" + output + "' is a "
              + a.getClass().getSimpleName().toUpperCase(java.util.Locale.ROOT) + "; AUTO bounds "
              + "apply to SUM, MEAN (AVG), VARIANCE, STDDEV and QUANTILES");
        }
      }
    }

    /** Whether a COUNT(*) with L∞ = 1 or a COUNT(DISTINCT unit) can serve as the selection's count. */
    public static boolean hasThresholdStatistic(List<Aggregation> aggregations, int maxRowsPerGroup) {
      return aggregations.stream()
          .anyMatch(a -> SelectionChoice.thresholdStatistic(a, maxRowsPerGroup));
    }

    private boolean privateSelectionFor() {
      return !groupBy.isEmpty() && publicGroups == null;
    }

    /**
     * Validates a query given by target errors against a stand-in budget of the family the solver
     * will use (so every other check is the ordinary one), then drops the stand-in.
     */
    private Query buildWithTargets(boolean privateSelection) {
      if (budget != null) {
        throw new IllegalArgumentException("targetError conflicts with budget: give a budget or "
            + "target errors, not both");
      }
      if (!budgetWeights.isEmpty() || !Double.isNaN(selectionBudgetWeight)) {
        throw new IllegalArgumentException("targetError conflicts with budgetWeight / "
            + "selectionBudgetWeight: the solver chooses the split");
      }
      for (String output : targets.keySet()) {
        if (aggregations.stream().noneMatch(a -> a.name().equals(output))) {
          throw new IllegalArgumentException("targetError: no aggregation is named '" + output
              + "'");
        }
      }
      for (Aggregation a : aggregations) {
        if (!targets.containsKey(a.name())) {
          throw new IllegalArgumentException("targetError: output '" + a.name() + "' has no "
              + "target; give one for every output (or a budget instead)");
        }
      }
      if (privateSelection && targetDelta == 0) {
        throw new IllegalArgumentException("targetDelta: private partition selection needs "
            + "δ > 0; give targetDelta (SQL: delta) or publicGroups");
      }
      budget = AccuracyTargets.standIn(noise, targetDelta);
      Map<String, Double> saved = new LinkedHashMap<>(targets);
      targets.clear();
      try {
        build(); // every ordinary check, with the stand-in budget
      } finally {
        targets.putAll(saved);
        budget = null;
      }
      return new Query(this);
    }

    private static void requireKeyValue(Object v) {
      if (v != null && !(v instanceof String || v instanceof Long || v instanceof Integer
          || v instanceof Double || v instanceof BigDecimal || v instanceof Boolean
          || v instanceof LocalDate || v instanceof java.time.LocalDateTime)) {
        throw new IllegalArgumentException("publicGroups values must be null, String, Long, "
            + "Integer, Double, BigDecimal, Boolean, LocalDate or LocalDateTime");
      }
    }
  }
}
