/**
 * Test support, never a dependency of main code: a seedable {@link
 * org.privet.testing.SeededRandomSource} and statistical helpers for the statistical test tier.
 *
 * <ul>
 *   <li>{@link org.privet.testing.ChiSquareTest}: Pearson's goodness of fit (p-value from the
 *       regularized incomplete gamma function).
 *   <li>{@link org.privet.testing.KolmogorovSmirnovTest}: one- and two-sample KS with the
 *       Kolmogorov limit law and Stephens' (1970) small-sample correction.
 *   <li>{@link org.privet.testing.ClopperPearson}: exact binomial intervals (Clopper &amp; Pearson
 *       1934) via the regularized incomplete beta function.
 *   <li>{@link org.privet.testing.PrivacyAudit}: a statistically valid lower bound on ε from event
 *       counts on neighbouring inputs (Ding et al. 2018; Jagielski, Ullman, Oprea 2020).
 * </ul>
 *
 * <p>Special functions follow the standard series and continued fractions (Lanczos 1964 for
 * ln Γ; Abramowitz &amp; Stegun 6.5 and 26.5 for the incomplete gamma and beta functions).
 */
package org.privet.testing;
