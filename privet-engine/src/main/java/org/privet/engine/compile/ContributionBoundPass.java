package org.privet.engine.compile;

import java.util.ArrayList;
import java.util.List;
import org.privet.accounting.Budget;
import org.privet.engine.Aggregation;
import org.privet.engine.ContributionBoundEstimate;
import org.privet.engine.Query;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Releaser;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * The private estimate of a contribution bound ({@link ContributionBoundEstimate}): one noisy
 * quantile tree over the row counts of the (unit, group) pairs of any bounded aggregation (its
 * source, filter, unit column, groups and L0: the "template"), read from the top: the smallest
 * power of two above which the noisy number of pairs is within the noise's band of zero, raised
 * while the next cell's noisy count alone exceeds its own band. Reusable by any pass that needs
 * a per-unit bound chosen from the data (the SQL dialect's default L∞ here; a join's truncation
 * threshold, issue 25): give it the
 * template whose pairs are to be bounded and a budget, run {@link #spec()} on the backend, sum
 * the groups ({@link #total}) and read {@link #bound}.
 *
 * <p>Privacy: the histogram counts each kept pair once, and a unit has at most L0 kept pairs
 * (the template's L0 bounding, which depends on the unit's own rows and the salt only), so adding
 * or removing a unit moves at most L0 counts by one in every level of the tree: the tree is
 * compiled as a quantile tree with L∞ = L0 rows per unit in one group, whose sensitivity is
 * exactly that (geometric: Δ₁ = L0·H; discrete Gaussian: Δ₂² = H·L0²). The bound is
 * post-processing of that one release. Argument: {@code docs/proofs/contribution-bound-estimate.md}.
 */
public final class ContributionBoundPass {
  /** The output name of the estimate's tree (receipts, EXPLAIN). */
  public static final String OUTPUT = "rows_per_unit_per_group";
  /** The tree's stand-in column for the compiler: the pairs' row counts have no column. */
  private static final String VIRTUAL = "__privet_pair_rows";
  /** The output name of a SUM's own tree (beside others): this prefix and the SUM's column. */
  public static final String VALUES_OUTPUT = "row_equivalents_of_";
  /**
   * The rank the tree is compiled with: it shapes nothing released (the tree's node counts and
   * their noise do not depend on it); {@link #bound} reads the tree from the top instead.
   */
  private static final double STAND_IN_RANK = 0.5;

  private final ContributionBoundEstimate config;
  private final CompiledQuery tree;
  private final boolean rows; // a tree of the pairs' row counts (first)
  private final List<Measure.PairValues> values; // then one tree per SUM read by its values
  private final List<String> names; // the trees' output names: rows (if any), then values

  private ContributionBoundPass(ContributionBoundEstimate config, CompiledQuery tree,
      boolean rows, List<Measure.PairValues> values, List<String> names) {
    this.config = config;
    this.tree = tree;
    this.rows = rows;
    this.values = values;
    this.names = names;
  }

  /** The estimate over the pairs' row counts ({@link Measure.PairRows}). */
  public static ContributionBoundPass compile(BoundedAggregation template, Budget budget,
      ContributionBoundEstimate config, TableSchema schema, long salt) {
    return compile(template, budget, config, schema, salt, null);
  }

  /**
   * One tree: over the pairs' values ({@code values}, a lone SUM) or, if null, their row counts.
   *
   * @see #compile(BoundedAggregation, Budget, ContributionBoundEstimate, TableSchema, long,
   *     List, boolean)
   */
  public static ContributionBoundPass compile(BoundedAggregation template, Budget budget,
      ContributionBoundEstimate config, TableSchema schema, long salt,
      Measure.PairValues values) {
    return compile(template, budget, config, schema, salt,
        values == null ? List.of() : List.of(values), values == null);
  }

  /**
   * Compiles the estimate from public information only (before any charge): T ≥ 1 noisy trees
   * over the same kept pairs, the budget split equally among them (composition: each pair counts
   * once in every tree, so each tree's sensitivity is that of the one-tree estimate).
   *
   * @param template whose (unit, group) pairs are measured: its source, typed filter, unit
   *     column, group columns, public groups and L0 (its L∞ and measures play no part)
   * @param budget the estimate's budget (pure ε or ρ), split equally among the trees
   * @param config share and confidences
   * @param schema the source's schema (for the unit column)
   * @param salt the salt of the L0 bounding
   * @param values one tree per SUM whose bound is read from the pairs' values in row-equivalents
   *     ({@link Measure.PairValues}: the SUM's main pass then clamps each pair's total to its own
   *     bound in row-equivalents), in this order, after the row-count tree
   * @param rows whether a tree counts the pairs by their row counts ({@link Measure.PairRows}),
   *     for the aggregations that L∞ bounds by rows; the first tree if so
   * @throws IllegalArgumentException naming the parameter if the template has no unit column
   */
  public static ContributionBoundPass compile(BoundedAggregation template, Budget budget,
      ContributionBoundEstimate config, TableSchema schema, long salt,
      List<Measure.PairValues> values, boolean rows) {
    String unit = template.unitColumn().orElseThrow(() -> new IllegalArgumentException(
        "estimateMaxRowsPerGroup needs a privacy unit column"));
    TableSchema.Column u = schema.column(unit).orElseThrow(() -> new IllegalArgumentException(
        "privacyUnit: unknown column '" + unit + "'"));
    int cells = ContributionBoundEstimate.CELLS;
    int trees = (rows ? 1 : 0) + values.size();
    if (trees == 0) {
      throw new IllegalArgumentException("internal error: the estimate needs a tree");
    }
    for (Measure.PairValues v : values) {
      if (v.bins() != cells) {
        throw new IllegalArgumentException("internal error: the pair-values measure needs "
            + cells + " cells");
      }
    }
    List<TableSchema.Column> columns = new ArrayList<>(List.of(u));
    List<String> names = new ArrayList<>();
    List<Measure> measures = new ArrayList<>();
    if (rows) {
      names.add(OUTPUT);
      measures.add(new Measure.PairRows(unit, cells));
    }
    for (Measure.PairValues v : values) {
      names.add(trees == 1 ? OUTPUT : VALUES_OUTPUT + v.column());
      measures.add(v);
    }
    // One group, at most L0 "rows" (kept pairs) per unit: each tree's sensitivity is L0 per level.
    Query.Builder b = Query.from(template.source()).privacyUnit(unit).maxGroupsContributed(1)
        .maxRowsPerGroup(template.l0());
    for (int i = 0; i < trees; i++) {
      columns.add(new TableSchema.Column(virtual(i), ColumnType.INTEGER, "BIGINT"));
      b.aggregate(new Aggregation.Quantiles(names.get(i), virtual(i), 0, cells,
          List.of(STAND_IN_RANK), cells, Aggregation.Quantiles.Method.TREE));
    }
    Query q = b.budget(budget).build();
    CompiledQuery c = Compiler.compile(q, new TableSchema(columns), salt);
    if (c.releases().size() != trees || c.spec().measures().size() != trees
        || c.spec().measures().stream().anyMatch(m -> Measure.cells(m) != cells)) {
      throw new IllegalStateException("internal error: the estimate is not one tree per measure");
    }
    // Each compiled stand-in measure reads one virtual column: put the pair measure of that tree
    // in its place, so that the releases' measure indexes stay right.
    List<Measure> swappedMeasures = new ArrayList<>();
    for (Measure m : c.spec().measures()) {
      int i = virtualIndex(m.column(), trees);
      swappedMeasures.add(measures.get(i));
    }
    BoundedAggregation spec = new BoundedAggregation(template.source(), template.filter(),
        template.unitColumn(), template.groupBy(), template.publicGroups(), template.l0(), 1,
        salt, swappedMeasures);
    List<String> bounds = new ArrayList<>();
    if (rows) {
      bounds.add(OUTPUT + ": the row count n of every kept (unit, group) pair "
          + "(after L0 = " + template.l0() + "), counted once in cell ⌈log₂ n⌉ of a power-of-two "
          + "grid of " + cells + " cells (1, 2, 4, …, 2^" + ContributionBoundEstimate.MAX_EXPONENT
          + " rows); ≤ L0 pairs per unit");
    }
    for (int i = rows ? 1 : 0; i < trees; i++) {
      Measure.PairValues v = values.get(i - (rows ? 1 : 0));
      bounds.add(names.get(i) + ": the value of every kept (unit, group) pair (after L0 = "
          + template.l0() + ") in row-equivalents, r = ⌈s / " + Math.max(v.upper(), 0)
          + "⌉ for a sum s > 0 of " + v.column() + " clamped to [" + v.lower() + ", "
          + v.upper() + "] over all the pair's rows (⌈s / " + Math.min(v.lower(), 0)
          + "⌉ for s < 0; fixed point 2^-" + v.scaleExponent() + "), counted once in cell "
          + "⌈log₂ max(r, 1)⌉ of a power-of-two grid of " + cells + " cells; ≤ L0 pairs per unit");
    }
    CompiledQuery swapped = new CompiledQuery(c.query(), c.noise(), spec, c.releases(),
        c.outputs(), null, c.costs(), c.total(), c.conversionDelta(), bounds, null,
        c.splitTerms());
    return new ContributionBoundPass(config, swapped, rows, List.copyOf(values),
        List.copyOf(names));
  }

  private static String virtual(int tree) {
    return tree == 0 ? VIRTUAL : VIRTUAL + "_" + tree;
  }

  private static int virtualIndex(String column, int trees) {
    for (int i = 0; i < trees; i++) {
      if (virtual(i).equals(column)) {
        return i;
      }
    }
    throw new IllegalStateException("internal error: the estimate's measure reads " + column);
  }

  /** Whether a tree counts the pairs by their values (a SUM's own bound). */
  public boolean readsValues() {
    return !values.isEmpty();
  }

  /** Whether the first tree counts the pairs by their row counts (L∞ for the other aggregates). */
  public boolean readsRows() {
    return rows;
  }

  /** The number of trees: {@link #bounds} returns one bound per tree, in this order. */
  public int trees() {
    return names.size();
  }

  /** The compiled estimate: its spec (one {@link Measure.PairRows}), tree release and cost. */
  public CompiledQuery tree() {
    return tree;
  }

  /** What the backend runs: the template's pairs, one pair-rows measure. */
  public BoundedAggregation spec() {
    return tree.spec();
  }

  public ContributionBoundEstimate config() {
    return config;
  }

  /**
   * The groups' exact histograms summed into one aggregate, measure by measure (total: counts
   * saturate, never throw). Summing before the noise is part of the function the trees perturb.
   */
  public GroupAggregate total(List<GroupAggregate> groups) {
    int cells = ContributionBoundEstimate.CELLS;
    int measures = tree.spec().measures().size();
    long[][] sum = new long[measures][cells];
    for (GroupAggregate g : groups) {
      for (int m = 0; m < measures; m++) {
        long[] b = m < g.bins().length ? g.bins()[m] : null;
        for (int j = 0; j < cells && b != null && j < b.length; j++) {
          long s = sum[m][j] + b[j];
          sum[m][j] = ((sum[m][j] ^ s) & (b[j] ^ s)) < 0 ? Long.MAX_VALUE : s;
        }
      }
    }
    return new GroupAggregate(List.of(), 0, 0, new long[measures], new long[measures],
        new long[measures], sum);
  }

  /**
   * Every tree's bound ({@link #read}), in the order of {@link #trees}: the row-count tree's
   * first (if any), then each SUM's. Post-processing of the noisy trees; total.
   */
  public int[] bounds(Releaser.Group group) {
    int[] out = new int[names.size()];
    for (int r = 0; r < names.size(); r++) {
      int release = r;
      QuantileTree t = group.tree(release);
      long[] cells = group.aggregate().bins()[group.target(release).measure()];
      long[] noisy = QuantileTree.release(t.counts(cells),
          exact -> group.noisyEntry(release, exact));
      int i = names.indexOf(group.target(release).output());
      out[i < 0 ? r : i] = read(noisy, group.nodeNoise(release));
    }
    return out;
  }

  /**
   * The L∞ of the main pass from the trees' bounds: the row-count tree's, or without one (SUMs
   * only, each clamped by its own bound) the largest SUM's bound.
   */
  public int mainBound(int[] bounds) {
    if (rows) {
      return bounds[0];
    }
    int max = 1;
    for (int b : bounds) {
      max = Math.max(max, b);
    }
    return max;
  }

  /**
   * Post-processing of the noisy tree, read from the top: for edges j = 1, 2, …, C (edge j
   * separates n ≤ 2^(j−1) from larger counts), the noisy number of pairs above edge j is
   * −D̂<sub>j</sub> at rank 1 ({@link QuantileTree#rankStatistic}: the consistent suffix count),
   * and the scan stops at the first j where it is at most a<sub>j</sub>, the tree noise's
   * one-sided {@code suffixConfidence} statement on that count ({@link
   * QuantileTree#edgeHalfWidth}, a public function of the tree, j and the noise), and the noisy
   * number in the {@value ContributionBoundEstimate#WINDOW_CELLS} cells just above edge j is at
   * most its {@code windowConfidence} statement ({@link QuantileTree#rangeHalfWidth}: the window
   * carries the scan over a short gap in the low cells when the pairs are too few for the
   * suffix's band). The suffix's
   * band sums the noise of all the (mostly empty) cells above j, so it lets a short tail just
   * above the edge through; the scan then tests the cells above one at a time, from cell j (pairs
   * with n ∈ (2^(j−1), 2^j]), each alone against its own one-sided {@code confidence} statement
   * ({@link QuantileTree#cellHalfWidth}), and steps up while the cell's noisy count exceeds it:
   * L∞ = 2^(k−1) for the first such cell k that does not. Edge C has no pair above it, so the
   * scan always stops; 1 when the noisy total is below one pair (no rows). Always a power of two
   * in [1, 2^{@value ContributionBoundEstimate#MAX_EXPONENT}], and at most the configuration's
   * {@link ContributionBoundEstimate#largestBound()} (a public limit applied to the read, e.g.
   * over a self-join). Total: no data-dependent exception.
   *
   * <p>False raises: if no pair has more than 2^K rows, the result exceeds 2^K only if the scan
   * crosses edge K + 1 (the suffix, the window or the cell test passing on empty cells): P ≤
   * γ<sub>s</sub> + γ<sub>w</sub> + γ<sub>c</sub> (γ = 1 − each statement's confidence), and it
   * exceeds 2^(K+d) only if it also crosses the edges K + 4, K + 7, … up to K + d + 1, whose
   * windows and cells are disjoint: P ≤ m·γ<sub>s</sub> + (γ<sub>w</sub> +
   * γ<sub>c</sub>)<sup>m</sup>, m = ⌈(d + 1)/3⌉ (the one level's cell noises are independent).
   * The suffix's statement is the wide one ({@link
   * ContributionBoundEstimate#DEFAULT_SUFFIX_CONFIDENCE}) because the suffixes above the data are
   * nested sums of the same noises: once one passes wrongly, those above it mostly do too.
   */
  public int bound(Releaser.Group group) {
    return mainBound(bounds(group));
  }

  /**
   * The reading rule of {@link #bound} on the tree's noisy node counts (in node order, {@link
   * QuantileTree#counts}) under the node noise {@code noise}: post-processing, total.
   */
  public int read(long[] noisy, QuantileTree.NodeNoise noise) {
    QuantileTree t = QuantileTree.forCells(ContributionBoundEstimate.CELLS);
    double[] d = t.rankStatistic(noisy, 1.0);
    int c = ContributionBoundEstimate.CELLS;
    if (!(-d[0] >= 1)) {
      return 1;
    }
    double suffixGamma = 1 - config.suffixConfidence();
    double windowGamma = 1 - config.windowConfidence();
    double cellGamma = 1 - config.confidence();
    for (int j = 1; j < c; j++) {
      double above = -d[j];
      int w = Math.min(ContributionBoundEstimate.WINDOW_CELLS, c - j);
      double window = d[j + w] - d[j]; // the pairs in cells j, …, j + w − 1
      if (!(above > t.edgeHalfWidth(j, 1.0, noise, suffixGamma))
          && !(window > t.rangeHalfWidth(j, j + w, noise, windowGamma))) {
        // The suffix's band sums the noise of every cell above edge j, most of them empty: a
        // tail of a few dozen pairs just above 2^(j−1) hides in it. Test the first cell above
        // alone, and step up while it holds more pairs than its noise.
        int k = j;
        while (k < c && d[k + 1] - d[k] > t.cellHalfWidth(k, noise, cellGamma)) {
          k++;
        }
        return limited(ContributionBoundEstimate.boundOfCell(k - 1));
      }
    }
    return limited(ContributionBoundEstimate.boundOfCell(c - 1));
  }

  /** The read limited to the configuration's largest bound (post-processing; a power of two). */
  private int limited(int bound) {
    return Math.min(bound, config.largestBound());
  }

  /** EXPLAIN's line for the estimate. */
  public String describe(double shareOfBudget) {
    List<String> what = new ArrayList<>();
    if (rows) {
      what.add("the kept (unit, group) pairs' row counts" + (values.isEmpty() ? ""
          : " (tree " + OUTPUT + ": L∞ for the aggregates other than the SUMs below)"));
    }
    for (int i = 0; i < values.size(); i++) {
      Measure.PairValues v = values.get(i);
      what.add("the kept (unit, group) pairs' values of " + v.column() + " in row-equivalents "
          + "(the pair's sum of clamped values over max(upper, 0), or over min(lower, 0) if "
          + "negative, rounded up" + (names.size() == 1 ? "; one SUM, so its value bound is what "
          + "L∞ limits" : "; tree " + names.get(i + (rows ? 1 : 0)) + ", that SUM's own bound L")
          + ": the main pass clamps each unit's total in a group, over all its rows, to "
          + "[L·min(lower, 0), L·max(upper, 0)] instead of keeping L rows)");
    }
    String trees = what.size() == 1 ? "a noisy quantile tree of " + what.get(0)
        : what.size() + " noisy quantile trees, the share split equally among them (each pair "
        + "counts once in each): " + String.join("; ", what);
    return "L∞ (max rows per unit per group) estimated privately: "
        + AutoBoundsPass.percent(shareOfBudget) + " of the budget buys " + trees
        + " on a power-of-two grid" + (what.size() == 1 ? " (tree " + OUTPUT + ")" : "")
        + "; each bound is the smallest power of two above which the noisy number of pairs is"
        + " within the noise's one-sided " + config.suffixConfidence() + " band of zero, and so"
        + " is the number in the " + ContributionBoundEstimate.WINDOW_CELLS + " cells just above"
        + " it (" + config.windowConfidence() + " band), then"
        + " raised while the noisy count of the next cell alone exceeds its own "
        + config.confidence() + " band (read from the top, as"
        + " Google's ApproxBounds; as ZetaSQL, every row of a unit counts, up to a bound computed"
        + " privately)"
        + (config.maxExponent() < ContributionBoundEstimate.MAX_EXPONENT ? "; read at most "
            + config.largestBound() + " (the public limit of this query)" : "")
        + "; the main pass below shows the stand-in L∞ = " + config.largestBound()
        + ", replaced at run time by the estimate, which is released with the answer";
  }
}
