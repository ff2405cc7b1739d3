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
  /**
   * The rank the tree is compiled with: it shapes nothing released (the tree's node counts and
   * their noise do not depend on it); {@link #bound} reads the tree from the top instead.
   */
  private static final double STAND_IN_RANK = 0.5;

  private final ContributionBoundEstimate config;
  private final CompiledQuery tree;
  private final Measure.PairValues values; // null: the pairs' row counts

  private ContributionBoundPass(ContributionBoundEstimate config, CompiledQuery tree,
      Measure.PairValues values) {
    this.config = config;
    this.tree = tree;
    this.values = values;
  }

  /** The estimate over the pairs' row counts ({@link Measure.PairRows}). */
  public static ContributionBoundPass compile(BoundedAggregation template, Budget budget,
      ContributionBoundEstimate config, TableSchema schema, long salt) {
    return compile(template, budget, config, schema, salt, null);
  }

  /**
   * Compiles the estimate from public information only (before any charge).
   *
   * @param template whose (unit, group) pairs are measured: its source, typed filter, unit
   *     column, group columns, public groups and L0 (its L∞ and measures play no part)
   * @param budget the estimate's budget (pure ε or ρ)
   * @param config share and confidence
   * @param schema the source's schema (for the unit column)
   * @param salt the salt of the L0 bounding
   * @param values null: the tree counts the pairs by their row counts ({@link Measure.PairRows});
   *     else by their values in row-equivalents ({@link Measure.PairValues}: a SUM's main pass
   *     then clamps each pair's total to L∞ row-equivalents). The tree's sensitivity is the same:
   *     each kept pair counts once, whatever is measured.
   * @throws IllegalArgumentException naming the parameter if the template has no unit column
   */
  public static ContributionBoundPass compile(BoundedAggregation template, Budget budget,
      ContributionBoundEstimate config, TableSchema schema, long salt,
      Measure.PairValues values) {
    String unit = template.unitColumn().orElseThrow(() -> new IllegalArgumentException(
        "estimateMaxRowsPerGroup needs a privacy unit column"));
    TableSchema.Column u = schema.column(unit).orElseThrow(() -> new IllegalArgumentException(
        "privacyUnit: unknown column '" + unit + "'"));
    TableSchema pairs = new TableSchema(List.of(u,
        new TableSchema.Column(VIRTUAL, ColumnType.INTEGER, "BIGINT")));
    int cells = ContributionBoundEstimate.CELLS;
    // One group, at most L0 "rows" (kept pairs) per unit: the tree's sensitivity is L0 per level.
    Query q = Query.from(template.source()).privacyUnit(unit).maxGroupsContributed(1)
        .maxRowsPerGroup(template.l0())
        .aggregate(new Aggregation.Quantiles(OUTPUT, VIRTUAL, 0, cells, List.of(STAND_IN_RANK),
            cells, Aggregation.Quantiles.Method.TREE))
        .budget(budget).build();
    CompiledQuery c = Compiler.compile(q, pairs, salt);
    if (c.releases().size() != 1 || c.spec().measures().size() != 1
        || Measure.cells(c.spec().measures().get(0)) != cells) {
      throw new IllegalStateException("internal error: the estimate is not one tree");
    }
    BoundedAggregation spec = new BoundedAggregation(template.source(), template.filter(),
        template.unitColumn(), template.groupBy(), template.publicGroups(), template.l0(), 1,
        salt, List.of(values != null ? values : new Measure.PairRows(unit, cells)));
    if (values != null && values.bins() != cells) {
      throw new IllegalArgumentException("internal error: the pair-values measure needs "
          + cells + " cells");
    }
    List<String> bounds = new ArrayList<>();
    bounds.add(values == null ? OUTPUT + ": the row count n of every kept (unit, group) pair "
        + "(after L0 = " + template.l0() + "), counted once in cell ⌈log₂ n⌉ of a power-of-two "
        + "grid of " + cells + " cells (1, 2, 4, …, 2^" + ContributionBoundEstimate.MAX_EXPONENT
        + " rows); ≤ L0 pairs per unit"
        : OUTPUT + ": the value of every kept (unit, group) pair (after L0 = " + template.l0()
        + ") in row-equivalents, r = ⌈s / " + Math.max(values.upper(), 0) + "⌉ for a sum s > 0 of "
        + values.column() + " clamped to [" + values.lower() + ", " + values.upper() + "] over"
        + " all the pair's rows (⌈s / " + Math.min(values.lower(), 0) + "⌉ for s < 0; fixed "
        + "point 2^-" + values.scaleExponent() + "), counted once in cell ⌈log₂ max(r, 1)⌉ of a"
        + " power-of-two grid of " + cells + " cells; ≤ L0 pairs per unit");
    CompiledQuery swapped = new CompiledQuery(c.query(), c.noise(), spec, c.releases(),
        c.outputs(), null, c.costs(), c.total(), c.conversionDelta(), bounds, null,
        c.splitTerms());
    return new ContributionBoundPass(config, swapped, values);
  }

  /** Whether the tree counts the pairs by their values (else by their row counts). */
  public boolean readsValues() {
    return values != null;
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
   * The groups' exact histograms summed into one aggregate (total: counts saturate, never
   * throw). Summing before the noise is part of the function the tree perturbs.
   */
  public GroupAggregate total(List<GroupAggregate> groups) {
    int cells = ContributionBoundEstimate.CELLS;
    long[] sum = new long[cells];
    for (GroupAggregate g : groups) {
      long[] b = g.bins()[0];
      for (int j = 0; j < cells && b != null && j < b.length; j++) {
        long s = sum[j] + b[j];
        sum[j] = ((sum[j] ^ s) & (b[j] ^ s)) < 0 ? Long.MAX_VALUE : s;
      }
    }
    return new GroupAggregate(List.of(), 0, 0, new long[1], new long[1], new long[1],
        new long[][] {sum});
  }

  /**
   * Post-processing of the noisy tree, read from the top: for edges j = 1, 2, …, C (edge j
   * separates n ≤ 2^(j−1) from larger counts), the noisy number of pairs above edge j is
   * −D̂<sub>j</sub> at rank 1 ({@link QuantileTree#rankStatistic}: the consistent suffix count),
   * and the scan stops at the first j where it is at most a<sub>j</sub>, the tree noise's
   * one-sided {@code suffixConfidence} statement on that count ({@link
   * QuantileTree#edgeHalfWidth}, a public function of the tree, j and the noise). The suffix's
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
   * <p>False raises: if no pair has more than 2^K rows, the result exceeds 2^K only if the
   * suffix passes edge K + 1 wrongly (probability γ<sub>s</sub> = 1 − suffixConfidence; the scan
   * must cross that edge to go higher) or the cell test fires on the empty cell K + 1 (γ<sub>c</sub>
   * = 1 − confidence), and exceeds 2^(K+d) only if, besides, the cells K + 2, …, K + d + 1 fire
   * too: P ≤ γ<sub>s</sub> + γ<sub>c</sub><sup>d+1</sup> (the one level's cell noises are
   * independent). The suffix's statement is the wide one ({@link
   * ContributionBoundEstimate#DEFAULT_SUFFIX_CONFIDENCE}) because the suffixes above the data are
   * nested sums of the same noises: once one passes wrongly, those above it mostly do too.
   */
  public int bound(Releaser.Group group) {
    QuantileTree t = group.tree(0);
    long[] cells = group.aggregate().bins()[group.target(0).measure()];
    long[] noisy = QuantileTree.release(t.counts(cells), exact -> group.noisyEntry(0, exact));
    return read(noisy, group.nodeNoise(0));
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
    double cellGamma = 1 - config.confidence();
    for (int j = 1; j < c; j++) {
      double above = -d[j];
      if (!(above > t.edgeHalfWidth(j, 1.0, noise, suffixGamma))) {
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
    String what = values == null ? "the kept (unit, group) pairs' row counts"
        : "the kept (unit, group) pairs' values of " + values.column() + " in row-equivalents "
        + "(the pair's sum of clamped values over max(upper, 0), or over min(lower, 0) if "
        + "negative, rounded up; one SUM, so its value bound is what L∞ limits: the main pass "
        + "clamps each unit's total in a group, over all its rows, to [L∞·min(lower, 0), "
        + "L∞·max(upper, 0)] instead of keeping L∞ rows)";
    return "L∞ (max rows per unit per group) estimated privately: "
        + AutoBoundsPass.percent(shareOfBudget) + " of the budget buys a noisy quantile tree of "
        + what + " on a power-of-two grid (tree " + OUTPUT + "); L∞ is the smallest power of two above which the noisy number of pairs is within"
        + " the noise's one-sided " + config.suffixConfidence() + " band of zero, then raised while the"
        + " noisy count of the next cell alone exceeds its own " + config.confidence()
        + " band (read from the top, as"
        + " Google's ApproxBounds; as ZetaSQL, every row of a unit counts, up to a bound computed"
        + " privately)"
        + (config.maxExponent() < ContributionBoundEstimate.MAX_EXPONENT ? "; read at most "
            + config.largestBound() + " (the public limit of this query)" : "")
        + "; the main pass below shows the stand-in L∞ = " + config.largestBound()
        + ", replaced at run time by the estimate, which is released with the answer";
  }
}
