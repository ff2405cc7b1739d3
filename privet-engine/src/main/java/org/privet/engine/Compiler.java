package org.privet.engine;

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
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnLiterals;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * Compiles a {@link Query} into a bounded aggregation for the backend plus the noisy releases
 * ({@link Slot}s) and optional {@link PartitionSelection}: rewrites for bounding (L0, L∞, clamping,
 * fixed-point scale), mechanism choice and the budget split. Afterwards it asserts that the charge
 * equals the composition of the mechanisms' losses and stays within the budget.
 *
 * <p>Privacy arguments: {@code docs/proofs/engine-bounding.md} (sensitivities),
 * {@code docs/proofs/engine-fixed-point.md} (grid), {@code docs/proofs/engine-budget-split.md}.
 */
final class Compiler {
  /** Fixed-point values of sums and means stay within ±2^30 grid steps per row. */
  static final int SUM_BITS = 30;
  /** Values entering sums of squares stay within ±2^20 grid steps (squares within 2^40). */
  static final int SQUARE_BITS = 20;

  private Compiler() {}

  static CompiledQuery compile(Query q, TableSchema schema, long salt) {
    validateColumns(q, schema);
    // Literals typed for their columns in Java, before the charge (issue 10, item 1).
    Optional<Filter> filter = q.filter().map(f -> typedFilter(f, schema));
    List<List<Object>> releaseKeys = q.publicGroups()
        .map(keys -> releaseKeys(keys, q.groupBy(), schema)).orElse(null);
    int l0 = q.maxGroupsContributed();
    // Group selection: the strategy chosen among candidates, each compiled as it would run
    // (SelectionChoice; docs/proofs/optimal-partition-selection.md).
    SelectionChoice.Candidate chosen = q.usesPrivatePartitionSelection()
        ? chooseSelection(q) : null;
    boolean reuse = chosen != null && chosen.reuse();
    Rewrite first = chosen != null ? chosen.rewrite() : rewrite(q, SUM_BITS, SQUARE_BITS, false);
    double selectionWeight = chosen != null ? chosen.weight() : 1.0;
    NoiseKind noise = chosen != null ? chosen.noise()
        : resolveNoise(q, first, n -> null, selectionWeight, l0);
    Split split = chosen != null ? chosen.split() : Split.of(q.budget(), noise, first.slots(),
        first.weights(), null, selectionWeight);
    // Fixed-point precision: as fine as the grid limits allow while the noise parameters of the
    // mechanisms (scale or σ² as 63-bit rationals) stay representable for the smallest share.
    double room = Math.log(noise == NoiseKind.GAUSSIAN
        ? Math.scalb(Math.sqrt(2 * split.smallest(split.rho, first.slots())), 29)
        : Math.scalb(split.smallest(split.epsilon, first.slots()), 56)) / Math.log(2)
        - Math.log(Math.sqrt(l0) * q.maxRowsPerGroup()) / Math.log(2);
    int sumBits = (int) Math.max(2, Math.min(SUM_BITS, Math.floor(room)));
    int squareBits = (int) Math.max(1, Math.min(SQUARE_BITS, Math.floor(room / 2)));
    Rewrite rw = rewrite(q, sumBits, squareBits, reuse);
    List<Measure> measures = rw.measures();
    List<Slot> slots = rw.slots();
    List<int[]> outputSlots = rw.outputSlots();
    List<String> bounds = rw.bounds();
    List<long[]> perGroup = rw.perGroup();

    // 2. Mechanisms with the split budget.
    List<Slot> planned = new ArrayList<>();
    for (int i = 0; i < slots.size(); i++) {
      Slot s = slots.get(i);
      long pg = perGroup.get(i)[0];
      if (s.kind() == Slot.Kind.EXPONENTIAL) {
        planned.add(new Slot(s.output(), s.purpose(), Slot.Kind.EXPONENTIAL, s.field(),
            s.measure(), pg, 0, split.epsilon[i], 0, s.rank(), l0, 0));
      } else if (noise == NoiseKind.LAPLACE) {
        planned.add(new Slot(s.output(), s.purpose(), Slot.Kind.LAPLACE, s.field(), s.measure(),
            Math.multiplyExact(pg, (long) l0), s.scaleExponent(), split.epsilon[i], 0, 0, l0,
            s.center()));
      } else {
        long l2 = l2Sensitivity(s, perGroup.get(i), l0, q.maxRowsPerGroup());
        planned.add(new Slot(s.output(), s.purpose(), Slot.Kind.GAUSSIAN, s.field(), s.measure(),
            l2, s.scaleExponent(), 0, split.rho[i], 0, l0, s.center()));
      }
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
      bounds.add("group selection: " + chosen.reason());
    }
    for (int i = 0; i < planned.size(); i++) {
      Slot s = planned.get(i);
      double w = rw.weights().get(i);
      costs.add(new MechanismCost(s.output(), s.purpose(), s.mechanismName(), s.loss(),
          w / split.totalWeight, shareReason(rw.reasons().get(i), w, split.totalWeight)));
      losses.add(s.loss());
    }
    PrivacyLoss total = CompiledQuery.composedCost(q.budget(), losses);
    if (!q.budget().admits(total)) {
      throw new IllegalStateException("internal error: composed cost " + total
          + " exceeds the budget " + q.budget());
    }
    BoundedAggregation spec = new BoundedAggregation(q.source(), filter, q.privacyUnit(),
        q.groupBy(), Optional.ofNullable(releaseKeys)
            .map(keys -> keys.stream().filter(Objects::nonNull).toList()), l0,
        q.maxRowsPerGroup(), salt, measures);
    return new CompiledQuery(q, noise, spec, planned, outputSlots, sel, costs, total,
        CompiledQuery.conversionDelta(q.budget(), losses), bounds, releaseKeys);
  }

  /**
   * Rewrites the aggregations into backend measures and noisy-release slots; with {@code reuse}
   * the threshold statistics (COUNT(*) at L∞ = 1, COUNT(DISTINCT unit)) get no release of their
   * own: partition selection's noisy count is their output.
   */
  private static Rewrite rewrite(Query q, int sumBits, int squareBits, boolean reuse) {
    int l0 = q.maxGroupsContributed();
    long lInf = q.maxRowsPerGroup();
    List<Measure> measures = new ArrayList<>();
    List<Slot> slots = new ArrayList<>();
    List<int[]> outputSlots = new ArrayList<>();
    List<String> bounds = new ArrayList<>();
    bounds.add("privacy unit: " + q.privacyUnit().map(u -> "column '" + u + "'")
        .orElse("each row") + " (neighbours: add/remove all rows of one unit)");
    bounds.add("L0 (max groups per unit) = " + l0 + ", L∞ (max rows per unit per group) = "
        + lInf + (q.privacyUnit().isPresent()
            ? "; groups kept per unit by smallest salted hash, pair sums scaled to L∞ rows" : ""));

    // 1. Per-aggregation rewrites: measures and per-group sensitivities (grid units).
    List<long[]> perGroup = new ArrayList<>(); // per slot: {per-group sensitivity}
    List<Double> weights = new ArrayList<>(); // per slot: budget shares
    List<String> reasons = new ArrayList<>(); // per slot: why those shares
    for (Aggregation a : q.aggregations()) {
      int first = slots.size();
      if (a instanceof Aggregation.Count c && reuse && lInf == 1) {
        // L∞ = 1: the row count is the distinct-unit count that selection noises and thresholds.
        bounds.add(c.name() + ": the partition selection's noisy distinct-unit count, which "
            + "equals the row count at L∞ = 1 (post-aggregation thresholding, no extra cost)");
      } else if (a instanceof Aggregation.Count c) {
        slots.add(slot(c.name(), "noisy row count", Slot.Field.ROWS, -1, 0));
        perGroup.add(new long[] {lInf});
      } else if (a instanceof Aggregation.CountDistinctUnits c) {
        if (reuse) {
          // No release of its own: the selection's thresholded noisy count is the output.
          bounds.add(c.name() + ": the partition selection's noisy distinct-unit count "
              + "(post-aggregation thresholding, no extra cost)");
        } else {
          slots.add(slot(c.name(), "noisy count of distinct units", Slot.Field.UNITS, -1, 0));
          perGroup.add(new long[] {1});
        }
      } else if (a instanceof Aggregation.Sum s) {
        Grid g = Grid.of(s.lower(), s.upper(), sumBits, false, pairMagnitude(s.perGroup(), lInf));
        Measure.PairClamp pc = g.pairClamp(s.perGroup());
        int mi = measureIndex(measures,
            new Measure.FixedPointSum(s.column(), s.lower(), s.upper(), g.k, 0, false, pc));
        bounds.add(g.describe(s.name(), s.column(), s.lower(), s.upper()));
        // At least one grid step: a degenerate group bound [c, c] still gets a valid mechanism.
        long sens = Math.max(1, pairSensitivity(g.a, g.b, pc, lInf, 0));
        if (pc != null) {
          bounds.add(g.describePair(s.name(), s.perGroup(), pc, lInf, sens));
        }
        slots.add(slot(s.name(), "noisy sum of " + s.column(), Slot.Field.SUM, mi, g.k));
        perGroup.add(new long[] {sens});
      } else if (a instanceof Aggregation.Mean m) {
        Grid g = Grid.of(m.lower(), m.upper(), sumBits, true, pairMagnitude(m.perGroup(), lInf));
        Measure.PairClamp pc = g.pairClamp(m.perGroup());
        bounds.add(g.describe(m.name(), m.column(), m.lower(), m.upper()));
        // Centre the released sum where that lowers its sensitivity (the row range's centre
        // without a pair clamp; with one, the clamp acts on uncentred sums, so another centre
        // may be tighter).
        // Candidates: the row range's centre, 0, and the pair bounds' centre.
        long center = g.center;
        long sens = pairSensitivity(g.a, g.b, pc, lInf, g.center);
        if (pc != null) {
          for (long c : new long[] {0, Math.floorDiv(pc.lower(), 2) + Math.floorDiv(pc.upper(), 2)}) {
            long cs = pairSensitivity(g.a, g.b, pc, lInf, c);
            if (cs < sens && cs > 0) {
              sens = cs;
              center = c;
            }
          }
        }
        sens = Math.max(1, sens); // at least one grid step (degenerate group bounds)
        if (pc != null) {
          bounds.add(g.describePair(m.name(), m.perGroup(), pc, lInf, sens));
        }
        // The backend centres the sum itself, so that the per-group saturation at the public cap
        // acts on the released (centred) statistic and keeps its sensitivity (issue 10, item 3).
        int mi = measureIndex(measures,
            new Measure.FixedPointSum(m.column(), m.lower(), m.upper(), g.k, center, false, pc));
        Slot centred = slot(m.name(), "noisy " + (center != 0 ? "centred " : "") + "sum of "
            + m.column() + " (mean = sum/count)", Slot.Field.SUM, mi, g.k);
        slots.add(new Slot(centred.output(), centred.purpose(), centred.kind(), centred.field(),
            mi, 0, g.k, 0, 0, 0, 1, center));
        perGroup.add(new long[] {sens});
        slots.add(slot(m.name(), "noisy count of non-null " + m.column() + " (mean)",
            Slot.Field.COUNT, mi, 0));
        perGroup.add(new long[] {lInf});
      } else if (a instanceof Aggregation.Variance || a instanceof Aggregation.StdDev) {
        String col = a instanceof Aggregation.Variance v ? v.column()
            : ((Aggregation.StdDev) a).column();
        double lo = a instanceof Aggregation.Variance v ? v.lower()
            : ((Aggregation.StdDev) a).lower();
        double hi = a instanceof Aggregation.Variance v ? v.upper()
            : ((Aggregation.StdDev) a).upper();
        Grid g = Grid.of(lo, hi, squareBits, true);
        measures.add(new Measure.FixedPointSum(col, lo, hi, g.k, g.center, true));
        bounds.add(g.describe(a.name(), col, lo, hi));
        int mi = measures.size() - 1;
        slots.add(slot(a.name(), "noisy centred sum of " + col + " (variance)", Slot.Field.SUM,
            mi, g.k));
        perGroup.add(new long[] {Math.multiplyExact(lInf, g.maxAbs())});
        slots.add(slot(a.name(), "noisy sum of squares of " + col + " (variance)",
            Slot.Field.SQUARES, mi, 2 * g.k));
        perGroup.add(new long[] {Math.multiplyExact(lInf,
            Math.multiplyExact(g.maxAbs(), g.maxAbs()))});
        slots.add(slot(a.name(), "noisy count of non-null " + col + " (variance)",
            Slot.Field.COUNT, mi, 0));
        perGroup.add(new long[] {lInf});
      } else if (a instanceof Aggregation.Histogram h) {
        measures.add(new Measure.Bins(h.column(), h.lower(), h.upper(), h.bins()));
        bounds.add(h.name() + ": " + h.bins() + " cells over [" + h.lower() + ", " + h.upper()
            + "] of " + h.column() + ", NULL/NaN ignored, ≤ L∞ rows per unit per group");
        slots.add(slot(h.name(), "noisy cell counts of " + h.column(), Slot.Field.BINS,
            measures.size() - 1, 0));
        perGroup.add(new long[] {lInf});
      } else if (a instanceof Aggregation.Quantiles qs) {
        measures.add(new Measure.Bins(qs.column(), qs.lower(), qs.upper(), qs.bins()));
        bounds.add(qs.name() + ": quantiles on a grid of " + qs.bins() + " cells over ["
            + qs.lower() + ", " + qs.upper() + "] of " + qs.column()
            + ", NULL/NaN ignored, ≤ L∞ rows per unit per group");
        if (qs.method() == Aggregation.Quantiles.Method.TREE) {
          // One noisy quantile tree for all ranks: each kept row counts in one node per level.
          QuantileTree tree = new QuantileTree(qs.bins(), QuantileTree.BRANCHING);
          int levels = tree.levels();
          slots.add(slot(qs.name(), "quantile tree of " + qs.column() + " for ranks "
              + qs.ranks() + " (branching " + QuantileTree.BRANCHING + ", " + levels
              + " levels, " + tree.size() + " noisy node counts per group)", Slot.Field.TREE,
              measures.size() - 1, 0));
          perGroup.add(new long[] {Math.multiplyExact(lInf, (long) levels), levels});
        } else {
          for (double r : qs.ranks()) {
            Slot s = slot(qs.name(), "exponential-mechanism quantile " + r + " of "
                + qs.column(), Slot.Field.QUANTILE, measures.size() - 1, 0);
            slots.add(new Slot(s.output(), s.purpose(), Slot.Kind.EXPONENTIAL, s.field(),
                s.measure(), 0, 0, 0, 0, r, l0, 0));
            perGroup.add(new long[] {lInf});
          }
        }
      }
      int[] idx = new int[slots.size() - first];
      for (int i = 0; i < idx.length; i++) {
        idx[i] = first + i;
      }
      outputSlots.add(idx);
      Double explicit = q.budgetWeights().get(a.name());
      for (int i = 0; i < idx.length; i++) {
        if (explicit == null) {
          weights.add(1.0);
          reasons.add("default weight: one share per noisy release");
        } else {
          weights.add(explicit / idx.length);
          reasons.add("budgetWeight('" + a.name() + "') = " + weight(explicit)
              + (idx.length > 1 ? ", split evenly over its " + idx.length + " noisy releases"
                  : ""));
        }
      }
    }

    return new Rewrite(measures, slots, outputSlots, bounds, perGroup, weights, reasons);
  }

  record Rewrite(List<Measure> measures, List<Slot> slots, List<int[]> outputSlots,
      List<String> bounds, List<long[]> perGroup, List<Double> weights, List<String> reasons) {}

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
  private static double pairMagnitude(Aggregation.GroupBounds gb, long lInf) {
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

  /** The index of {@code m} in {@code measures}, adding it if absent (shared by SUM and MEAN). */
  private static int measureIndex(List<Measure> measures, Measure m) {
    int i = measures.indexOf(m);
    if (i >= 0) {
      return i;
    }
    measures.add(m);
    return measures.size() - 1;
  }

  private static Slot slot(String output, String purpose, Slot.Field field, int measure, int k) {
    return new Slot(output, purpose, Slot.Kind.LAPLACE, field, measure, 0, k, 0, 0, 0, 1, 0);
  }

  /**
   * The L2 sensitivity over all groups of a Gaussian slot with per-group entry {@code pg}: a
   * quantile tree's per-group L2 norm is L∞·√H (one node per level, H = pg[1] levels), others
   * ⌈√L0·pg[0]⌉.
   */
  private static long l2Sensitivity(Slot s, long[] pg, int l0, int lInf) {
    return s.field() == Slot.Field.TREE
        ? l2(lInf, Math.multiplyExact(l0, (int) pg[1]))
        : l2(pg[0], l0);
  }

  /** ⌈√(l0 · pg²)⌉: the L2 norm of a unit's contributions over l0 groups, rounded up. */
  static long l2(long pg, int l0) {
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
  private static SelectionChoice.Candidate chooseSelection(Query q) {
    List<SelectionChoice.Candidate> built = new ArrayList<>();
    IllegalArgumentException refused = null;
    for (SelectionChoice.Option o : SelectionChoice.options(q)) {
      try {
        built.add(candidate(q, o));
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
  private static SelectionChoice.Candidate candidate(Query q, SelectionChoice.Option o) {
    int l0 = q.maxGroupsContributed();
    Rewrite rw = rewrite(q, SUM_BITS, SQUARE_BITS, o.reuse());
    double w = SelectionChoice.weight(q, o.reuse());
    Function<NoiseKind, PartitionSelection.Kind> kindFor =
        n -> o.kind() != null ? o.kind() : thresholdKind(q, n);
    NoiseKind noise = resolveNoise(q, rw, kindFor, w, l0);
    PartitionSelection.Kind kind = kindFor.apply(noise);
    Split split = Split.of(q.budget(), noise, rw.slots(), rw.weights(), kind, w);
    PartitionSelection sel = switch (kind) {
      case LAPLACE -> PartitionSelection.laplace(split.selectionEpsilon, split.selectionDelta, l0);
      case GAUSSIAN -> PartitionSelection.gaussian(split.selectionRho, split.selectionDelta, l0);
      case OPTIMAL -> PartitionSelection.optimal(split.selectionEpsilon, split.selectionDelta, l0);
    };
    return new SelectionChoice.Candidate(o, noise, kind, rw, split, w, sel);
  }

  private static NoiseKind resolveNoise(Query q, Rewrite rw,
      Function<NoiseKind, PartitionSelection.Kind> selection,
      double selectionWeight, int l0) {
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
    // with each slot's actual L1 (L0·pg) and L2 sensitivities.
    Split lap = Split.of(q.budget(), NoiseKind.LAPLACE, rw.slots(), rw.weights(),
        selection.apply(NoiseKind.LAPLACE), selectionWeight);
    Split gau = Split.of(q.budget(), NoiseKind.GAUSSIAN, rw.slots(), rw.weights(),
        selection.apply(NoiseKind.GAUSSIAN), selectionWeight);
    double lapVar = 0;
    double gauVar = 0;
    for (int i = 0; i < rw.slots().size(); i++) {
      Slot s = rw.slots().get(i);
      if (s.kind() != Slot.Kind.EXPONENTIAL) {
        double pg = rw.perGroup().get(i)[0];
        double l2 = l2Sensitivity(s, rw.perGroup().get(i), l0, q.maxRowsPerGroup()) / pg;
        lapVar += 2 * Math.pow(l0 / lap.epsilon[i], 2);
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
  static final class Split {
    double[] epsilon; // per LAPLACE/EXPONENTIAL slot
    double[] rho; // per GAUSSIAN slot
    double selectionEpsilon; // Laplace thresholding
    double selectionRho; // Gaussian thresholding
    double selectionDelta;
    double totalWeight;

    static Split of(Budget budget, NoiseKind noise, List<Slot> slots, List<Double> weights,
        PartitionSelection.Kind selection, double selectionWeight) {
      final double shrink = BudgetSplit.SHRINK; // keeps the upward-rounded composition within the budget
      Split s = new Split();
      int n = slots.size();
      s.epsilon = new double[n];
      s.rho = new double[n];
      double total = selection != null ? selectionWeight : 0;
      for (double w : weights) {
        total += w;
      }
      s.totalWeight = total;
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
          if (selection == PartitionSelection.Kind.GAUSSIAN) {
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
          if (gaussian && slots.get(i).kind() != Slot.Kind.EXPONENTIAL) {
            zWeight += weights.get(i);
          } else {
            pure += s.epsilon[i];
          }
        }
        if (selection == PartitionSelection.Kind.LAPLACE
            || selection == PartitionSelection.Kind.OPTIMAL) {
          s.selectionEpsilon = BudgetSplit.share(a.epsilon(), selectionWeight, total);
          pure += s.selectionEpsilon;
        } else if (selection == PartitionSelection.Kind.GAUSSIAN) {
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
            if (gaussian && slots.get(i).kind() != Slot.Kind.EXPONENTIAL) {
              s.rho[i] = BudgetSplit.share(rhoTotal, weights.get(i), zWeight);
            }
          }
          if (selection == PartitionSelection.Kind.GAUSSIAN) {
            s.selectionRho = BudgetSplit.share(rhoTotal, selectionWeight, zWeight);
          }
        }
      }
      return s;
    }

    /** The smallest entry of {@code values} over non-exponential slots (1 if there are none). */
    double smallest(double[] values, List<Slot> slots) {
      double m = Double.POSITIVE_INFINITY;
      for (int i = 0; i < values.length; i++) {
        if (slots.get(i).kind() != Slot.Kind.EXPONENTIAL) {
          m = Math.min(m, values[i]);
        }
      }
      return Double.isInfinite(m) ? 1 : m;
    }
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
      String col = null;
      if (a instanceof Aggregation.Sum s) {
        col = s.column();
      } else if (a instanceof Aggregation.Mean m) {
        col = m.column();
      } else if (a instanceof Aggregation.Variance v) {
        col = v.column();
      } else if (a instanceof Aggregation.StdDev d) {
        col = d.column();
      } else if (a instanceof Aggregation.Quantiles qs) {
        col = qs.column();
      } else if (a instanceof Aggregation.Histogram h) {
        col = h.column();
      }
      if (col != null && !require(schema, col, a.name()).type().isNumeric()) {
        throw new IllegalArgumentException(a.name() + ": column '" + col + "' is not numeric");
      }
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
