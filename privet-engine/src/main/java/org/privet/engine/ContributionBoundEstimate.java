package org.privet.engine;

/**
 * L∞ (the most rows one privacy unit adds to one group) estimated privately instead of given:
 * ZetaSQL's and BigQuery's default contribution of {@code COUNT(*)}, {@code SUM}, {@code VAR_POP},
 * {@code STDDEV_POP} and {@code PERCENTILE_CONT} without bounds, where every row of a unit counts
 * and the unit's per-group partial aggregate is clamped by bounds computed privately (Google's
 * {@code ApproxBounds}, differential-privacy library; Wilson et al., "Differentially Private SQL
 * with Bounded User Contribution", PoPETs 2020, section 4: contribution bounding and its
 * automatic bounds).
 *
 * <p>A stated {@code share} of the query's budget buys one noisy quantile tree ({@link
 * QuantileTree}) over the distribution of the row counts n of the kept (unit, group) pairs, on a
 * public power-of-two grid of {@link #CELLS} cells (cell j holds n ∈ (2^(j−1), 2^j], the last
 * cell everything above); the cell holding its noisy {@code rank} quantile gives L∞ = 2^j,
 * already a power of two (rows beyond 2^{@value #MAX_EXPONENT} per pair are always capped). Each
 * unit adds at most L0 pairs to the histogram, one per kept group, so the tree's sensitivity is
 * that of L0 rows. The main query then runs with the estimated L∞ and the rest of the budget;
 * one charge covers both (composition), and the estimate is a DP output released with the answer
 * ({@link Result#estimatedMaxRowsPerGroup()}). Privacy argument: {@code
 * docs/proofs/contribution-bound-estimate.md}.
 *
 * @param share the fraction of the query's budget spent on the estimate, in [{@link
 *     AutoBounds#MIN_SHARE}, {@link AutoBounds#MAX_SHARE}]
 * @param rank the rank of the pair-row-count distribution whose cell gives L∞, in [0.5, 1]
 */
public record ContributionBoundEstimate(double share, double rank) {
  /** Default share of the budget (10%, as for AUTO bounds). */
  public static final double DEFAULT_SHARE = AutoBounds.DEFAULT_SHARE;
  /** Default rank: the 99th percentile of the pairs' row counts (AUTO bounds' upper rank). */
  public static final double DEFAULT_RANK = AutoBounds.DEFAULT_UPPER_RANK;
  /** E: the largest estimate is 2^E rows per unit per group (within the engine's 10^6). */
  public static final int MAX_EXPONENT = 19;
  /** The grid's cells: n = 1, 2, (2, 4], …, (2^(E−1), 2^E] and above. */
  public static final int CELLS = MAX_EXPONENT + 1;
  /** The L∞ the main query is compiled with before the charge (the grid's largest bound). */
  public static final int STAND_IN = 1 << MAX_EXPONENT;

  public ContributionBoundEstimate {
    AutoBounds.requireShare(share);
    if (!(rank >= 0.5 && rank <= 1)) {
      throw new IllegalArgumentException("contribution bound rank must be in [0.5, 1], was "
          + rank);
    }
  }

  /** The default estimate: {@link #DEFAULT_SHARE} of the budget, the {@link #DEFAULT_RANK}. */
  public static ContributionBoundEstimate defaults() {
    return new ContributionBoundEstimate(DEFAULT_SHARE, DEFAULT_RANK);
  }

  /** The L∞ of grid cell {@code cell} (0 ≤ cell &lt; {@link #CELLS}): 2^cell. */
  public static int boundOfCell(int cell) {
    return 1 << Math.max(0, Math.min(MAX_EXPONENT, cell));
  }
}
