/**
 * Privacy loss values, conversions between privacy measures, and accountants that compose them.
 *
 * <ul>
 *   <li>Values: {@link org.privet.accounting.PureDp}, {@link org.privet.accounting.ApproxDp},
 *       {@link org.privet.accounting.Zcdp} (Bun &amp; Steinke 2016).
 *   <li>Conversions: {@link org.privet.accounting.ZcdpConversion} (Bun &amp; Steinke 2016, Prop.
 *       1.3; Canonne, Kamath, Steinke 2020, Prop. 12), {@link org.privet.accounting.RenyiConversion}
 *       (Mironov 2017; Balle et al. 2020, Thm. 21; Asoodeh et al. 2021).
 *   <li>Accountants ({@link org.privet.accounting.Accountant}): {@link
 *       org.privet.accounting.BasicAccountant}, {@link org.privet.accounting.ZcdpAccountant}.
 *   <li>Budgets: {@link org.privet.accounting.PrivacyFilter} (Rogers, Roth, Ullman, Vadhan 2016;
 *       Whitehead, Rogers, Cummings 2022).
 * </ul>
 *
 * <p>All arithmetic that feeds a privacy claim rounds toward more privacy loss.
 */
package org.privet.accounting;
