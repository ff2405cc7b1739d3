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
 *       Theorem 14 (ρ-zCDP) and Algorithm 3.
 *   <li>{@code LaplaceMechanism}: Dwork, McSherry, Nissim, Smith (2006), "Calibrating noise to
 *       sensitivity in private data analysis", made floating-point safe against Mironov (2012),
 *       "On significance of the least significant bits for differential privacy".
 *   <li>{@code GaussianMechanism}: Dwork &amp; Roth (2014), Theorem A.1 (classic) and Balle &amp; Wang
 *       (2018), "Improving the Gaussian Mechanism for Differential Privacy", Theorem 8 (analytic);
 *       discrete Gaussian on a grid, (ε, δ) certified by CKS20 Theorem 7.
 * </ul>
 */
package org.privet.mechanisms;
