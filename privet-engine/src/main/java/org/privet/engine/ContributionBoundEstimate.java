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
 * cell everything above). L∞ is the smallest power of two 2^k whose noisy number of clipped
 * pairs (pairs with n &gt; 2^k, read from the consistent tree) is within the tree noise's
 * one-sided {@code suffixConfidence} band of zero (and so is the number in the {@value
 * #WINDOW_CELLS} cells just above it, against its {@code windowConfidence} band), raised one cell
 * at a time while the next cell's
 * noisy count alone exceeds its own one-sided {@code confidence} band (a short tail just above
 * 2^k hides in the band of the many cells above): a rank counted from the top, as Google's {@code
 * ApproxBounds} takes the most significant bin above a noise threshold, and as the quantile
 * threshold of {@code org.privet.mechanisms.truncation.QuantileThresholdMechanism} that measured
 * 1.0–2.9× the oracle's best fixed truncation on TPC-H (a fixed rank such as the 0.99 quantile
 * clips 1% of the units, a bias that grows with the data, and on small data lands in the noise).
 * Rows beyond 2^{@value #MAX_EXPONENT} per pair are always capped. Each
 * unit adds at most L0 pairs to the histogram, one per kept group, so the tree's sensitivity is
 * that of L0 rows. The main query then runs with the estimated L∞ and the rest of the budget;
 * one charge covers both (composition), and the estimate is a DP output released with the answer
 * ({@link Result#estimatedMaxRowsPerGroup()}). Privacy argument: {@code
 * docs/proofs/contribution-bound-estimate.md}.
 *
 * @param share the fraction of the query's budget spent on the estimate, in [{@link
 *     AutoBounds#MIN_SHARE}, {@link AutoBounds#MAX_SHARE}]
 * <p>False raises ({@code docs/proofs/contribution-bound-estimate.md}, "False raises"): if no
 * pair has more than 2^K rows, the estimate exceeds 2^K only if the suffix test, the window test
 * or the cell test lets the scan cross edge K + 1, so P[L∞ &gt; 2^K] ≤ γ<sub>s</sub> +
 * γ<sub>w</sub> + γ<sub>c</sub> (γ = 1 − the statement's confidence: 0.061 by default), and
 * P[L∞ &gt; 2^(K+d)] ≤ m·γ<sub>s</sub> + (γ<sub>w</sub> + γ<sub>c</sub>)<sup>m</sup> with m =
 * ⌈(d + 1)/3⌉. The suffix's band is the wide one (0.999 by default): the suffixes above the data
 * are nested sums of the same noises, so one suffix passed wrongly at 95% carried the scan on
 * through the empty cells, to 2^10 or beyond in about 2% of the releases on a few hundred units
 * with 1–10 rows; the window of {@value #WINDOW_CELLS} cells (0.99) carries the scan over a short
 * gap in the low cells when the pairs are too few for that band.
 *
 * @param confidence the one-sided confidence of each cell's "no more pairs than the noise
 *     explains" statement that stops the raise, in [0.5, 1)
 * @param suffixConfidence the one-sided confidence of the suffix's "no more clipped pairs than
 *     the noise explains" statement that stops the scan, in [0.5, 1)
 * @param windowConfidence the one-sided confidence of the same statement on the {@value
 *     #WINDOW_CELLS} cells just above the edge, which also carries the scan on, in [0.5, 1)
 * @param maxExponent e: the largest bound the estimate may release is 2^e, in [0, {@value
 *     #MAX_EXPONENT}] (default {@value #MAX_EXPONENT}); a smaller e limits the read of the same
 *     tree (post-processing: the tree, its grid and its cost do not change), e.g. over a private
 *     self-join, whose cap per unit must stay within {@link
 *     org.privet.engine.plan.Relation.UnitCap#MAX_JOINED_ROWS_PER_UNIT} ({@code
 *     docs/proofs/contribution-bound-estimate.md}, "A limited read")
 */
public record ContributionBoundEstimate(double share, double confidence, double suffixConfidence,
    double windowConfidence, int maxExponent) {
  /**
   * Default share of the budget: 20% (twice AUTO bounds' 10%). Measured on R2T's TPC-H joins at
   * scale factors 0.01, 0.1 and 1 (docs/benchmarks.md, "the L∞ estimate's reading rule"): with
   * 10% the tree's noise hides tails of a few dozen units just above a power of two at SF 0.01
   * (up to 3.6× the oracle's truncation); with 20% every count is within 2.4×, at the price of
   * 11% more noise in the main pass (0.8 of ε instead of 0.9).
   */
  public static final double DEFAULT_SHARE = 0.2;
  /** Default confidence of each cell's statement: 95%. */
  public static final double DEFAULT_CONFIDENCE = 0.95;
  /**
   * Default confidence of the suffix's statement: 99.9%, so that a wrong pass over the first
   * empty edge, which carries the scan on through the nested suffixes above it, has probability
   * about 10^-3 (with 95%: 5%, and 2^10 or more in about 2% of small-data releases). Measured on
   * R2T's TPC-H joins: the median error is unchanged or slightly lower (docs/benchmarks.md, "the
   * L∞ estimate's false raises").
   */
  public static final double DEFAULT_SUFFIX_CONFIDENCE = 0.999;
  /**
   * Default confidence of the window's statement: 99%. The suffix's wide band sums the noise of
   * up to 19 cells, so on a few hundred pairs or fewer it may stop below the bulk; the {@value
   * #WINDOW_CELLS} cells just above the edge, tested together, carry the scan over a short gap
   * (e.g. pairs of 5–8 rows and none of 2–4) with a band of √3 cells' noise.
   */
  public static final double DEFAULT_WINDOW_CONFIDENCE = 0.99;
  /** The cells above an edge that the window statement counts together. */
  public static final int WINDOW_CELLS = 3;
  /** E: the largest estimate is 2^E rows per unit per group (within the engine's 10^6). */
  public static final int MAX_EXPONENT = 19;
  /** The grid's cells: n = 1, 2, (2, 4], …, (2^(E−1), 2^E] and above. */
  public static final int CELLS = MAX_EXPONENT + 1;
  /** The L∞ the main query is compiled with before the charge (the grid's largest bound). */
  public static final int STAND_IN = 1 << MAX_EXPONENT;

  public ContributionBoundEstimate {
    AutoBounds.requireShare(share);
    if (!(confidence >= 0.5 && confidence < 1)) {
      throw new IllegalArgumentException("contribution bound confidence must be in [0.5, 1), was "
          + confidence);
    }
    if (!(suffixConfidence >= 0.5 && suffixConfidence < 1)) {
      throw new IllegalArgumentException("contribution bound suffixConfidence must be in [0.5, 1),"
          + " was " + suffixConfidence);
    }
    if (!(windowConfidence >= 0.5 && windowConfidence < 1)) {
      throw new IllegalArgumentException("contribution bound windowConfidence must be in [0.5, 1),"
          + " was " + windowConfidence);
    }
    if (maxExponent < 0 || maxExponent > MAX_EXPONENT) {
      throw new IllegalArgumentException("contribution bound maxExponent must be in [0, "
          + MAX_EXPONENT + "], was " + maxExponent);
    }
  }

  /**
   * The estimate whose largest bound is the grid's, 2^{@value #MAX_EXPONENT}, and whose suffix
   * statement has the default {@link #DEFAULT_SUFFIX_CONFIDENCE}.
   */
  public ContributionBoundEstimate(double share, double confidence) {
    this(share, confidence, DEFAULT_SUFFIX_CONFIDENCE, DEFAULT_WINDOW_CONFIDENCE, MAX_EXPONENT);
  }

  /** The estimate with the default {@link #DEFAULT_SUFFIX_CONFIDENCE}. */
  public ContributionBoundEstimate(double share, double confidence, int maxExponent) {
    this(share, confidence, DEFAULT_SUFFIX_CONFIDENCE, DEFAULT_WINDOW_CONFIDENCE, maxExponent);
  }

  /**
   * This estimate with another confidence of the window's statement (post-processing of the same
   * tree: its cost does not change).
   *
   * @throws IllegalArgumentException if {@code c} is outside [0.5, 1)
   */
  public ContributionBoundEstimate withWindowConfidence(double c) {
    return new ContributionBoundEstimate(share, confidence, suffixConfidence, c, maxExponent);
  }

  /**
   * This estimate with another confidence of the suffix's statement (post-processing of the same
   * tree: its cost does not change).
   *
   * @throws IllegalArgumentException if {@code c} is outside [0.5, 1)
   */
  public ContributionBoundEstimate withSuffixConfidence(double c) {
    return new ContributionBoundEstimate(share, confidence, c, windowConfidence, maxExponent);
  }

  /**
   * This estimate with its largest bound limited to 2^{@code e} (post-processing of the same
   * tree), or this one if it is already at most that.
   *
   * @throws IllegalArgumentException if {@code e} is outside [0, {@value #MAX_EXPONENT}]
   */
  public ContributionBoundEstimate withMaxExponent(int e) {
    return new ContributionBoundEstimate(share, confidence, suffixConfidence, windowConfidence,
        Math.min(maxExponent, checkedExponent(e)));
  }

  private static int checkedExponent(int e) {
    if (e < 0 || e > MAX_EXPONENT) {
      throw new IllegalArgumentException("contribution bound maxExponent must be in [0, "
          + MAX_EXPONENT + "], was " + e);
    }
    return e;
  }

  /**
   * The largest bound this estimate releases, 2^maxExponent: also the stand-in L∞ the main query
   * is compiled with before the charge ({@link #STAND_IN} by default).
   */
  public int largestBound() {
    return 1 << maxExponent;
  }

  /** The default estimate: {@link #DEFAULT_SHARE} of the budget, {@link #DEFAULT_CONFIDENCE}. */
  public static ContributionBoundEstimate defaults() {
    return new ContributionBoundEstimate(DEFAULT_SHARE, DEFAULT_CONFIDENCE);
  }

  /** The L∞ of grid cell {@code cell} (0 ≤ cell &lt; {@link #CELLS}): 2^cell. */
  public static int boundOfCell(int cell) {
    return 1 << Math.max(0, Math.min(MAX_EXPONENT, cell));
  }
}
