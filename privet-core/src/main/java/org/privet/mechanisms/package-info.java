/**
 * Differential privacy mechanisms: each has a validating builder, returns what it costs from
 * {@code privacyLoss()}, and states its accuracy.
 *
 * <p>Numeric mechanisms (all noise is exact, on the integers or on a power-of-two grid; see
 * {@code docs/proofs/grid-noise.md}):
 *
 * <ul>
 *   <li>{@link org.privet.mechanisms.GeometricMechanism}: Ghosh, Roughgarden, Sundararajan (2009),
 *       "Universally utility-maximizing privacy mechanisms"; sampler of Canonne, Kamath, Steinke
 *       (2020), "The Discrete Gaussian for Differential Privacy", Algorithm 2.
 *   <li>{@link org.privet.mechanisms.DiscreteGaussianMechanism}: Canonne, Kamath, Steinke (2020),
 *       Proposition 5 (ρ-zCDP) and Algorithm 3.
 *   <li>{@code LaplaceMechanism}: Dwork, McSherry, Nissim, Smith (2006), "Calibrating noise to
 *       sensitivity in private data analysis", made floating-point safe against Mironov (2012),
 *       "On significance of the least significant bits for differential privacy".
 *   <li>{@code GaussianMechanism}: Dwork &amp; Roth (2014), Theorem A.1 (classic) and Balle &amp; Wang
 *       (2018), "Improving the Gaussian Mechanism for Differential Privacy", Theorem 8 (analytic);
 *       discrete Gaussian on a grid, (ε, δ) certified by CKS20 Theorem 7.
 * </ul>
 *
 * <p>Choice mechanisms (exact: utilities on a power-of-two integer grid, ε rounded down to a
 * dyadic rational, coins from exact Bernoulli(exp(−γ)); see {@code docs/proofs/}):
 *
 * <ul>
 *   <li>{@link org.privet.mechanisms.RandomizedResponse}: Warner (1965); Dwork &amp; Roth (2014),
 *       Sec. 3.2; k-ary form Kairouz, Oh, Viswanath (2014) and Wang, Blocki, Li, Jha (2017).
 *   <li>{@link org.privet.mechanisms.ExponentialMechanism}: McSherry &amp; Talwar (2007),
 *       "Mechanism Design via Differential Privacy"; exact implementation in the spirit of Ilvento
 *       (2020), "Implementing the exponential mechanism with base-2 differential privacy".
 *   <li>{@link org.privet.mechanisms.ReportNoisyMax}: Dwork &amp; Roth (2014), Claim 3.9 (Laplace),
 *       and the Gumbel-max equivalence with the exponential mechanism.
 *   <li>{@link org.privet.mechanisms.SelectionMechanism}: the common face of the three selection
 *       mechanisms (exponential, report noisy max, permute-and-flip).
 *   <li>{@link org.privet.mechanisms.PermuteAndFlip}: McKenna &amp; Sheldon (2020),
 *       "Permute-and-Flip: A new mechanism for differentially private selection".
 *   <li>{@link org.privet.mechanisms.SparseVector}: Lyu, Su, Li (2017), "Understanding the Sparse
 *       Vector Technique for Differential Privacy", Algorithm 1; Dwork &amp; Roth (2014), Sec. 3.6.
 *   <li>{@link org.privet.mechanisms.Sensitivity}: global sensitivities of counting, linear,
 *       histogram, threshold, attribute-mean, bounded mean and variance queries under an explicit
 *       {@link org.privet.accounting.NeighbouringRelation}.
 * </ul>
 */
package org.privet.mechanisms;
