/**
 * Privacy loss values, conversions between privacy measures, and accountants that compose them.
 *
 * <ul>
 *   <li>Values: {@link org.privet.accounting.PureDp}, {@link org.privet.accounting.ApproxDp},
 *       {@link org.privet.accounting.Zcdp} (Bun &amp; Steinke 2016).
 *   <li>Conversions: {@link org.privet.accounting.ZcdpConversion} (Bun &amp; Steinke 2016, Prop.
 *       1.3; Canonne, Kamath, Steinke 2020, Prop. 12), {@link org.privet.accounting.RenyiConversion}
 *       (Mironov 2017; Balle et al. 2020, Thm. 21; Asoodeh et al. 2021).
 *   <li>Richer events: {@link org.privet.accounting.RdpCurve} (Mironov 2017), {@link
 *       org.privet.accounting.MechanismLoss} (Gaussian, Laplace, discrete Laplace/Gaussian,
 *       randomized response), {@link org.privet.accounting.PoissonSubsampled}.
 *   <li>Accountants ({@link org.privet.accounting.Accountant}): {@link
 *       org.privet.accounting.BasicAccountant}, {@link org.privet.accounting.ZcdpAccountant}, {@link
 *       org.privet.accounting.RdpAccountant} (Mironov, Talwar, Zhang 2019), {@link
 *       org.privet.accounting.pld.PldAccountant} (Doroshenko et al. 2022; package {@code pld}), {@link
 *       org.privet.accounting.AdvancedCompositionAccountant} (Dwork, Rothblum, Vadhan 2010),
 *       {@link org.privet.accounting.OptimalCompositionAccountant} (Kairouz, Oh, Viswanath 2015;
 *       Murtagh &amp; Vadhan 2016).
 *   <li>Transformations of guarantees: {@link org.privet.accounting.Subsampling}, {@link
 *       org.privet.accounting.GroupPrivacy}, {@link org.privet.accounting.ParallelComposition}, {@link
 *       org.privet.accounting.BudgetSplit}, {@link org.privet.accounting.NoiseCalibration}.
 *   <li>Budgets: {@link org.privet.accounting.PrivacyFilter} (Rogers, Roth, Ullman, Vadhan 2016;
 *       Feldman &amp; Zrnic 2021) and {@link org.privet.accounting.PrivacyOdometer}.
 * </ul>
 *
 * <p>All arithmetic that feeds a privacy claim rounds toward more privacy loss. Written arguments:
 * <a href="../../../../../../docs/proofs/accounting.md">docs/proofs/accounting.md</a> and
 * <a href="../../../../../../docs/proofs/pld-accountant.md">docs/proofs/pld-accountant.md</a>.
 */
package org.privet.accounting;
