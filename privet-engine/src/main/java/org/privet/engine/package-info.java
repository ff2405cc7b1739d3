/**
 * User-level differentially private aggregate queries over tables (the Privet engine).
 *
 * <p>An analyst builds an immutable {@link org.privet.engine.Query} (privacy unit, contribution
 * bounds L0 and L∞, clamping bounds, group-by columns with public keys or private partition
 * selection, COUNT, COUNT(DISTINCT unit), SUM, MEAN, VARIANCE, STDDEV, QUANTILES, HISTOGRAM, a WHERE
 * {@link org.privet.engine.Filter}, and a {@link org.privet.accounting.Budget}); a
 * {@link org.privet.engine.Session} compiles it — logical query → rewrites (bounding, fixed-point
 * scale, NULL/NaN handling, mechanism choice, budget split) → physical plan for a
 * {@link org.privet.engine.spi.Backend} (SQL on embedded DuckDB) → noise in Java → result with
 * confidence intervals and a {@link org.privet.engine.Receipt}. The full cost is charged through a
 * {@link org.privet.engine.BudgetCharger} before anything is released.
 *
 * <p>Privacy arguments: {@code docs/proofs/engine-bounding.md} (stability of contribution
 * bounding), {@code engine-fixed-point.md} (exact integer sums), {@code
 * engine-partition-selection.md}, {@code engine-budget-split.md}, {@code engine-quantiles.md}
 * (quantile tree and its value intervals). References:
 *
 * <ul>
 *   <li>Contribution bounding and user-level DP: Wilson, Zhang, Lam, Desfontaines, Simmons-Marengo,
 *       Gipson (2020), "Differentially Private SQL with Bounded User Contribution", PoPETs;
 *       Amin, Kulesza, Muñoz Medina, Vassilvitskii (2019), "Bounding User Contributions: A
 *       Bias-Variance Trade-off in Differential Privacy", ICML.
 *   <li>Partition selection: Korolova, Kenthapadi, Mishra, Ntoulas (2009); Desfontaines, Voss,
 *       Gipson, Mandayam (2022), "Differentially private partition selection", PoPETs.
 *   <li>Fixed-point sums: Casacuberta, Shoemate, Vadhan, Wagaman (2022), "Widespread
 *       underestimation of sensitivity in differentially private libraries and how to fix it", CCS.
 *   <li>Noise: geometric mechanism (Ghosh, Roughgarden, Sundararajan 2009); discrete Gaussian
 *       (Canonne, Kamath, Steinke 2020); zCDP composition and conversion (Bun &amp; Steinke 2016).
 *   <li>Quantiles: by default a quantile tree (hierarchical histogram: Hay, Rastogi, Miklau, Suciu
 *       2010, VLDB; Qardaji, Yang, Li 2013, VLDB; Google's differential-privacy
 *       {@code BoundedQuantiles}/{@code QuantileTree} and PipelineDP; no released root, branching by
 *       the number of cells) read through least-squares consistency, with per-rank value
 *       confidence intervals from two one-sided statements at the quantile's cell edges; optionally the
 *       exponential mechanism over a grid (McSherry &amp; Talwar 2007; Smith 2011,
 *       "Privacy-preserving statistical estimation with optimal convergence rates", STOC).
 *   <li>Architecture: Tumult Analytics (plan tree, compile-time check that the charge equals the
 *       measurement's loss); PipelineDP4j (engine written once against a small backend SPI).
 * </ul>
 */
package org.privet.engine;
