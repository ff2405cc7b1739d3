package org.privet.engine;

import java.math.BigInteger;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
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
    int l0 = q.maxGroupsContributed();
    Rewrite first = rewrite(q, SUM_BITS, SQUARE_BITS);
    boolean selection = q.usesPrivatePartitionSelection();
    NoiseKind noise = resolveNoise(q, first.slots(), selection, l0);
    PartitionSelection.Kind selKind = thresholding(q, noise);
    Split split = Split.of(q.budget(), noise, first.slots(), selKind);
    // Fixed-point precision: as fine as the grid limits allow while the noise parameters of the
    // mechanisms (scale or σ² as 63-bit rationals) stay representable.
    double room = Math.log(noise == NoiseKind.GAUSSIAN ? Math.scalb(Math.sqrt(2 * split.rho), 29)
        : Math.scalb(split.pureEpsilon, 56)) / Math.log(2)
        - Math.log(Math.sqrt(l0) * q.maxRowsPerGroup()) / Math.log(2);
    int sumBits = (int) Math.max(2, Math.min(SUM_BITS, Math.floor(room)));
    int squareBits = (int) Math.max(1, Math.min(SQUARE_BITS, Math.floor(room / 2)));
    Rewrite rw = rewrite(q, sumBits, squareBits);
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
            s.measure(), pg, 0, split.pureEpsilon, 0, s.rank(), l0, 0));
      } else if (noise == NoiseKind.LAPLACE) {
        planned.add(new Slot(s.output(), s.purpose(), Slot.Kind.LAPLACE, s.field(), s.measure(),
            Math.multiplyExact(pg, (long) l0), s.scaleExponent(), split.pureEpsilon, 0, 0, l0,
            s.center()));
      } else {
        // A quantile tree's per-group L2 norm is L∞·√H (one node per level, H levels).
        long l2 = s.field() == Slot.Field.TREE
            ? l2(q.maxRowsPerGroup(), Math.multiplyExact(l0, (int) perGroup.get(i)[1]))
            : l2(pg, l0);
        planned.add(new Slot(s.output(), s.purpose(), Slot.Kind.GAUSSIAN, s.field(), s.measure(),
            l2, s.scaleExponent(), 0, split.rho, 0, l0, s.center()));
      }
    }
    PartitionSelection sel = selKind == null ? null
        : selKind == PartitionSelection.Kind.LAPLACE
            ? PartitionSelection.laplace(split.selectionEpsilon, split.selectionDelta, l0)
            : PartitionSelection.gaussian(split.selectionRho, split.selectionDelta, l0);

    // 3. The charge, and the assertion that it is the composition of the mechanisms' losses.
    List<MechanismCost> costs = new ArrayList<>();
    List<PrivacyLoss> losses = new ArrayList<>();
    if (sel != null) {
      costs.add(new MechanismCost("<groups>", "private partition selection ("
          + (sel.kind() == PartitionSelection.Kind.LAPLACE ? "Laplace" : "Gaussian")
          + " threshold " + sel.threshold() + " on distinct units)", sel.describe(),
          sel.privacyLoss()));
      losses.add(sel.privacyLoss());
    }
    for (Slot s : planned) {
      costs.add(new MechanismCost(s.output(), s.purpose(), s.mechanismName(), s.loss()));
      losses.add(s.loss());
    }
    PrivacyLoss total = Composition.total(q.budget(), losses);
    if (!Composition.within(total, q.budget())) {
      throw new IllegalStateException("internal error: composed cost " + total
          + " exceeds the budget " + q.budget());
    }
    BoundedAggregation spec = new BoundedAggregation(q.source(), q.filter(), q.privacyUnit(),
        q.groupBy(), q.publicGroups().map(keys -> typedKeys(keys, q.groupBy(), schema)), l0,
        q.maxRowsPerGroup(), salt, measures);
    return new CompiledQuery(q, noise, spec, planned, outputSlots, sel, costs, total,
        Composition.conversionDelta(q.budget(), losses), bounds);
  }

  /** Rewrites the aggregations into backend measures and noisy-release slots. */
  private static Rewrite rewrite(Query q, int sumBits, int squareBits) {
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
    for (Aggregation a : q.aggregations()) {
      int first = slots.size();
      if (a instanceof Aggregation.Count c) {
        slots.add(slot(c.name(), "noisy row count", Slot.Field.ROWS, -1, 0));
        perGroup.add(new long[] {lInf});
      } else if (a instanceof Aggregation.CountDistinctUnits c) {
        if (q.postAggregationThresholding()) {
          // No release of its own: the selection's thresholded noisy count is the output.
          bounds.add(c.name() + ": the partition selection's noisy distinct-unit count "
              + "(post-aggregation thresholding, no extra cost)");
        } else {
          slots.add(slot(c.name(), "noisy count of distinct units", Slot.Field.UNITS, -1, 0));
          perGroup.add(new long[] {1});
        }
      } else if (a instanceof Aggregation.Sum s) {
        Grid g = Grid.of(s.lower(), s.upper(), sumBits, false);
        int mi = measureIndex(measures,
            new Measure.FixedPointSum(s.column(), s.lower(), s.upper(), g.k, 0, false));
        bounds.add(g.describe(s.name(), s.column(), s.lower(), s.upper()));
        slots.add(slot(s.name(), "noisy sum of " + s.column(), Slot.Field.SUM, mi, g.k));
        perGroup.add(new long[] {Math.multiplyExact(lInf, g.maxAbs())});
      } else if (a instanceof Aggregation.Mean m) {
        Grid g = Grid.of(m.lower(), m.upper(), sumBits, true);
        int mi = measureIndex(measures,
            new Measure.FixedPointSum(m.column(), m.lower(), m.upper(), g.k, 0, false));
        bounds.add(g.describe(m.name(), m.column(), m.lower(), m.upper()));
        Slot centred = slot(m.name(), "noisy centred sum of " + m.column()
            + " (mean = sum/count)", Slot.Field.SUM, mi, g.k);
        slots.add(new Slot(centred.output(), centred.purpose(), centred.kind(), centred.field(),
            mi, 0, g.k, 0, 0, 0, 1, g.center));
        perGroup.add(new long[] {Math.multiplyExact(lInf, g.maxAbs())});
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
    }

    return new Rewrite(measures, slots, outputSlots, bounds, perGroup);
  }

  private record Rewrite(List<Measure> measures, List<Slot> slots, List<int[]> outputSlots,
      List<String> bounds, List<long[]> perGroup) {}

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
   * The thresholding of private partition selection (null without it): the query's override, else
   * Gaussian when the value noise is Gaussian or the budget is zCDP, else Laplace.
   */
  static PartitionSelection.Kind thresholding(Query q, NoiseKind noise) {
    if (!q.usesPrivatePartitionSelection()) {
      return null;
    }
    return switch (q.thresholding()) {
      case LAPLACE -> PartitionSelection.Kind.LAPLACE;
      case GAUSSIAN -> PartitionSelection.Kind.GAUSSIAN;
      case AUTO -> noise == NoiseKind.GAUSSIAN || q.budget().isZcdp()
          ? PartitionSelection.Kind.GAUSSIAN : PartitionSelection.Kind.LAPLACE;
    };
  }

  private static NoiseKind resolveNoise(Query q, List<Slot> slots, boolean selection, int l0) {
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
    // (ε, δ): the kind whose per-release noise variance (relative to per-group sensitivity) is
    // smaller; both splits are computed exactly as they would be used.
    Split lap = Split.of(q.budget(), NoiseKind.LAPLACE, slots,
        selection ? thresholding(q, NoiseKind.LAPLACE) : null);
    Split gau = Split.of(q.budget(), NoiseKind.GAUSSIAN, slots,
        selection ? thresholding(q, NoiseKind.GAUSSIAN) : null);
    double lapVar = 2 * Math.pow(l0 / lap.pureEpsilon, 2);
    double gauVar = gau.rho > 0 ? l0 / (2 * gau.rho) : Double.POSITIVE_INFINITY;
    return gauVar < lapVar ? NoiseKind.GAUSSIAN : NoiseKind.LAPLACE;
  }

  /**
   * The budget split: equal shares over partition selection (if any) and every noisy release.
   *
   * <ul>
   *   <li>ε budget: ε/n per release (no selection).
   *   <li>ρ or ρ-plus-δ budget: ρ/(n + 1) per release and for selection (pure parts use ε with
   *       ε²/2 = their share); selection takes all of δ.
   *   <li>(ε, δ) budget: pure parts (Laplace/exponential releases, Laplace selection) take ε/(n +
   *       1) each; the zCDP parts (Gaussian releases, Gaussian selection) share one ρ whose
   *       conversion at δ − δ<sub>sel</sub> spends the rest of ε; δ<sub>sel</sub> = δ/2 when some
   *       part is converted (as Google's Gaussian thresholding splits δ), else all of δ.
   * </ul>
   */
  static final class Split {
    double pureEpsilon; // per LAPLACE/EXPONENTIAL slot
    double rho; // per GAUSSIAN slot
    double selectionEpsilon; // Laplace thresholding
    double selectionRho; // Gaussian thresholding
    double selectionDelta;

    static Split of(Budget budget, NoiseKind noise, List<Slot> slots,
        PartitionSelection.Kind selection) {
      final double shrink = 1 - 1e-12; // keeps the upward-rounded composition within the budget
      Split s = new Split();
      int n = slots.size();
      long em = slots.stream().filter(x -> x.kind() == Slot.Kind.EXPONENTIAL).count();
      int shares = n + (selection != null ? 1 : 0);
      PrivacyLoss b = budget.loss();
      if (b instanceof PureDp p) {
        s.pureEpsilon = p.epsilon() / n * shrink;
      } else if (budget.isZcdp()) {
        double rhoEach = budget.rho() / shares * shrink;
        s.rho = rhoEach;
        s.pureEpsilon = Math.sqrt(2 * rhoEach) * shrink; // ε-DP ⇒ ε²/2-zCDP
        if (selection != null) {
          s.selectionDelta = budget.delta() * shrink;
          if (selection == PartitionSelection.Kind.GAUSSIAN) {
            s.selectionRho = rhoEach;
          } else {
            s.selectionEpsilon = s.pureEpsilon;
          }
        }
      } else {
        ApproxDp a = (ApproxDp) b;
        double epsShare = a.epsilon() / shares * shrink;
        s.pureEpsilon = epsShare;
        long zParts = (noise == NoiseKind.GAUSSIAN ? n - em : 0)
            + (selection == PartitionSelection.Kind.GAUSSIAN ? 1 : 0);
        long pureParts = shares - zParts;
        if (selection == PartitionSelection.Kind.LAPLACE) {
          s.selectionEpsilon = epsShare;
        }
        if (zParts == 0) {
          s.selectionDelta = selection != null ? a.delta() * shrink : 0;
        } else {
          s.selectionDelta = selection != null ? a.delta() / 2 * shrink : 0;
          double conversionDelta = a.delta() - s.selectionDelta;
          double epsRest = (a.epsilon() - pureParts * epsShare) * shrink;
          double rhoTotal = Composition.rhoFor(epsRest, conversionDelta);
          double rhoEach = rhoTotal / zParts * shrink;
          s.rho = noise == NoiseKind.GAUSSIAN ? rhoEach : 0;
          if (selection == PartitionSelection.Kind.GAUSSIAN) {
            s.selectionRho = rhoEach;
          }
        }
      }
      return s;
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
      double m = Math.max(Math.abs(lower), Math.abs(upper));
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
    q.filter().ifPresent(f -> validateFilter(f, schema));
  }

  private static TableSchema.Column require(TableSchema schema, String column, String parameter) {
    return schema.column(column).orElseThrow(() -> new IllegalArgumentException(
        parameter + ": unknown column '" + column + "'"));
  }

  private static void validateFilter(Filter f, TableSchema schema) {
    if (f instanceof Filter.Compare c) {
      checkLiteral(require(schema, c.column(), "where"), c.literal());
    } else if (f instanceof Filter.In in) {
      TableSchema.Column col = require(schema, in.column(), "where");
      in.literals().forEach(v -> checkLiteral(col, v));
    } else if (f instanceof Filter.IsNull n) {
      require(schema, n.column(), "where");
    } else if (f instanceof Filter.And a) {
      a.operands().forEach(x -> validateFilter(x, schema));
    } else if (f instanceof Filter.Or o) {
      o.operands().forEach(x -> validateFilter(x, schema));
    } else {
      validateFilter(((Filter.Not) f).operand(), schema);
    }
  }

  private static void checkLiteral(TableSchema.Column col, Object v) {
    if (v == null) {
      return;
    }
    ColumnType t = col.type();
    boolean ok = switch (t) {
      case INTEGER, FLOATING, DECIMAL -> v instanceof Number;
      case STRING -> v instanceof String;
      case BOOLEAN -> v instanceof Boolean;
      case DATE, TIMESTAMP -> v instanceof LocalDate || v instanceof String;
      case OTHER -> v instanceof String;
    };
    if (!ok) {
      throw new IllegalArgumentException("where: a " + v.getClass().getSimpleName()
          + " literal cannot be compared with column '" + col.name() + "' of type " + t);
    }
  }

  private static List<List<Object>> typedKeys(List<List<Object>> keys, List<String> groupBy,
      TableSchema schema) {
    for (List<Object> key : keys) {
      for (int i = 0; i < key.size(); i++) {
        checkLiteral(require(schema, groupBy.get(i), "publicGroups"), key.get(i));
      }
    }
    return keys;
  }
}
