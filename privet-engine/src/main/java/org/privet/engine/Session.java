package org.privet.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.privet.accounting.PrivacyLoss;
import org.privet.engine.budget.BudgetSolver;
import org.privet.engine.budget.DefaultSplit;
import org.privet.engine.compile.AutoBoundsPass;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
import org.privet.engine.compile.ContributionBoundPass;
import org.privet.engine.compile.R2TPass;
import org.privet.engine.compile.GroupKeys;
import org.privet.engine.release.MechanismSpec;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;
import org.privet.engine.release.Releases;
import org.privet.engine.selection.PartitionSelection;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.PairRowsHistogram;
import org.privet.engine.spi.TableSchema;
import org.privet.random.RandomSource;

/**
 * Runs DP queries against a {@link Backend}, charging each run through a {@link BudgetCharger}.
 *
 * <p>Pipeline (the engine is a compiler): query → compile (bounding rewrites, mechanism choice,
 * budget split, check that the charge is the composition of the mechanisms' losses) → charge →
 * bounded aggregation in the backend (streamed per group) → partition selection and noise in Java
 * → result with confidence intervals and receipt.
 *
 * <p>Thread-safe if the backend, charger and random source are.
 */
public final class Session {
  private final Backend backend;
  private final BudgetCharger charger;
  private final RandomSource random;
  private final double confidenceLevel;

  private Session(Builder b) {
    this.backend = b.backend;
    this.charger = b.charger;
    this.random = b.random;
    this.confidenceLevel = b.confidenceLevel;
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Compiles {@code query} and describes it: bounds, budget split, mechanisms, noise and expected
   * errors, the total charge and the physical plan. Reads only the source's schema; charges
   * nothing; releases nothing.
   */
  public Plan explain(Query query) {
    Objects.requireNonNull(query, "query");
    query = solvedIfTargeted(query); // issue 16 hook: a query given by target errors
    TableSchema schema = backend.describe(query.source());
    if (query.r2tTruncation().isPresent()) {
      return explainR2T(query, schema);
    }
    if (query.contributionBoundEstimate().isPresent()) {
      return explainWithRowsEstimate(query, schema);
    }
    if (query.autoBounds().isPresent()) {
      AutoBoundsPass p = AutoBoundsPass.compile(query, schema, 0L, 0L);
      List<Plan.PlannedMechanism> planned = new ArrayList<>();
      List<MechanismCost> costs = p.costs();
      List<Plan.PlannedMechanism> parts = new ArrayList<>(planned(p.bounds()));
      parts.addAll(planned(p.main()));
      for (int i = 0; i < parts.size(); i++) {
        Plan.PlannedMechanism m = parts.get(i);
        planned.add(new Plan.PlannedMechanism(costs.get(i), m.sensitivity(), m.noiseStddev(),
            m.error95()));
      }
      List<String> bounds = new ArrayList<>(p.describe());
      bounds.addAll(p.main().bounds());
      return new Plan(query, p.main().noise(), bounds, planned, p.total(),
          p.main().conversionDelta(), "-- AUTO bounds pass\n"
          + backend.physicalPlan(p.bounds().spec()) + "\n-- main pass\n"
          + backend.physicalPlan(p.main().spec()), splitReport(p.main(), schema));
    }
    CompiledQuery c = Compiler.compile(query, schema, 0L);
    return new Plan(query, c.noise(), c.bounds(), planned(c), c.total(), c.conversionDelta(),
        backend.physicalPlan(c.spec()), splitReport(c, schema));
  }

  /** Every mechanism of a compiled query with its cost, noise and expected error. */
  private List<Plan.PlannedMechanism> planned(CompiledQuery c) {
    List<Plan.PlannedMechanism> planned = new ArrayList<>();
    int i = 0;
    if (c.selection() != null) {
      PartitionSelection s = c.selection();
      int l0 = c.query().maxGroupsContributed();
      planned.add(new Plan.PlannedMechanism(c.costs().get(i++),
          s.kind() == PartitionSelection.Kind.GAUSSIAN ? Math.sqrt(l0)
              : s.kind() == PartitionSelection.Kind.SET_UNION
                  ? s.setUnionSelection().sensitivity() : l0, s.noiseStddev(),
          s.kind().noisyCount() ? s.threshold() : s.unitsForHalfRelease()));
    }
    for (Release r : c.releases()) {
      MechanismCost cost = c.costs().get(i++);
      Release.Target t = r.target();
      if (r.mechanism() instanceof MechanismSpec.Exponential e) {
        Releases.Quantile q = Releases.quantile(e, random);
        int candidates = Measure.cells(c.spec().measures().get(t.measure())) + 1;
        planned.add(new Plan.PlannedMechanism(cost, r.sensitivity(), Double.NaN,
            q.rankErrorBound(candidates, 0.05)));
      } else if (t.field() == Release.Field.TREE) {
        // Per node noise; error95: the widest 95% statement on a quantile's rank error (in rows,
        // per rank: docs/proofs/engine-quantiles.md, "Per-rank intervals").
        Releases.Noise n = Releases.noise(r.mechanism(), random);
        int bins = Measure.cells(c.spec().measures().get(t.measure()));
        double[] ranks = c.quantileRanks(t.output());
        planned.add(new Plan.PlannedMechanism(cost, r.sensitivity(), n.stddev(),
            QuantileTree.forCells(bins).rankHalfWidth(ranks, QuantileTree.NodeNoise.of(n),
                0.05)));
      } else {
        Releases.Noise n = Releases.noise(r.mechanism(), random);
        double unit = r.unit();
        planned.add(new Plan.PlannedMechanism(cost, r.sensitivity() * unit, n.stddev() * unit,
            n.halfWidth(0.05) * unit));
      }
    }
    return planned;
  }

  /** The default split's report for EXPLAIN, or null when the split was not the default. */
  private SplitReport splitReport(CompiledQuery c, TableSchema schema) {
    boolean served = c.selection() != null
        && c.outputs().stream().anyMatch(o -> o.releases().isEmpty());
    return c.splitTerms().isEmpty() && !served ? null : DefaultSplit.report(c,
        Compiler.compile(DefaultSplit.equalSplitQuery(c.query(), c), schema, 0L), random);
  }

  /**
   * Runs {@code query}: compiles it, charges its full cost (the charger must accept before any data
   * is read), runs the bounded aggregation and releases noisy values. With AUTO bounds ({@link
   * Query.Builder#autoBounds}) both passes are compiled and charged at once, then the bounds are
   * estimated and the aggregation runs clamped to them ({@link AutoBoundsPass}).
   *
   * @throws IllegalArgumentException if the query does not fit the source (message names the
   *     parameter)
   * @throws RuntimeException whatever the charger throws to refuse; nothing is then released
   */
  public Result run(Query query) {
    Objects.requireNonNull(query, "query");
    query = solvedIfTargeted(query); // issue 16 hook: charges exactly the solved cost
    TableSchema schema = backend.describe(query.source());
    if (query.r2tTruncation().isPresent()) {
      return runR2T(query, schema);
    }
    if (query.contributionBoundEstimate().isPresent()) {
      return runWithRowsEstimate(query, schema);
    }
    if (query.autoBounds().isPresent()) {
      return runWithAutoBounds(query, schema);
    }
    CompiledQuery c = Compiler.compile(query, schema, random.nextLong());
    Mechanisms m = mechanisms(c);
    ChargeRequest charge = new ChargeRequest(queryId(), query.toString(), c.costs(), c.total(),
        c.conversionDelta());
    charger.charge(charge); // throws to refuse: nothing has been read or released

    Releaser releaser = releaser(c, m);
    return new Result(query.groupBy(), releaser.outputNames(), releaseRows(backend, c, releaser),
        new Receipt(charge, query.budget()));
  }

  /**
   * Both passes compiled and their mechanisms checked before the one charge; after it everything
   * is total: the bounds estimate is always a valid grid interval, and the main pass falls back
   * to its stand-in compilation (already paid for) if the estimate cannot be used as is.
   */
  private Result runWithAutoBounds(Query query, TableSchema schema) {
    AutoBoundsPass p = AutoBoundsPass.compile(query, schema, random.nextLong(), random.nextLong());
    Mechanisms boundsMechanisms = mechanisms(p.bounds());
    Mechanisms standIn = mechanisms(p.main());
    ChargeRequest charge = new ChargeRequest(queryId(), query.toString(), p.costs(), p.total(),
        p.main().conversionDelta());
    charger.charge(charge); // throws to refuse: nothing has been read or released
    Backend rows = backend.sharingRows(List.of(p.bounds().spec(), p.main().spec()));
    try {
      return executeAutoBounds(rows, query, schema, p, boundsMechanisms, standIn, charge, 0);
    } finally {
      closeShared(rows);
    }
  }


  /**
   * After the charge: the bounds pass, the estimate, the main pass recompiled with it (or its
   * stand-in compilation), and the release. Total.
   */
  private Result executeAutoBounds(Backend backend, Query query, TableSchema schema,
      AutoBoundsPass p,
      Mechanisms boundsMechanisms, Mechanisms standIn, ChargeRequest charge, int estimatedLInf) {
    Releaser boundsReleaser = releaser(p.bounds(), boundsMechanisms);
    List<GroupAggregate> all = new ArrayList<>();
    backend.aggregate(p.bounds().spec(), all::add);
    GroupAggregate g = all.isEmpty() ? boundsReleaser.empty(List.of()) : all.get(0);
    List<AutoBounds.Estimated> estimated = p.estimate(boundsReleaser.group(g));
    CompiledQuery main = p.mainWith(estimated, schema, random.nextLong());
    Mechanisms m = standIn;
    if (main != p.main()) {
      try {
        m = mechanisms(main);
      } catch (RuntimeException e) { // post-processing of the released bounds: use the stand-in
        main = p.main();
      }
    }
    Releaser releaser = releaser(main, m);
    return new Result(query.groupBy(), releaser.outputNames(), releaseRows(backend, main, releaser),
        new Receipt(charge, query.budget()), estimated, estimatedLInf);
  }

  /**
   * The part of a query after its L∞ estimate ({@link ContributionBoundPass}): an AUTO-bounds
   * pass, or one compiled query.
   */
  private record Rest(AutoBoundsPass auto, CompiledQuery plain) {
    static Rest compile(Query q, TableSchema schema, long salt1, long salt2) {
      return q.autoBounds().isPresent()
          ? new Rest(AutoBoundsPass.compile(q, schema, salt1, salt2), null)
          : new Rest(null, Compiler.compile(q, schema, salt1));
    }

    CompiledQuery main() {
      return auto != null ? auto.main() : plain;
    }

    PrivacyLoss total() {
      return auto != null ? auto.total() : plain.total();
    }

    List<MechanismCost> costs() {
      return auto != null ? auto.costs() : plain.costs();
    }

    /** Whether {@code o} charges exactly what this one does, part by part. */
    boolean sameCosts(Rest o) {
      if ((auto == null) != (o.auto == null)) {
        return false;
      }
      return auto == null ? AutoBoundsPass.sameCosts(plain, o.plain)
          : AutoBoundsPass.sameCosts(auto.bounds(), o.auto.bounds())
              && AutoBoundsPass.sameCosts(auto.main(), o.auto.main())
              && CompiledQuery.sameCost(auto.total(), o.auto.total());
    }
  }

  /** The estimate's and the rest's costs, each share stated as a fraction of the whole budget. */
  private static List<MechanismCost> rowsEstimateCosts(ContributionBoundPass p, Rest rest) {
    double share = p.config().share();
    List<MechanismCost> all = new ArrayList<>();
    String why = "L∞ estimate: " + AutoBoundsPass.percent(share) + " of the budget estimates "
        + "the rows per unit per group";
    for (MechanismCost c : p.tree().costs()) {
      all.add(new MechanismCost(c.output(), c.purpose(), c.mechanism(), c.loss(),
          c.share() * share, why));
    }
    String restWhy = "the rest (" + AutoBoundsPass.percent(1 - share) + ") after the L∞ estimate";
    for (MechanismCost c : rest.costs()) {
      all.add(new MechanismCost(c.output(), c.purpose(), c.mechanism(), c.loss(),
          c.share() * (1 - share), restWhy + (c.shareReason().isEmpty() ? ""
              : "; " + c.shareReason())));
    }
    return all;
  }

  /** The estimate and the rest (at the stand-in L∞), compiled from public information only. */
  private record RowsEstimatePlan(ContributionBoundPass estimate, Query restQuery, Rest rest,
      PrivacyLoss total, List<MechanismCost> costs, List<String> valueSums, int[] sumTree) {
    /**
     * The rest at the trees' bounds ({@link ContributionBoundPass#bounds}): L∞ the main bound,
     * each SUM read by its values clamped per pair to its own tree's bound ({@code sumTree}: the
     * index, among the value trees, of each SUM of {@code valueSums}).
     */
    Query restAt(int[] bounds) {
      int lInf = estimate.mainBound(bounds);
      Query q = restQuery.withContributionBound(restQuery.budget(), rest.main().noise(), lInf);
      if (valueSums.isEmpty()) {
        return q;
      }
      Map<String, Integer> perSum = new LinkedHashMap<>();
      int first = estimate.readsRows() ? 1 : 0;
      for (int i = 0; i < valueSums.size(); i++) {
        perSum.put(valueSums.get(i), bounds[first + sumTree[i]]);
      }
      return q.withSumsClampedPerPair(lInf, perSum);
    }
  }

  private RowsEstimatePlan planRowsEstimate(Query query, TableSchema schema, long s1, long s2,
      long s3) {
    ContributionBoundEstimate est = query.contributionBoundEstimate().orElseThrow();
    org.privet.accounting.Budget[] budgets = AutoBoundsPass.split(query.budget(), est.share());
    Query restQuery = query.withContributionBound(budgets[1], query.noise(),
        est.largestBound());
    Rest rest = null;
    ContributionBoundPass p = null;
    int[] sumTree = new int[0];
    List<String> valueSums = query.sumsEstimableByValue();
    if (!valueSums.isEmpty()) {
      // Each SUM with per-row bounds gets its own tree of the pairs' values in row-equivalents
      // and the main pass clamps each pair's total to its own bound; the other aggregates keep
      // a tree of the row counts (docs/proofs/contribution-bound-estimate.md). Any refusal of
      // this public plan falls back to the row counts: it refuses nothing new.
      try {
        Map<String, Integer> standIns = new LinkedHashMap<>();
        valueSums.forEach(n -> standIns.put(n, est.largestBound()));
        Rest r = Rest.compile(restQuery.withSumsClampedPerPair(est.largestBound(), standIns),
            schema, s1, s2);
        List<Measure.PairValues> values = r.auto() == null
            ? pairValues(query, valueSums, r.main().spec()) : null;
        if (values != null) {
          // SUMs of one column and per-row bounds have the same pair values: one tree serves
          // them all (docs/proofs/contribution-bound-estimate.md, "Two SUMs of one column")
          List<Measure.PairValues> trees = values.stream().distinct().toList();
          sumTree = values.stream().mapToInt(trees::indexOf).toArray();
          boolean rows = query.aggregations().size() > valueSums.size();
          p = ContributionBoundPass.compile(r.main().spec(), budgets[0], est, schema, s3,
              trees, rows);
          rest = r;
        }
      } catch (IllegalArgumentException | ArithmeticException e) {
        p = null;
        rest = null;
      }
    }
    if (p == null) {
      valueSums = List.of();
      sumTree = new int[0];
      rest = Rest.compile(restQuery, schema, s1, s2);
      p = ContributionBoundPass.compile(rest.main().spec(), budgets[0], est, schema, s3);
    }
    PrivacyLoss total = CompiledQuery.composedCost(query.budget(),
        List.of(p.tree().total(), rest.total()));
    if (!query.budget().admits(total)) {
      throw new IllegalStateException("internal error: the passes' composed loss " + total
          + " exceeds the budget " + query.budget());
    }
    return new RowsEstimatePlan(p, restQuery, rest, total, rowsEstimateCosts(p, rest),
        valueSums, sumTree);
  }

  /**
   * The pair-values measure of each SUM in {@code sums}, from its fixed-point sum in the main
   * pass's {@code spec} (the measures of its column with an all-rows pair clamp, which must all
   * give the same per-row values: column, bounds and grid), or null if some SUM has none or two
   * different ones (then the row counts serve: a public choice). SUMs of one column and bounds get
   * equal measures, which the caller gives one tree.
   */
  private static List<Measure.PairValues> pairValues(Query query, List<String> sums,
      BoundedAggregation spec) {
    List<Measure.PairValues> values = new ArrayList<>();
    for (String name : sums) {
      Aggregation.Sum sum = (Aggregation.Sum) query.aggregations().stream()
          .filter(a -> a.name().equals(name)).findFirst().orElseThrow();
      List<Measure.PairValues> found = spec.measures().stream()
          .filter(m -> m instanceof Measure.FixedPointSum f && f.column().equals(sum.column())
              && f.pairClamp() != null && f.pairClamp().allRows())
          .map(m -> (Measure.FixedPointSum) m)
          .map(f -> new Measure.PairValues(f.column(), f.lower(), f.upper(), f.scaleExponent(),
              ContributionBoundEstimate.CELLS))
          .distinct().toList();
      if (found.size() != 1) {
        return null; // (SUMs of one column with the same per-row values: one measure's values)
      }
      values.add(found.get(0));
    }
    return values;
  }

  /**
   * A query whose L∞ is estimated: the estimate and the rest compiled and their mechanisms
   * checked before the one charge; after it everything is total (the rest recompiled with the
   * estimate, or its stand-in compilation when the recompilation would cost anything else).
   */
  private Result runWithRowsEstimate(Query query, TableSchema schema) {
    RowsEstimatePlan plan = planRowsEstimate(query, schema, random.nextLong(), random.nextLong(),
        random.nextLong());
    ContributionBoundPass p = plan.estimate();
    Mechanisms estimateMechanisms = mechanisms(p.tree());
    Rest standIn = plan.rest();
    Mechanisms standInBounds = standIn.auto() != null ? mechanisms(standIn.auto().bounds()) : null;
    Mechanisms standInMain = mechanisms(standIn.main());
    boolean histogram = readsPairRowsHistogram(plan);
    ChargeRequest charge = new ChargeRequest(queryId(), query.toString(), plan.costs(),
        plan.total(), standIn.main().conversionDelta());
    charger.charge(charge); // throws to refuse: nothing has been read or released

    // The estimate and the release read the same rows of one join: computed once (issue 25);
    // a COUNT(*) both from one statement, the kept pairs' row-count histogram.
    List<BoundedAggregation> passes = standIn.auto() != null
        ? List.of(p.spec(), standIn.auto().bounds().spec(), standIn.main().spec())
        : List.of(p.spec(), standIn.main().spec());
    Backend rows = histogram ? PairRowsHistogram.view(backend, p.spec())
        : backend.sharingRows(passes);
    try {
      return executeWithRowsEstimate(rows, query, schema, plan, estimateMechanisms, standInBounds,
          standInMain, charge);
    } finally {
      closeShared(rows);
    }
  }

  /**
   * Whether the estimate and the main pass read the kept pairs' row-count histogram, one backend
   * statement ({@link PairRowsHistogram}: COUNT(*) and unit counts, scalar or over public groups
   * where L0 does not bind): from the backend and the compiled plan only (public). The passes run
   * exactly as on the backend, on the histogram's view; a recompiled main pass the view does not
   * serve runs on the backend. Argument: docs/proofs/contribution-bound-estimate.md, "COUNT(*)
   * from the pairs' row-count histogram".
   */
  private boolean readsPairRowsHistogram(RowsEstimatePlan plan) {
    Rest rest = plan.rest();
    BoundedAggregation template = plan.estimate().spec();
    return backend.countsPairRows() && rest.auto() == null && rest.main().selection() == null
        && PairRowsHistogram.serves(template, template)
        && PairRowsHistogram.serves(template, rest.main().spec());
  }

  /**
   * Closes a query's shared-rows view after its passes (drops the temporary table or view). A
   * failure here happens after the release is computed and does not depend on the data (the
   * statement names an engine-made table): it is logged for the curator with the backend's
   * data-free text, and the paid-for result is still returned, so nothing charged is lost.
   */
  static void closeShared(Backend rows) {
    try {
      rows.close();
    } catch (RuntimeException e) {
      System.getLogger(Session.class.getName()).log(System.Logger.Level.WARNING,
          "dropping a query's shared rows failed; the release stands", e);
    }
  }

  /** After the charge of a query whose L∞ is estimated: the passes, on {@code backend}. Total. */
  private Result executeWithRowsEstimate(Backend backend, Query query, TableSchema schema,
      RowsEstimatePlan plan, Mechanisms estimateMechanisms, Mechanisms standInBounds,
      Mechanisms standInMain, ChargeRequest charge) {
    ContributionBoundPass p = plan.estimate();
    Rest standIn = plan.rest();
    List<GroupAggregate> groups = new ArrayList<>();
    backend.aggregate(p.spec(), groups::add);
    int[] estimated = p.bounds(releaser(p.tree(), estimateMechanisms).group(p.total(groups)));
    int lInf = p.mainBound(estimated);
    Rest rest = standIn;
    Mechanisms bounds = standInBounds;
    Mechanisms main = standInMain;
    try {
      Rest r = Rest.compile(plan.restAt(estimated), schema, random.nextLong(),
          random.nextLong());
      if (r.sameCosts(standIn)) {
        Mechanisms rb = r.auto() != null ? mechanisms(r.auto().bounds()) : null;
        Mechanisms rm = mechanisms(r.main());
        rest = r;
        bounds = rb;
        main = rm;
      }
    } catch (RuntimeException e) { // post-processing of the released L∞: the stand-in is paid for
      rest = standIn;
    }
    int used = rest == standIn ? p.config().largestBound() : lInf;
    if (rest.auto() != null) {
      return executeAutoBounds(backend, query, schema, rest.auto(), bounds, main, charge, used);
    }
    Releaser releaser = releaser(rest.plain(), main);
    return new Result(query.groupBy(), releaser.outputNames(), releaseRows(backend, rest.plain(), releaser),
        new Receipt(charge, query.budget()), List.of(), used);
  }

  /** EXPLAIN of a query whose L∞ is estimated: the estimate's tree, then the rest. */
  private Plan explainWithRowsEstimate(Query query, TableSchema schema) {
    RowsEstimatePlan plan = planRowsEstimate(query, schema, 0L, 0L, 0L);
    ContributionBoundPass p = plan.estimate();
    Rest rest = plan.rest();
    List<Plan.PlannedMechanism> parts = new ArrayList<>(planned(p.tree()));
    List<String> bounds = new ArrayList<>();
    bounds.add(p.describe(p.config().share()));
    bounds.addAll(p.tree().bounds());
    boolean histogram = readsPairRowsHistogram(plan);
    String physical = histogram
        ? "-- L∞ estimate pass and main pass, one statement: the kept pairs' row-count histogram"
            + " (the estimate's cells and the main pass's rows computed from it exactly)\n"
            + backend.pairRowsHistogramPlan(p.spec())
        : "-- L∞ estimate pass\n" + backend.physicalPlan(p.spec());
    if (rest.auto() != null) {
      parts.addAll(planned(rest.auto().bounds()));
      bounds.addAll(rest.auto().describe());
      physical += "\n-- AUTO bounds pass\n" + backend.physicalPlan(rest.auto().bounds().spec());
    }
    parts.addAll(planned(rest.main()));
    bounds.addAll(rest.main().bounds());
    if (!histogram) {
      physical += "\n-- main pass\n" + backend.physicalPlan(rest.main().spec());
    }
    List<Plan.PlannedMechanism> planned = new ArrayList<>();
    for (int i = 0; i < parts.size(); i++) {
      Plan.PlannedMechanism m = parts.get(i);
      planned.add(new Plan.PlannedMechanism(plan.costs().get(i), m.sensitivity(),
          m.noiseStddev(), m.error95()));
    }
    return new Plan(query, rest.main().noise(), bounds, planned, plan.total(),
        rest.main().conversionDelta(), physical, splitReport(rest.main(), schema));
  }

  /**
   * A scalar COUNT(*) whose truncation R2T chooses ({@link R2TPass}): compiled and its mechanism
   * built before the one charge of ε; after it one backend pass for all thresholds, then R2T's noise,
   * bias and maximum (total). The release has no interval (EXPLAIN states the one-sided bound).
   */
  private Result runR2T(Query query, TableSchema schema) {
    R2TPass p = R2TPass.compile(query, schema, random.nextLong());
    double beta = 1 - confidenceLevel;
    org.privet.mechanisms.truncation.R2TMechanism m = p.mechanism(beta, random);
    if (!CompiledQuery.sameCost(p.stated(m), p.total())
        || !query.budget().admits(p.stated(m))) {
      throw new IllegalStateException("internal error: R2T's loss differs from the charge");
    }
    ChargeRequest charge = new ChargeRequest(queryId(), query.toString(), p.costs(), p.total(),
        0);
    charger.charge(charge); // throws to refuse: nothing has been read or released

    List<List<GroupAggregate>> perSpec = new ArrayList<>();
    for (BoundedAggregation spec : p.specs()) {
      List<GroupAggregate> groups = new ArrayList<>();
      backend.aggregate(spec, groups::add);
      perSpec.add(groups);
    }
    List<ResultRow> rows = new ArrayList<>();
    PartitionSelection sel = p.selection();
    for (R2TPass.GroupValues g : p.exact(perSpec)) {
      // Public groups: every listed one, in the public order. Private groups: those the
      // selection keeps (its own noise), then R2T on them. One R2T per group, fresh noise each.
      if (sel != null && !sel.keep(g.units(), random)) {
        continue;
      }
      org.privet.mechanisms.truncation.TruncationResult r = p.release(m, g.exact());
      // No interval in the result: R2T's only guarantee at 1 − β is one-sided (value ≤ Q(I)),
      // which EXPLAIN states; an infinite upper end would not survive every client's JSON.
      rows.add(new ResultRow(g.key(), Map.of(p.output(), Estimate.withoutInterval(p.value(r)))));
    }
    return new Result(query.groupBy(), List.of(p.output()), rows,
        new Receipt(charge, query.budget()));
  }

  /** EXPLAIN of an R2T query: the method, thresholds and cost, one physical plan for all τ. */
  private Plan explainR2T(Query query, TableSchema schema) {
    R2TPass p = R2TPass.compile(query, schema, 0L);
    double beta = 1 - confidenceLevel;
    org.privet.mechanisms.truncation.R2TMechanism m = p.mechanism(beta, random);
    List<Plan.PlannedMechanism> planned = new ArrayList<>();
    int levels = m.levels();
    // Sensitivity and noise of the largest threshold; error95: R2T's Theorem 5.1 bound for a
    // hypothetical unit at the GS bound (a planning formula, never of the data).
    // (In the column's units: grid values times 2^-k; k = 0 for a COUNT.)
    int k = p.gridExponent();
    List<MechanismCost> costs = p.costs();
    if (p.selection() != null) {
      PartitionSelection s = p.selection();
      planned.add(new Plan.PlannedMechanism(costs.get(0), query.maxGroupsContributed(),
          s.noiseStddev(), s.kind().noisyCount() ? s.threshold() : s.unitsForHalfRelease()));
    }
    planned.add(new Plan.PlannedMechanism(costs.get(costs.size() - 1),
        Math.scalb((double) m.threshold(levels), -k),
        Math.scalb(Math.sqrt(2) * m.noiseScale(levels), -k),
        m.errorBound(query.r2tTruncation().getAsLong())));
    StringBuilder physical = new StringBuilder();
    physical.append("-- R2T pass, one measure per τ\n").append(backend.physicalPlan(p.specs().get(0)));
    return new Plan(query, p.base().noise(), p.describe(m), planned, p.total(), 0,
        physical.toString(), null);
  }

  /** The instantiated mechanisms of a compiled query (index-aligned with its releases). */
  private record Mechanisms(List<Releases.Noise> noises, List<Releases.Quantile> quantiles) {}

  /**
   * Instantiates the mechanisms and checks that the planned charge is the composition of their
   * stated losses and within the query's budget.
   */
  private Mechanisms mechanisms(CompiledQuery c) {
    List<Releases.Noise> noises = new ArrayList<>();
    List<Releases.Quantile> quantiles = new ArrayList<>();
    List<PrivacyLoss> stated = new ArrayList<>();
    if (c.selection() != null) {
      stated.add(c.selection().privacyLoss());
    }
    for (Release r : c.releases()) {
      if (r.mechanism() instanceof MechanismSpec.Exponential e) {
        Releases.Quantile q = Releases.quantile(e, random);
        quantiles.add(q);
        noises.add(null);
        stated.add(q.privacyLossOverGroups());
      } else {
        Releases.Noise n = Releases.noise(r.mechanism(), random);
        noises.add(n);
        quantiles.add(null);
        stated.add(n.privacyLoss());
      }
    }
    PrivacyLoss composed = CompiledQuery.composedCost(c.query().budget(), stated);
    if (!CompiledQuery.sameCost(composed, c.total()) || !c.query().budget().admits(composed)) {
      throw new IllegalStateException("internal error: the mechanisms' composed loss " + composed
          + " differs from the planned charge " + c.total());
    }
    if (c.selection() != null && c.selection().kind() == PartitionSelection.Kind.SET_UNION
        && !backend.listsKeptGroups()) {
      throw new IllegalArgumentException("group_selection_strategy SET_UNION: this backend cannot "
          + "list each unit's kept groups");
    }
    return new Mechanisms(noises, quantiles);
  }

  private Releaser releaser(CompiledQuery c, Mechanisms m) {
    return new Releaser(c, m.noises(), m.quantiles(), random, 1 - confidenceLevel);
  }

  /** The bounded aggregation, partition selection and noisy releases of every group. */
  private List<ResultRow> releaseRows(Backend backend, CompiledQuery c, Releaser releaser) {
    Query query = c.query();
    List<ResultRow> rows = new ArrayList<>();
    BoundedAggregation spec = c.spec();
    if (spec.publicGroups().isPresent()) {
      Map<List<Object>, GroupAggregate> byKey = new HashMap<>();
      backend.aggregate(spec, g -> byKey.put(GroupKeys.canonical(g.key()), g));
      List<List<Object>> listed = query.publicGroups().get();
      for (int i = 0; i < listed.size(); i++) {
        List<Object> key = listed.get(i);
        List<Object> typed = c.releaseKeys().get(i);
        GroupAggregate g = typed == null ? null : byKey.get(GroupKeys.canonical(typed));
        rows.add(releaser.release(key, g != null ? g : releaser.empty(key)));
      }
    } else if (query.groupBy().isEmpty()) {
      List<GroupAggregate> all = new ArrayList<>();
      backend.aggregate(spec, all::add);
      GroupAggregate g = all.isEmpty() ? releaser.empty(List.of()) : all.get(0);
      rows.add(releaser.release(List.of(), g));
    } else {
      PartitionSelection sel = c.selection();
      if (sel.kind() == PartitionSelection.Kind.SET_UNION) {
        java.util.Set<List<Object>> released =
            sel.setUnionSelection().releasedGroups(backend, spec, random);
        backend.aggregate(spec, g -> {
          if (g.units() > 0 && released.contains(GroupKeys.canonical(g.key()))) {
            rows.add(releaser.release(g.key(), g));
          }
        });
        return rows;
      }
      long shift = query.minPrivacyUnitsPerGroup() - 1L; // pre-thresholding (0: none)
      backend.aggregate(spec, g -> {
        long units = g.units() - shift;
        if (units > 0) {
          if (!sel.kind().noisyCount()) {
            if (sel.keep(units, random)) {
              rows.add(releaser.release(g.key(), g));
            }
            return;
          }
          long noisy = sel.noisyCount(units, random);
          if (sel.passes(noisy, random)) {
            // The noisy count of the shifted units, shifted back (post-processing).
            rows.add(releaser.release(g.key(), g, noisy + shift));
          }
        }
      });
    }
    return rows;
  }

  /**
   * Solves a query given by target errors ({@link Query.Builder#targetError}): the smallest budget
   * and split meeting every target, from the query and the source's schema only. Charges nothing.
   *
   * @throws IllegalArgumentException naming the parameter if a target is unsupported or cannot be
   *     met
   */
  public BudgetSolution solve(Query query) {
    Objects.requireNonNull(query, "query");
    return BudgetSolver.solve(query, backend.describe(query.source()), random);
  }

  /**
   * Each output's error statement under {@code solution}'s split with the total ε (or ρ) {@code
   * parameter} instead of the solved one: what another budget, e.g. the remaining one, would buy.
   */
  public java.util.Map<String, Double> errorsAt(BudgetSolution solution, double parameter) {
    return BudgetSolver.errorsAt(solution, parameter,
        backend.describe(solution.query().source()), random);
  }

  /** {@code solution}'s query with its split kept and the total ε (or ρ) set to {@code parameter}. */
  public Query queryAt(BudgetSolution solution, double parameter) {
    return BudgetSolver.queryAt(solution, parameter);
  }

  /**
   * Each output's error statement when a query given by target errors runs instead with {@code
   * budget} and the engine's default split and noise for it (for comparisons with naive plans).
   */
  public java.util.Map<String, Double> errorsWithDefaultSplit(Query targeted,
      org.privet.accounting.Budget budget, NoiseKind noise) {
    return BudgetSolver.errorsWithDefaultSplit(targeted, budget, noise,
        backend.describe(targeted.source()), random);
  }

  private Query solvedIfTargeted(Query query) {
    return query.targets().isPresent() ? solve(query).query() : query;
  }

  private String queryId() {
    return HexFormat.of().toHexDigits(random.nextLong());
  }

  /** Builder; a backend and a budget charger are required. */
  public static final class Builder {
    private Backend backend;
    private BudgetCharger charger;
    private RandomSource random = RandomSource.secure();
    private double confidenceLevel = 0.95;

    private Builder() {}

    public Builder backend(Backend backend) {
      this.backend = Objects.requireNonNull(backend, "backend");
      return this;
    }

    public Builder budgetCharger(BudgetCharger charger) {
      this.charger = Objects.requireNonNull(charger, "budgetCharger");
      return this;
    }

    /** The randomness for noise and sampling salts (default: the CSPRNG). */
    public Builder randomSource(RandomSource random) {
      this.random = Objects.requireNonNull(random, "randomSource");
      return this;
    }

    /** Coverage of released confidence intervals, in (0, 1) (default 0.95). */
    public Builder confidenceLevel(double level) {
      if (!(level > 0 && level < 1)) {
        throw new IllegalArgumentException("confidenceLevel must be in (0, 1), was " + level);
      }
      this.confidenceLevel = level;
      return this;
    }

    public Session build() {
      if (backend == null) {
        throw new IllegalArgumentException("backend is required");
      }
      if (charger == null) {
        throw new IllegalArgumentException("budgetCharger is required");
      }
      return new Session(this);
    }
  }
}
