/**
 * Exact samplers on the integers, built only from the uniform integers of
 * {@link org.privet.random.RandomSource}: no floating-point number is ever sampled, so the attacks
 * of Mironov (2012), "On significance of the least significant bits for differential privacy"
 * (CCS 2012) do not apply.
 *
 * <ul>
 *   <li>{@link org.privet.noise.Bernoulli}: Bernoulli(p) for rational p, and Bernoulli(exp(−γ)) by
 *       Canonne, Kamath, Steinke (2020), "The Discrete Gaussian for Differential Privacy"
 *       (NeurIPS 2020; arXiv:2004.00010), Algorithm 1.
 *   <li>{@link org.privet.noise.Geometric}: the geometric law with ratio exp(−γ), core of CKS20
 *       Algorithm 2.
 *   <li>{@link org.privet.noise.DiscreteLaplace}: CKS20 Algorithm 2 (the noise of the geometric
 *       mechanism of Ghosh, Roughgarden, Sundararajan 2009).
 *   <li>{@link org.privet.noise.DiscreteGaussian}: CKS20 Algorithm 3.
 * </ul>
 *
 * <p>Uniform integers in a range use Lemire (2019), "Fast random integer generation in an
 * interval" (ACM TOMACS), which is exact. All arithmetic is on {@code long} with overflow
 * detected and handed to {@link java.math.BigInteger}; nothing wraps.
 */
package org.privet.noise;
