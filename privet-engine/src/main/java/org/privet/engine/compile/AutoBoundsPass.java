package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetSplit;
import org.privet.accounting.PrivacyLoss;
import org.privet.engine.Aggregation;
import org.privet.engine.AutoBounds;
import org.privet.engine.MechanismCost;
import org.privet.engine.Query;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Releaser;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * A query with AUTO bounds compiled as two passes under one charge ({@link AutoBounds}): the
 * bounds pass (one global noisy quantile tree per AUTO column and grid, with {@code share} of the
 * budget) and the main pass (the query itself with the rest, compiled before the charge with
 * stand-in bounds, the grid's whole range). Both are compiled, and every refusal happens, before
 * the charge; the charge is the composition of the two passes' totals. After the charge, {@link
 * #estimate} post-processes the bounds pass's noisy trees into grid edges and {@link #mainWith}
 * recompiles the main pass with them, keeping the stand-in compilation whenever the recompiled
 * one would not cost exactly what was charged. Argument: {@code docs/proofs/auto-bounds.md}.
 */
public final class AutoBoundsPass {
  private final Query query;
  private final AutoBounds auto;
  private final CompiledQuery bounds;
  private final CompiledQuery main;
  private final Map<String, String> treeOf; // AUTO output -> bounds-pass quantile output
  private final PrivacyLoss total;
  private final List<MechanismCost> costs;

  private AutoBoundsPass(Query query, AutoBounds auto, CompiledQuery bounds, CompiledQuery main,
      Map<String, String> treeOf) {
    this.query = query;
    this.auto = auto;
    this.bounds = bounds;
    this.main = main;
    this.treeOf = treeOf;
    this.total = CompiledQuery.composedCost(query.budget(), List.of(bounds.total(), main.total()));
    if (!query.budget().admits(total)) {
      throw new IllegalStateException("internal error: the two passes' composed loss " + total
          + " exceeds the budget " + query.budget());
    }
    List<MechanismCost> all = new ArrayList<>();
    String why = "AUTO bounds: " + percent(auto.share()) + " of the budget estimates the bounds";
    for (MechanismCost c : bounds.costs()) {
      all.add(new MechanismCost(c.output(), c.purpose(), c.mechanism(), c.loss(),
          c.share() * auto.share(), why + (c.shareReason().isEmpty() ? "" : "; " + c.shareReason())));
    }
    String rest = "the rest (" + percent(1 - auto.share()) + ") after AUTO bounds";
    for (MechanismCost c : main.costs()) {
      all.add(new MechanismCost(c.output(), c.purpose(), c.mechanism(), c.loss(),
          c.share() * (1 - auto.share()), rest + (c.shareReason().isEmpty() ? ""
              : "; " + c.shareReason())));
    }
    this.costs = List.copyOf(all);
  }

  /**
   * Compiles both passes from the query and the schema only (no data): every refusal of an AUTO
   * query happens here, before the charge.
   *
   * @throws IllegalArgumentException naming the parameter
   */
  public static AutoBoundsPass compile(Query q, TableSchema schema, long boundsSalt, long mainSalt) {
    AutoBounds auto = q.autoBounds().orElseThrow();
    Budget[] budgets = split(q.budget(), auto.share());
    // Bounds pass: one tree per distinct (column, grid), ungrouped, the query's unit, L∞, filter.
    Query.Builder b = Query.from(q.source());
    // With L∞ estimated (ContributionBoundPass) the bounds pass keeps one row per unit: it is
    // compiled before the estimate exists, and the stand-in L∞ would drown it in noise.
    int boundsRows = q.contributionBoundEstimate().isPresent() ? 1 : q.maxRowsPerGroup();
    q.privacyUnit().ifPresentOrElse(u -> b.privacyUnit(u).maxRowsPerGroup(boundsRows),
        b::eachRowIsAUnit);
    q.filter().ifPresent(b::where);
    Map<String, String> treeOf = new LinkedHashMap<>();
    Map<String, String> byKey = new LinkedHashMap<>();
    Map<String, AutoBounds.Grid> gridOf = new LinkedHashMap<>();
    List<Aggregation> placeholders = new ArrayList<>();
    for (Aggregation a : q.aggregations()) {
      AutoBounds.Grid grid = auto.outputs().get(a.name());
      if (grid == null) {
        placeholders.add(a);
        continue;
      }
      String column = AggregationPlanner.of(a).column().orElseThrow();
      String key = column + "|" + grid;
      String tree = byKey.get(key);
      if (tree == null) {
        tree = "bounds_" + byKey.size();
        byKey.put(key, tree);
        gridOf.put(tree, grid);
        b.aggregate(new Aggregation.Quantiles(tree, column, grid.lower(), grid.upper(),
            List.of(auto.lowerRank(), auto.upperRank()), grid.cells()));
      }
      treeOf.put(a.name(), tree);
      placeholders.add(withBounds(a, grid.lower(), grid.upper()));
    }
    // The main pass first: its refusals name the user's outputs and columns.
    Query mainQuery = q.withAggregations(placeholders, budgets[1], q.noise());
    CompiledQuery mc = Compiler.compile(mainQuery, schema, mainSalt);
    Query boundsQuery = b.budget(budgets[0]).build();
    CompiledQuery bc = withGrids(Compiler.compile(boundsQuery, schema, boundsSalt), gridOf,
        treeOf, auto);
    return new AutoBoundsPass(q, auto, bc, mc, treeOf);
  }

  /** The bounds pass (its log-grid measures already in place). */
  public CompiledQuery bounds() {
    return bounds;
  }

  /** The main pass compiled with the stand-in bounds. */
  public CompiledQuery main() {
    return main;
  }

  /** The composed charge of both passes. */
  public PrivacyLoss total() {
    return total;
  }

  /** Every mechanism of both passes, its share stated as a fraction of the whole budget. */
  public List<MechanismCost> costs() {
    return costs;
  }

  /**
   * Post-processing of the bounds pass's noisy trees: for each AUTO output, the lower edge of the
   * cell holding the noisy lower-rank quantile and the upper edge of the cell holding the
   * upper-rank quantile (moved one cell apart if they meet). Total: every tree answer lies in
   * [0, cells], so the result is always a pair of grid edges with lower &lt; upper; when the
   * tree's estimated row total is below one (an empty input), the pair centred on 0 (log grid) or
   * the whole public range (linear grid).
   *
   * <p>The tree's point answer interpolates inside a cell, and when the target row is the last
   * row of its cell (P<sub>c</sub> &lt; k = P<sub>c+1</sub>, e.g. the only row of the lowest
   * cell on small data) it is exactly the cell's upper edge c + 1. That row lies in cell c, so
   * the cell of an answer x is ⌈x⌉ − 1, not ⌊x⌋: flooring took edge c + 1 as the lower bound and
   * clipped the minimum (issue 24: {1.5, 2.5, 3.5, 2.5, 3.75} got [2, 4]).
   */
  public List<AutoBounds.Estimated> estimate(Releaser.Group group) {
    double[] ranks = {auto.lowerRank(), auto.upperRank()};
    Map<String, AutoBounds.Estimated> perTree = new LinkedHashMap<>();
    for (Compiler.PlannedOutput o : bounds.outputs()) {
      Aggregation.Quantiles qs = ((QuantilesPlanner) o.planner()).aggregation();
      AutoBounds.Grid grid = gridFor(qs);
      QuantileTree.Answer ans = QuantilesPlanner.treeAnswer(group, o.releases().get(0), ranks);
      int cells = grid.cells();
      int lo = (int) Math.max(0, Math.min(cells - 1, Math.ceil(ans.edge()[0]) - 1));
      int hi = (int) Math.max(lo + 1, Math.min(cells, Math.ceil(ans.edge()[1])));
      if (ans.total() < 1) {
        // No rows as far as the noisy tree tells: bounds centred on 0 (the log grid's two cells
        // next to 0) or the whole public range, so an empty input releases the midpoint 0 or that
        // of the range, not a value at the grid's far end.
        lo = grid.log() ? cells / 2 - 1 : 0;
        hi = grid.log() ? cells / 2 + 1 : cells;
      }
      perTree.put(qs.name(), new AutoBounds.Estimated(qs.name(), qs.column(), grid.edge(lo),
          grid.edge(hi), auto.lowerRank(), auto.upperRank()));
    }
    List<AutoBounds.Estimated> out = new ArrayList<>();
    for (Map.Entry<String, String> e : treeOf.entrySet()) {
      AutoBounds.Estimated t = perTree.get(e.getValue());
      out.add(new AutoBounds.Estimated(e.getKey(), t.column(), t.lower(), t.upper(),
          t.lowerRank(), t.upperRank()));
    }
    return out;
  }

  /**
   * The main pass with the estimated bounds, its noise kind fixed to the stand-in compilation's;
   * that compilation itself whenever the new one fails or would cost anything other than what
   * was charged (a choice made from DP outputs and public information only).
   */
  public CompiledQuery mainWith(List<AutoBounds.Estimated> estimated, TableSchema schema, long salt) {
    Map<String, AutoBounds.Estimated> by = new LinkedHashMap<>();
    estimated.forEach(e -> by.put(e.output(), e));
    List<Aggregation> aggs = new ArrayList<>();
    for (Aggregation a : query.aggregations()) {
      AutoBounds.Estimated e = by.get(a.name());
      aggs.add(e == null ? a : withBounds(a, e.lower(), e.upper()));
    }
    try {
      CompiledQuery c = Compiler.compile(query.withAggregations(aggs, main.query().budget(),
          main.noise()), schema, salt);
      return sameCosts(c, main) ? c : main;
    } catch (RuntimeException e) {
      return main; // post-processing of the released bounds: the stand-in compilation is paid for
    }
  }

  public static boolean sameCosts(CompiledQuery a, CompiledQuery b) {
    if (a.costs().size() != b.costs().size() || a.noise() != b.noise()
        || !CompiledQuery.sameCost(a.total(), b.total())
        || a.conversionDelta() != b.conversionDelta()) {
      return false;
    }
    for (int i = 0; i < a.costs().size(); i++) {
      if (!CompiledQuery.sameCost(a.costs().get(i).loss(), b.costs().get(i).loss())) {
        return false;
      }
    }
    return true;
  }

  /** The bounds pass's description lines, for EXPLAIN. */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    for (Map.Entry<String, String> e : treeOf.entrySet()) {
      Aggregation.Quantiles qs = treeAggregation(e.getValue());
      lines.add(e.getKey() + ": AUTO bounds: " + percent(auto.share()) + " of the budget "
          + "estimates the clamping bounds of " + qs.column() + " privately (global, before "
          + "grouping; ≤ " + bounds.query().maxRowsPerGroup() + " rows per unit) as the grid "
          + "edges around its noisy " + auto.lowerRank()
          + " and " + auto.upperRank() + " quantiles on a " + gridFor(qs) + " (tree "
          + e.getValue() + "); the main pass below shows the stand-in bounds, replaced at run "
          + "time by the estimate, which is released with the answer");
    }
    return lines;
  }

  private Aggregation.Quantiles treeAggregation(String name) {
    return (Aggregation.Quantiles) bounds.query().aggregations().stream()
        .filter(a -> a.name().equals(name)).findFirst().orElseThrow();
  }

  private AutoBounds.Grid gridFor(Aggregation.Quantiles qs) {
    for (Map.Entry<String, String> e : treeOf.entrySet()) {
      if (e.getValue().equals(qs.name())) {
        return auto.outputs().get(e.getKey());
      }
    }
    throw new IllegalStateException("no grid for " + qs.name());
  }

  /**
   * Splits the budget into the bounds pass's (pure ε or pure ρ: share·ε or share·ρ) and the main
   * pass's ((1 − share)·ε or ρ, with all of δ), each rounded down ({@link BudgetSplit#share}).
   */
  public static Budget[] split(Budget budget, double share) {
    if (budget instanceof Budget.Epsilon e) {
      return new Budget[] {Budget.pure(BudgetSplit.share(e.epsilon(), share, 1)),
          Budget.pure(BudgetSplit.share(e.epsilon(), 1 - share, 1))};
    } else if (budget instanceof Budget.EpsilonDelta e) {
      return new Budget[] {Budget.pure(BudgetSplit.share(e.epsilon(), share, 1)),
          Budget.approx(BudgetSplit.share(e.epsilon(), 1 - share, 1), e.delta())};
    } else if (budget instanceof Budget.Rho r) {
      return new Budget[] {Budget.zcdp(BudgetSplit.share(r.rho(), share, 1)),
          Budget.zcdp(BudgetSplit.share(r.rho(), 1 - share, 1))};
    }
    Budget.RhoDelta r = (Budget.RhoDelta) budget;
    return new Budget[] {Budget.zcdp(BudgetSplit.share(r.rho(), share, 1)),
        Budget.zcdp(BudgetSplit.share(r.rho(), 1 - share, 1), r.delta())};
  }

  /** The same aggregation clamped to [lower, upper]. */
  static Aggregation withBounds(Aggregation a, double lower, double upper) {
    if (a instanceof Aggregation.Sum s) {
      return new Aggregation.Sum(s.name(), s.column(), lower, upper, s.perGroup());
    } else if (a instanceof Aggregation.Mean m) {
      return new Aggregation.Mean(m.name(), m.column(), lower, upper, m.perGroup());
    } else if (a instanceof Aggregation.Variance v) {
      return new Aggregation.Variance(v.name(), v.column(), lower, upper);
    } else if (a instanceof Aggregation.StdDev d) {
      return new Aggregation.StdDev(d.name(), d.column(), lower, upper);
    } else if (a instanceof Aggregation.Quantiles q) {
      // The tree's cost depends on its number of cells only, not on the range they cover.
      return new Aggregation.Quantiles(q.name(), q.column(), lower, upper, q.ranks(), q.bins(),
          q.method());
    }
    throw new IllegalArgumentException("autoBounds: " + a.name() + " takes no AUTO bounds");
  }

  /**
   * The compiled bounds pass with each log grid's backend measure swapped in for the linear
   * stand-in the compiler planned over the same range and number of cells (the tree, its
   * sensitivity and its cost depend on the number of cells only).
   */
  private static CompiledQuery withGrids(CompiledQuery c, Map<String, AutoBounds.Grid> gridOf,
      Map<String, String> treeOf, AutoBounds auto) {
    List<Measure> measures = new ArrayList<>(c.spec().measures());
    for (Compiler.PlannedOutput o : c.outputs()) {
      Aggregation.Quantiles qs = ((QuantilesPlanner) o.planner()).aggregation();
      AutoBounds.Grid grid = gridOf.get(qs.name());
      int mi = c.releases().get(o.releases().get(0)).target().measure();
      Measure.Bins old = (Measure.Bins) measures.get(mi);
      if (old.bins() != grid.cells()) {
        throw new IllegalStateException("internal error: the bounds grid changed");
      }
      measures.set(mi, grid.measure(qs.column()));
    }
    BoundedAggregation s = c.spec();
    BoundedAggregation spec = new BoundedAggregation(s.source(), s.filter(), s.unitColumn(),
        s.groupBy(), s.publicGroups(), s.l0(), s.lInf(), s.salt(), measures,
        s.maxRowsContributed());
    return new CompiledQuery(c.query(), c.noise(), spec, c.releases(), c.outputs(), c.selection(),
        c.costs(), c.total(), c.conversionDelta(), c.bounds(), c.releaseKeys(), c.splitTerms());
  }

  public static String percent(double fraction) {
    return String.format(java.util.Locale.ROOT, "%.4g%%", 100 * fraction);
  }
}
