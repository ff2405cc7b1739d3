package org.privet.mechanisms.truncation;

/**
 * A truncated query Q(I, τ) in the sense of R2T (Dong, Fang, Yi, Tao, Machanavajjhala, "R2T:
 * Instance-optimal Truncation for Differentially Private Query Evaluation with Foreign Keys",
 * SIGMOD 2022): a family of integer (fixed-point) answers indexed by a threshold τ ≥ 0, with the
 * properties R2T's privacy and error theorems use, which every implementation must satisfy under
 * the neighbour relation of {@code docs/proofs/threat-model.md} (one privacy unit and every row
 * that references it, transitively, added or removed):
 *
 * <ol>
 *   <li><b>stability:</b> for every τ, |Q(I, τ) − Q(I', τ)| ≤ τ for neighbours I, I';
 *   <li><b>under-estimation:</b> Q(I, τ) ≤ Q(I) for every τ;
 *   <li><b>exactness above the downward sensitivity:</b> Q(I, τ) = Q(I) once τ ≥ DS<sub>Q</sub>(I);
 *   <li><b>Q(I, 0) is data-independent</b> (0 here).
 * </ol>
 *
 * <p>Property 1 is what the privacy of {@link R2TMechanism} rests on; 2 and 3 are what its error
 * bound rests on. The interface is sealed so that only implementations whose stability is proved in
 * {@code docs/proofs/r2t-truncation.md} can be released: today {@link UnitContributions} (the
 * self-join-free case, each join result attributed to exactly one unit, Q(I, τ) = Σ<sub>u</sub>
 * min(c<sub>u</sub>, τ)), and {@link ThresholdAnswers} (the same Q(I, τ) computed where the
 * data lives, e.g. by the engine's bounding plan with one group per unit and τ rows per unit,
 * handed over as exact values at the public thresholds only), and {@link LpTruncation} (R2T's
 * LP-based truncation for join results referencing several units, solved exactly; not used by the
 * engine, which refuses private self-joins).
 */
public sealed interface TruncatedQuery permits UnitContributions, ThresholdAnswers, LpTruncation {

  /**
   * Q(I, τ), saturating at {@link UnitContributions#SUM_CAP}.
   *
   * @param tau the threshold, at least 0
   * @throws IllegalArgumentException if {@code tau} is negative
   */
  long evaluate(long tau);
}
