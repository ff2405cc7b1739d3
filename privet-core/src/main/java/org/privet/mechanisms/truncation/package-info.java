/**
 * Truncation mechanisms for queries over joins whose privacy unit spans tables (issue 25): a unit's
 * contribution to a join is unbounded a priori, so the query is truncated at a threshold τ chosen
 * privately.
 *
 * <ul>
 *   <li>{@link org.privet.mechanisms.truncation.R2TMechanism}: Dong, Fang, Yi, Tao,
 *       Machanavajjhala, "R2T: Instance-optimal Truncation for Differentially Private Query
 *       Evaluation with Foreign Keys", SIGMOD 2022 (authors' code:
 *       github.com/hkustDB/Race-to-the-Top).
 *   <li>{@link org.privet.mechanisms.truncation.QuantileThresholdMechanism}: the threshold from a
 *       DP upper quantile of the per-unit contributions (AboveThreshold, Lyu, Su, Li 2017), rounded
 *       up to a power of two.
 * </ul>
 *
 * <p>The input is a {@link org.privet.mechanisms.truncation.TruncatedQuery}: the self-join-free
 * case {@link org.privet.mechanisms.truncation.UnitContributions} (each join result attributed to
 * one unit), its values computed by the engine ({@link
 * org.privet.mechanisms.truncation.ThresholdAnswers}), or R2T's LP-based truncation for results
 * referencing several units ({@link org.privet.mechanisms.truncation.LpTruncation}, solved exactly;
 * not used by the engine, which refuses private self-joins). Proof:
 * {@code docs/proofs/r2t-truncation.md}.
 */
package org.privet.mechanisms.truncation;
