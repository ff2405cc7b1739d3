package org.privet.engine.compile;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetSplit;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.ZcdpConversion;
import org.privet.engine.Aggregation;
import org.privet.engine.Filter;
import org.privet.engine.MechanismCost;
import org.privet.engine.NoiseKind;
import org.privet.engine.Query;
import org.privet.engine.budget.BudgetSolver;
import org.privet.engine.budget.DefaultSplit;
import org.privet.engine.release.MechanismSpec;
import org.privet.engine.release.Release;
import org.privet.engine.selection.PartitionSelection;
import org.privet.engine.selection.SelectionChoice;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnLiterals;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * Compiles a {@link Query} into a bounded aggregation for the backend plus the noisy releases
 * ({@link Release}s, one {@link AggregationPlanner} per aggregation) and optional
 * {@link PartitionSelection}: rewrites for bounding (L0, L∞, clamping, fixed-point scale),
 * mechanism choice and the budget split. Afterwards it asserts that the charge
 * equals the composition of the mechanisms' losses and stays within the budget.
 *
 * <p>Privacy arguments: {@code docs/proofs/engine-bounding.md} (sensitivities),
 * {@code docs/proofs/engine-fixed-point.md} (grid), {@code docs/proofs/engine-budget-split.md}.
 */
public final class Compiler {
  /** Fixed-point values of sums and means stay within ±2^30 grid steps per row. */
  static final int SUM_BITS = 30;
  /** Values entering sums of squares stay within ±2^20 grid steps (squares within 2^40). */
  static final int SQUARE_BITS = 20;

  private Compiler() {}

  public static CompiledQuery compile(Query q, TableSchema schema, long salt) {
    validateColumns(q, schema);
    // Literals typed for their columns in Java, before the charge (issue 10, item 1).
    Optional<Filter> filter = q.filter().map(f -> typedFilter(f, schema));
    List<List<Object>> releaseKeys = q.publicGroups()
        .map(keys -> releaseKeys(keys, q.groupBy(), schema)).orElse(null);
    int l0 = q.maxGroupsContributed();
    List<AggregationPlanner> planners = q.aggregations().stream().map(AggregationPlanner::of)
        .toList();
    // Group selection: the strategy chosen among candidates, each compiled as it would run
    // (SelectionChoice; docs/proofs/optimal-partition-selection.md).
    SelectionChoice.Candidate chosen = q.usesPrivatePartitionSelection()
        ? chooseSelection(q, schema, planners) : null;
    boolean reuse = chosen != null && chosen.reuse();
    Rewrite first = chosen != null ? chosen.rewrite()
        : rewrite(q, schema, planners, SUM_BITS, SQUARE_BITS, false);
    double selectionWeight = chosen != null ? chosen.weight() : 1.0;
    NoiseKind noise = chosen != null ? chosen.noise()
        : resolveNoise(q, first, n -> null, selectionWeight, l0);
    Split split = chosen != null ? chosen.split() : split(q, first, noise, null, selectionWeight);
    Rewrite rw = gridded(q, schema, planners, noise, split, first, reuse);

    // 2. Mechanisms with the split budget.
    List<Release> planned = new ArrayList<>();
    for (int i = 0; i < rw.drafts.size(); i++) {
      Rewrite.Draft d = rw.drafts.get(i);
      MechanismSpec spec;
      Rewrite.Totals t = d.totals();
      if (d.exponential()) {
        // Under a total row cap m: each group's utility moves by at most its k_g ≤ m rows, so
        // ε per group at Δu = m costs Σ ε·k_g/m ≤ ε in all (docs/proofs/rows-contributed.md).
        spec = new MechanismSpec.Exponential(split.epsilon[i], d.perGroup(), t != null ? 1 : l0);
      } else if (t != null) {
        spec = noise == NoiseKind.LAPLACE ? new MechanismSpec.Geometric(split.epsilon[i], t.l1())
            : new MechanismSpec.DiscreteGaussian(split.rho[i], t.l2(), t.l2Squared());
      } else if (noise == NoiseKind.LAPLACE) {
        spec = new MechanismSpec.Geometric(split.epsilon[i],
            Math.multiplyExact(d.perGroup(), (long) l0));
      } else {
        spec = new MechanismSpec.DiscreteGaussian(split.rho[i],
            l2Sensitivity(d, l0, q.maxRowsPerGroup()), l2Squared(d, l0, q.maxRowsPerGroup()));
      }
      planned.add(new Release(d.target(), spec));
    }
    PartitionSelection sel = chosen != null ? chosen.selection() : null;

    // 3. The charge, and the assertion that it is the composition of the mechanisms' losses.
    List<MechanismCost> costs = new ArrayList<>();
    List<PrivacyLoss> losses = new ArrayList<>();
    if (sel != null) {
      costs.add(new MechanismCost("<groups>", "private partition selection ("
          + chosen.purpose() + ")", sel.describe(),
          sel.privacyLoss(), selectionWeight / split.totalWeight,
          shareReason(q.selectionBudgetWeight().isPresent()
              ? "selectionBudgetWeight = " + weight(selectionWeight)
              : chosen.weightReason(), selectionWeight, split.totalWeight)
              + "; " + chosen.reason()));
      losses.add(sel.privacyLoss());
      rw.bounds.add("group selection: " + chosen.reason());
      if (q.minPrivacyUnitsPerGroup() > 1) {
        rw.bounds.add("min_privacy_units_per_group = " + q.minPrivacyUnitsPerGroup() + ": the"
            + " selection runs on max(0, units − " + (q.minPrivacyUnitsPerGroup() - 1) + "), so no"
            + " group of fewer than " + q.minPrivacyUnitsPerGroup() + " units is released and"
            + " the unit counts above are " + (q.minPrivacyUnitsPerGroup() - 1) + " higher");
      }
    }
    for (int i = 0; i < planned.size(); i++) {
      Release r = planned.get(i);
      double w = split.weights.get(i);
      String reason = !split.optimised ? rw.reasons.get(i)
          : DefaultSplit.REASON + (rw.users.get(i).size() > 1
              ? "; shared by " + rw.users(i) : "");
      costs.add(new MechanismCost(rw.users(i), r.target().purpose(),
          r.mechanism().describe(), r.loss(), w / split.totalWeight,
          shareReason(reason, w, split.totalWeight)));
      losses.add(r.loss());
    }
    PrivacyLoss total = CompiledQuery.composedCost(q.budget(), losses);
    if (!q.budget().admits(total)) {
      throw new IllegalStateException("internal error: composed cost " + total
          + " exceeds the budget " + q.budget());
    }
    BoundedAggregation spec = new BoundedAggregation(q.source(), filter, q.privacyUnit(),
        q.groupBy(), Optional.ofNullable(releaseKeys)
            .map(keys -> keys.stream().filter(Objects::nonNull).toList()), l0,
        q.maxRowsPerGroup(), salt, rw.measures, q.maxRowsContributed());
    return new CompiledQuery(q, noise, spec, planned, rw.outputs, sel, costs, total,
        CompiledQuery.conversionDelta(q.budget(), losses), rw.bounds, releaseKeys,
        DefaultSplit.terms(rw));
  }

  /**
   * The rewrite at the finest fixed-point precision the grid limits allow while the noise
   * parameters of the mechanisms (scale or σ² as 63-bit rationals) stay representable for the
   * smallest share of {@code split}.
   */
  private static Rewrite gridded(Query q, TableSchema schema, List<AggregationPlanner> planners,
      NoiseKind noise, Split split, Rewrite first, boolean reuse) {
    int l0 = q.maxGroupsContributed();
    double room = Math.log(noise == NoiseKind.GAUSSIAN
        ? Math.scalb(Math.sqrt(2 * split.smallest(split.rho, first.drafts)), 29)
        : Math.scalb(split.smallest(split.epsilon, first.drafts), 56)) / Math.log(2)
        - Math.log(Math.sqrt(l0) * q.maxRowsPerGroup()) / Math.log(2);
    int sumBits = (int) Math.max(2, Math.min(SUM_BITS, Math.floor(room)));
    int squareBits = (int) Math.max(1, Math.min(SQUARE_BITS, Math.floor(room / 2)));
    Rewrite rw = rewrite(q, schema, planners, sumBits, squareBits, reuse);
    if (rw.drafts.size() != first.drafts.size()) {
      // The split was computed for the first rewrite's releases; the grid must not change them.
      throw new IllegalStateException("internal error: the releases changed with the grid");
    }
    return rw;
  }

  /** The noisy releases serving one output, by index into the compiled query's releases. */
  public record PlannedOutput(AggregationPlanner planner, List<Integer> releases) {
    public PlannedOutput {
      releases = List.copyOf(releases);
    }
  }

  /**
   * Rewrites the aggregations into backend measures and noisy releases, one planner each; with
   * {@code reuse} the threshold statistics (COUNT(*) at L∞ = 1, COUNT(DISTINCT unit)) get no
   * release of their own: partition selection's noisy count is their output.
   */
  private static Rewrite rewrite(Query q, TableSchema schema, List<AggregationPlanner> planners,
      int sumBits, int squareBits, boolean reuse) {
    Rewrite r = new Rewrite(q, schema, sumBits, squareBits, reuse);
    r.bounds.add("privacy unit: " + q.privacyUnit().map(u -> "column '" + u + "'")
        .orElse("each row") + " (neighbours: add/remove all rows of one unit)");
    if (r.rowsCap > 0) {
      r.bounds.add("max rows contributed = " + r.rowsCap + " (ZetaSQL's max_rows_contributed): each"
          + " unit keeps at most " + r.rowsCap + " rows in total over all groups, its groups taken"
          + " in salted-hash order until the rows run out (so at most " + r.rowsCap + " groups);"
          + " sensitivities over all groups, not per group × L0");
    } else {
      r.bounds.add("L0 (max groups per unit) = " + r.l0 + ", L∞ (max rows per unit per group) = "
          + r.lInf + (q.privacyUnit().isPresent()
              ? "; groups kept per unit by smallest salted hash, pair sums scaled to L∞ rows"
              : ""));
    }
    for (AggregationPlanner p : planners) {
      r.begin();
      p.plan(r);
      List<Integer> idx = r.end();
      r.outputs.add(new PlannedOutput(p, idx));
      String name = p.aggregation().name();
      Double explicit = q.budgetWeights().get(name);
      int n = idx.size();
      for (int i : idx) {
        double w;
        String reason;
        if (explicit == null) {
          w = 1.0;
          reason = "default weight: one share per noisy release";
        } else {
          w = explicit / n;
          reason = "budgetWeight('" + name + "') = " + weight(explicit)
              + (n > 1 ? ", split evenly over its " + n + " noisy releases" : "");
        }
        if (i == r.weights.size()) {
          r.weights.add(w);
          r.reasons.add(reason);
        } else {
          // A shared measurement: each output using it brings its weight.
          r.weights.set(i, r.weights.get(i) + w);
          r.reasons.set(i, r.reasons.get(i) + "; shared with '" + name + "': " + reason);
        }
      }
    }
    if (q.releaseWeights() != null) {
      // The solver's weights: one per release, the largest its outputs ask for (tightest target).
      for (int i = 0; i < r.drafts.size(); i++) {
        double w = Double.NaN;
        for (String u : r.users.get(i)) {
          Double x = q.releaseWeights().get(BudgetSolver.key(u, r.drafts.get(i).target().field()));
          if (x != null && !(x <= w)) {
            w = x;
          }
        }
        r.weights.set(i, Double.isNaN(w) ? 1.0 : w);
        r.reasons.set(i, "solved for the targets: the tightest requirement among "
            + r.users(i) + (r.users.get(i).size() > 1 ? " (one shared measurement)" : ""));
      }
    }
    return r;
  }

  private static String shareReason(String reason, double weight, double total) {
    return reason + " (weight " + weight(weight) + " of " + weight(total) + ")";
  }

  /** A weight for receipts: plain decimal, at most 6 significant digits. */
  private static String weight(double w) {
    return new java.math.BigDecimal(w).round(new java.math.MathContext(6)).stripTrailingZeros()
        .toPlainString();
  }

  /**
   * The magnitude a pair clamp may force onto the grid, per row: with {@code allRows} the group
   * bound over L∞ (so the grid's per-group range stays within L∞ rows' worth), else 0 (a capped
   * pair sum is already within L∞ × the row bound).
   */
  static double pairMagnitude(Aggregation.GroupBounds gb, long lInf) {
    if (gb == null || !gb.allRows()) {
      return 0;
    }
    return Math.max(Math.abs(gb.lower()), Math.abs(gb.upper())) / lInf;
  }

  /**
   * The per-group sensitivity (grid units) of a fixed-point sum over one unit's pair, centred at
   * {@code center}: the largest |s − center·k| over every value s a pair with k ∈ [0, L∞] bounded
   * values can produce under the {@link Measure.FixedPointSum} contract. Without a pair clamp this
   * is L∞·max(|a − center|, |b − center|); with a capped clamp, k values give a sum in [k·a, k·b]
   * clamped to [A, B]; with an all-rows clamp (center 0 only), any sum clamped to [A, B]. A pair
   * with no values contributes 0. ({@code docs/proofs/engine-bounding.md}.)
   */
  static long pairSensitivity(long a, long b, Measure.PairClamp pc, long lInf, long center) {
    if (pc == null) {
      return Math.multiplyExact(lInf, Math.max(Math.abs(a - center), Math.abs(b - center)));
    }
    if (pc.allRows()) {
      if (center != 0) {
        throw new IllegalStateException("an all-rows pair clamp cannot be centred");
      }
      return Math.max(Math.abs(pc.lower()), Math.abs(pc.upper()));
    }
    long m = 0;
    for (long k = 1; k <= lInf; k++) {
      long c = Math.multiplyExact(center, k);
      long lo = Math.max(pc.lower(), Math.min(pc.upper(), Math.multiplyExact(k, a)));
      long hi = Math.max(pc.lower(), Math.min(pc.upper(), Math.multiplyExact(k, b)));
      m = Math.max(m, Math.max(Math.abs(lo - c), Math.abs(hi - c)));
    }
    return m;
  }

  /**
   * The largest |s − center·j| a pair with exactly j bounded values can give (no clamp: j·max|v −
   * center|; capped clamp: the clamped ends of [j·a, j·b]; all-rows clamp: max(|A|, |B|)); {@link
   * #pairSensitivity} is its maximum over j ≤ L∞. Used per pair under a total row cap ({@link
   * Rewrite.Totals#of}).
   */
  static long pairStep(long a, long b, Measure.PairClamp pc, long j, long center) {
    if (pc == null) {
      return Math.multiplyExact(j, Math.max(Math.abs(a - center), Math.abs(b - center)));
    }
    if (pc.allRows()) {
      return Math.max(Math.abs(pc.lower()), Math.abs(pc.upper()));
    }
    long c = Math.multiplyExact(center, j);
    long lo = Math.max(pc.lower(), Math.min(pc.upper(), Math.multiplyExact(j, a)));
    long hi = Math.max(pc.lower(), Math.min(pc.upper(), Math.multiplyExact(j, b)));
    return Math.max(Math.abs(lo - c), Math.abs(hi - c));
  }

  /**
   * The L2 sensitivity over all groups of a Gaussian release: a quantile tree's per-group L2 norm
   * is L∞·√H (one node per level, H levels), others ⌈√L0·perGroup⌉.
   */
  static long l2Sensitivity(Rewrite.Draft d, int l0, int lInf) {
    return d.treeLevels() > 0
        ? l2(lInf, Math.multiplyExact(l0, d.treeLevels()))
        : l2(d.perGroup(), l0);
  }

  /**
   * The exact squared L2 sensitivity of a Gaussian release (L0·pg², a tree's L0·H·L∞²), or 0
   * when it does not fit a long (sums on fine grids, where ⌈Δ₂⌉ loses nothing measurable).
   */
  static long l2Squared(Rewrite.Draft d, int l0, int lInf) {
    try {
      return d.treeLevels() > 0
          ? Math.multiplyExact(Math.multiplyExact((long) lInf, (long) lInf),
              Math.multiplyExact((long) l0, (long) d.treeLevels()))
          : Math.multiplyExact(Math.multiplyExact(d.perGroup(), d.perGroup()), (long) l0);
    } catch (ArithmeticException e) {
      return 0;
    }
  }

  /** ⌈√(l0 · pg²)⌉: the L2 norm of a unit's contributions over l0 groups, rounded up. */
  public static long l2(long pg, int l0) {
    BigInteger sq = BigInteger.valueOf(pg).pow(2).multiply(BigInteger.valueOf(l0));
    BigInteger r = sq.sqrt();
    if (r.multiply(r).compareTo(sq) < 0) {
      r = r.add(BigInteger.ONE);
    }
    return r.longValueExact();
  }

  /**
   * The thresholding kind for a noisy-count selection: the query's LAPLACE or GAUSSIAN override,
   * else Gaussian when the value noise is Gaussian or the budget is zCDP, else Laplace.
   */
  static PartitionSelection.Kind thresholdKind(Query q, NoiseKind noise) {
    return switch (q.thresholding()) {
      case LAPLACE -> PartitionSelection.Kind.LAPLACE;
      case GAUSSIAN -> PartitionSelection.Kind.GAUSSIAN;
      default -> noise == NoiseKind.GAUSSIAN || q.budget().isZcdp()
          ? PartitionSelection.Kind.GAUSSIAN : PartitionSelection.Kind.LAPLACE;
    };
  }

  /** Compiles each candidate selection strategy of the query and keeps the best (SelectionChoice). */
  private static SelectionChoice.Candidate chooseSelection(Query q, TableSchema schema,
      List<AggregationPlanner> planners) {
    List<SelectionChoice.Candidate> built = new ArrayList<>();
    IllegalArgumentException refused = null;
    for (SelectionChoice.Option o : SelectionChoice.options(q)) {
      try {
        built.add(candidate(q, schema, planners, o));
      } catch (IllegalArgumentException e) { // e.g. a share too small for one kind (public)
        refused = refused == null ? e : refused;
      }
    }
    if (built.isEmpty()) {
      throw refused;
    }
    return SelectionChoice.best(q, built);
  }

  /** One candidate compiled as it would run: rewrite, noise kind, budget split and selection. */
  private static SelectionChoice.Candidate candidate(Query q, TableSchema schema,
      List<AggregationPlanner> planners, SelectionChoice.Option o) {
    int l0 = q.maxGroupsContributed();
    Rewrite rw = rewrite(q, schema, planners, SUM_BITS, SQUARE_BITS, o.reuse());
    double w = DefaultSplit.selectionWeight(q, rw, SelectionChoice.weight(q, o.reuse()));
    Function<NoiseKind, PartitionSelection.Kind> kindFor =
        n -> o.kind() != null ? o.kind() : thresholdKind(q, n);
    NoiseKind noise = resolveNoise(q, rw, kindFor, w, l0);
    PartitionSelection.Kind kind = kindFor.apply(noise);
    Split split = split(q, rw, noise, kind, w);
    PartitionSelection sel = switch (kind) {
      case LAPLACE -> PartitionSelection.laplace(split.selectionEpsilon, split.selectionDelta, l0);
      case GAUSSIAN -> PartitionSelection.gaussian(split.selectionRho, split.selectionDelta, l0);
      case OPTIMAL -> PartitionSelection.optimal(split.selectionEpsilon, split.selectionDelta, l0);
      case SET_UNION -> PartitionSelection.setUnion(split.selectionRho, split.selectionDelta, l0);
    };
    return new SelectionChoice.Candidate(o, noise, kind, rw, split, w, sel);
  }

  /**
   * The split of {@code rw}'s releases: with explicit budget weights as given, else the default
   * split ({@link DefaultSplit}: the textbook equal split per output, shared releases summed).
   */
  private static Split split(Query q, Rewrite rw, NoiseKind noise,
      PartitionSelection.Kind selection, double selectionWeight) {
    boolean optimised = DefaultSplit.applies(q);
    List<Double> weights = optimised ? DefaultSplit.weights(rw, rw.weights) : rw.weights;
    Split s = Split.of(q.budget(), noise, rw.drafts, weights, selection, selectionWeight);
    s.optimised = optimised;
    return s;
  }

  private static NoiseKind resolveNoise(Query q, Rewrite rw,
      Function<NoiseKind, PartitionSelection.Kind> selection, double selectionWeight, int l0) {
    if (q.noise() != NoiseKind.AUTO) {
      return q.noise();
    }
    PrivacyLoss b = q.budget().loss();
    if (b instanceof PureDp) {
      return NoiseKind.LAPLACE;
    }
    if (q.budget().isZcdp()) {
      return NoiseKind.GAUSSIAN;
    }
    // (ε, δ): the kind whose total noise variance over the releases (each relative to its
    // per-group sensitivity) is smaller; both splits are computed exactly as they would be used,
    // with each release's actual L1 (L0·pg) and L2 sensitivities.
    Split lap = Split.of(q.budget(), NoiseKind.LAPLACE, rw.drafts, rw.weights,
        selection.apply(NoiseKind.LAPLACE), selectionWeight);
    Split gau = Split.of(q.budget(), NoiseKind.GAUSSIAN, rw.drafts, rw.weights,
        selection.apply(NoiseKind.GAUSSIAN), selectionWeight);
    double lapVar = 0;
    double gauVar = 0;
    for (int i = 0; i < rw.drafts.size(); i++) {
      Rewrite.Draft d = rw.drafts.get(i);
      if (!d.exponential()) {
        double pg = d.perGroup();
        double l1 = d.totals() != null ? d.totals().l1() / pg : l0;
        double l2 = (d.totals() != null ? d.totals().l2()
            : l2Sensitivity(d, l0, q.maxRowsPerGroup())) / pg;
        lapVar += 2 * Math.pow(l1 / lap.epsilon[i], 2);
        gauVar += gau.rho[i] > 0 ? l2 * l2 / (2 * gau.rho[i]) : Double.POSITIVE_INFINITY;
      }
    }
    return gauVar < lapVar ? NoiseKind.GAUSSIAN : NoiseKind.LAPLACE;
  }

  /**
   * The budget split: each part (partition selection, every noisy release) gets the fraction
   * weight/Σweights of the budget ({@code docs/proofs/engine-budget-split.md}); with the default
   * weights (one per release, 1 for selection) these are equal shares.
   *
   * <ul>
   *   <li>ε budget: ε·w/W per release (no selection).
   *   <li>ρ or ρ-plus-δ budget: ρ·w/W per release and for selection (pure parts use ε with
   *       ε²/2 = their share); selection takes all of δ.
   *   <li>(ε, δ) budget: pure parts (Laplace/exponential releases, Laplace selection) take ε·w/W
   *       each; the zCDP parts (Gaussian releases, Gaussian selection) share one ρ, in proportion
   *       to their weights, whose conversion at δ − δ<sub>sel</sub> spends the rest of ε;
   *       δ<sub>sel</sub> = δ/2 when some part is converted (as Google's Gaussian thresholding
   *       splits δ), else all of δ.
   * </ul>
   */
  public static final class Split {
    double[] epsilon; // per geometric or exponential release
    double[] rho; // per discrete Gaussian release
    double selectionEpsilon; // Laplace thresholding
    double selectionRho; // Gaussian thresholding
    double selectionDelta;
    double totalWeight;
    List<Double> weights; // per release
    boolean optimised; // weights from DefaultSplit

    static Split of(Budget budget, NoiseKind noise, List<Rewrite.Draft> releases,
        List<Double> weights,
        PartitionSelection.Kind selection, double selectionWeight) {
      final double shrink = BudgetSplit.SHRINK; // keeps the upward-rounded composition within the budget
      Split s = new Split();
      int n = releases.size();
      s.epsilon = new double[n];
      s.rho = new double[n];
      double total = selection != null ? selectionWeight : 0;
      for (double w : weights) {
        total += w;
      }
      s.totalWeight = total;
      s.weights = List.copyOf(weights);
      PrivacyLoss b = budget.loss();
      if (b instanceof PureDp p) {
        for (int i = 0; i < n; i++) {
          s.epsilon[i] = BudgetSplit.share(p.epsilon(), weights.get(i), total);
        }
      } else if (budget.isZcdp()) {
        for (int i = 0; i < n; i++) {
          double rhoEach = BudgetSplit.share(budget.rho(), weights.get(i), total);
          s.rho[i] = rhoEach;
          s.epsilon[i] = Math.sqrt(2 * rhoEach) * shrink; // ε-DP ⇒ ε²/2-zCDP
        }
        if (selection != null) {
          double selRho = BudgetSplit.share(budget.rho(), selectionWeight, total);
          s.selectionDelta = budget.delta() * shrink;
          if (gaussianSelection(selection)) {
            s.selectionRho = selRho;
          } else {
            s.selectionEpsilon = Math.sqrt(2 * selRho) * shrink;
          }
        }
      } else {
        ApproxDp a = (ApproxDp) b;
        boolean gaussian = noise == NoiseKind.GAUSSIAN;
        double pure = 0;
        double zWeight = 0;
        for (int i = 0; i < n; i++) {
          s.epsilon[i] = BudgetSplit.share(a.epsilon(), weights.get(i), total);
          if (gaussian && !releases.get(i).exponential()) {
            zWeight += weights.get(i);
          } else {
            pure += s.epsilon[i];
          }
        }
        if (selection == PartitionSelection.Kind.LAPLACE
            || selection == PartitionSelection.Kind.OPTIMAL) {
          s.selectionEpsilon = BudgetSplit.share(a.epsilon(), selectionWeight, total);
          pure += s.selectionEpsilon;
        } else if (gaussianSelection(selection)) {
          zWeight += selectionWeight;
        }
        if (zWeight == 0) {
          s.selectionDelta = selection != null ? a.delta() * shrink : 0;
        } else {
          s.selectionDelta = selection != null ? a.delta() / 2 * shrink : 0;
          double conversionDelta = a.delta() - s.selectionDelta;
          double epsRest = (a.epsilon() - pure) * shrink;
          double rhoTotal = ZcdpConversion.largestRho(epsRest, conversionDelta);
          for (int i = 0; i < n; i++) {
            if (gaussian && !releases.get(i).exponential()) {
              s.rho[i] = BudgetSplit.share(rhoTotal, weights.get(i), zWeight);
            }
          }
          if (gaussianSelection(selection)) {
            s.selectionRho = BudgetSplit.share(rhoTotal, selectionWeight, zWeight);
          }
        }
      }
      return s;
    }

    /** The smallest entry of {@code values} over non-exponential releases (1 if there are none). */
    double smallest(double[] values, List<Rewrite.Draft> releases) {
      double m = Double.POSITIVE_INFINITY;
      for (int i = 0; i < values.length; i++) {
        if (!releases.get(i).exponential()) {
          m = Math.min(m, values[i]);
        }
      }
      return Double.isInfinite(m) ? 1 : m;
    }
  }

  /** Whether a selection is a Gaussian part (a ρ share and δ): thresholding or set union. */
  static boolean gaussianSelection(PartitionSelection.Kind k) {
    return k == PartitionSelection.Kind.GAUSSIAN || k == PartitionSelection.Kind.SET_UNION;
  }

  /** A fixed-point grid 2^-k for a clamping range. */
  static final class Grid {
    final int k;
    final long a; // ⌊lower·2^k⌋
    final long b; // ⌈upper·2^k⌉
    final long center;

    private Grid(int k, long a, long b, long center) {
      this.k = k;
      this.a = a;
      this.b = b;
      this.center = center;
    }

    /** The largest k ≤ 60 with max(|lower|, |upper|)·2^k ≤ 2^bits. */
    static Grid of(double lower, double upper, int bits, boolean centred) {
      return of(lower, upper, bits, centred, 0);
    }

    /** The largest k ≤ 60 with max(|lower|, |upper|, extra)·2^k ≤ 2^bits. */
    static Grid of(double lower, double upper, int bits, boolean centred, double extra) {
      double m = Math.max(Math.max(Math.abs(lower), Math.abs(upper)), extra);
      int k = bits - Math.getExponent(m) - 1;
      while (k < 60 && Math.scalb(m, k + 1) <= Math.scalb(1.0, bits)) {
        k++;
      }
      while (Math.scalb(m, k) > Math.scalb(1.0, bits)) {
        k--;
      }
      k = Math.min(k, 60);
      long a = (long) Math.floor(Math.scalb(lower, k));
      long b = (long) Math.ceil(Math.scalb(upper, k));
      long c = centred ? Math.floorDiv(a + b, 2) : 0;
      return new Grid(k, a, b, c);
    }

    /**
     * The pair clamp for group bounds on this grid ([⌊lower·2^k⌋, ⌈upper·2^k⌉], saturated at
     * ±2^62, far beyond any reachable pair sum), or null without group bounds.
     */
    Measure.PairClamp pairClamp(Aggregation.GroupBounds gb) {
      if (gb == null) {
        return null;
      }
      double cap = 0x1p62;
      long lo = (long) Math.floor(Math.max(-cap, Math.min(cap, Math.scalb(gb.lower(), k))));
      long hi = (long) Math.ceil(Math.max(-cap, Math.min(cap, Math.scalb(gb.upper(), k))));
      return new Measure.PairClamp(lo, hi, gb.allRows());
    }

    String describePair(String name, Aggregation.GroupBounds gb, Measure.PairClamp pc, long lInf,
        long sensitivity) {
      return name + ": each unit's total in a group " + (gb.allRows()
          ? "(over all its rows, not scaled to L∞)" : "(over its L∞-bounded rows)")
          + " clamped to [" + gb.lower() + ", " + gb.upper() + "] (integers " + pc.lower() + ".."
          + pc.upper() + "); per-group sensitivity " + sensitivity + " grid steps"
          + (gb.allRows() ? "" : " (the tighter of L∞ × row bound = "
              + pairSensitivity(a, b, null, lInf, 0) + " and the group bound)");
    }

    /** Largest |value − center| of a clamped, scaled value. */
    long maxAbs() {
      return Math.max(Math.abs(a - center), Math.abs(b - center));
    }

    String describe(String name, String column, double lower, double upper) {
      return name + ": " + column + " clamped to [" + lower + ", " + upper + "], fixed point 2^-"
          + k + " (integers " + a + ".." + b + (center != 0 ? ", centred at " + center : "")
          + "), NULL/NaN ignored, ±∞ clamped";
    }
  }

  private static void validateColumns(Query q, TableSchema schema) {
    q.privacyUnit().ifPresent(u -> require(schema, u, "privacyUnit"));
    for (String g : q.groupBy()) {
      require(schema, g, "groupBy");
    }
    for (Aggregation a : q.aggregations()) {
      AggregationPlanner.of(a).column().ifPresent(col -> {
        if (!require(schema, col, a.name()).type().isNumeric()) {
          throw new IllegalArgumentException(a.name() + ": column '" + col + "' is not numeric");
        }
      });
    }
  }

  private static TableSchema.Column require(TableSchema schema, String column, String parameter) {
    return schema.column(column).orElseThrow(() -> new IllegalArgumentException(
        parameter + ": unknown column '" + column + "'"));
  }

  private static Filter typedFilter(Filter f, TableSchema schema) {
    try {
      return ColumnLiterals.typed(f, schema);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("where: " + e.getMessage());
    }
  }

  /**
   * The public keys typed for their columns, in the query's order; null for a key that no row can
   * have (a value outside its column's type: released as an empty group). Refuses two keys that
   * are the same group once typed (e.g. '2020-01-01' and a LocalDate on a DATE column, issue 10
   * item 5): each listed group is released once per charge.
   */
  private static List<List<Object>> releaseKeys(List<List<Object>> keys, List<String> groupBy,
      TableSchema schema) {
    List<TableSchema.Column> columns = new ArrayList<>();
    for (String g : groupBy) {
      columns.add(require(schema, g, "publicGroups"));
    }
    List<List<Object>> out = new ArrayList<>();
    Set<List<Object>> seen = new HashSet<>();
    for (List<Object> key : keys) {
      List<Object> typed;
      try {
        typed = ColumnLiterals.key(key, columns).orElse(null);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("publicGroups: " + e.getMessage());
      }
      if (typed != null && !seen.add(GroupKeys.canonical(typed))) {
        throw new IllegalArgumentException("publicGroups must not repeat a key (keys are compared"
            + " as values of their columns' types)");
      }
      out.add(typed);
    }
    return Collections.unmodifiableList(out);
  }
}
