package org.privet.engine;

/**
 * How private partition selection chooses the released groups (ignored with public groups). See
 * {@code docs/proofs/engine-partition-selection.md} and {@code
 * docs/proofs/optimal-partition-selection.md}.
 */
public enum Thresholding {
  /**
   * The candidate that releases a group with probability ½ from the fewest distinct units, at the
   * budget share it would get: post-aggregation thresholding on the query's own noisy COUNT(*)
   * (with maxRowsPerGroup = 1) or COUNT(DISTINCT unit) when there is one, the optimal mechanism,
   * and a separate threshold (Gaussian when the value noise is Gaussian or the budget is zCDP,
   * Laplace otherwise). The plan's bounds say which was chosen and the candidates' figures.
   */
  AUTO,
  /** Discrete Laplace noise and threshold; costs (ε, δ)-DP (Korolova et al. 2009). */
  LAPLACE,
  /**
   * Discrete Gaussian noise (ℓ2 sensitivity √L0) and threshold; costs δ-approximate ρ-zCDP, which
   * composes with Gaussian value releases in ρ (Desfontaines et al. 2022; Google's Gaussian
   * thresholding).
   */
  GAUSSIAN,
  /**
   * The optimal keep probabilities of Desfontaines, Voss, Gipson, Mandayam 2022 (Theorem 1;
   * Google's {@code PreAggSelectPartition}) at (ε/L0, δ/L0) per group; costs (ε, δ)-DP. Releases no
   * noisy count.
   */
  OPTIMAL,
  /**
   * Post-aggregation thresholding: the query's own noisy COUNT(*) (needs maxRowsPerGroup = 1, so
   * that it counts distinct units) or COUNT(DISTINCT unit) is thresholded and released, so
   * selection buys no second measurement; Laplace or Gaussian as the value noise.
   */
  POST_AGGREGATION,
  /**
   * Differentially private set union: the policy Gaussian mechanism with ℓ2-descent of Gopi,
   * Gulhane, Kulkarni, Shen, Shokouhi, Yekhanin 2020 over each unit's kept groups (units in random
   * order, each unit's weight goes to its groups still below the cutoff); costs (ε, δ)-DP and needs
   * an (ε, δ) budget. Opt-in: AUTO cannot compare it without data. Releases no noisy count.
   * ({@code docs/proofs/dp-set-union.md}.)
   */
  SET_UNION
}
