package org.privet.engine;

/**
 * How private partition selection thresholds the noisy number of distinct units per group
 * (ignored with public groups). See {@code docs/proofs/engine-partition-selection.md}.
 */
public enum Thresholding {
  /**
   * Gaussian thresholding when the query's value noise is Gaussian or the budget is zCDP (ρ plus
   * δ), Laplace thresholding otherwise.
   */
  AUTO,
  /** Discrete Laplace noise and threshold; costs (ε, δ)-DP (Korolova et al. 2009). */
  LAPLACE,
  /**
   * Discrete Gaussian noise (ℓ2 sensitivity √L0) and threshold; costs δ-approximate ρ-zCDP, which
   * composes with Gaussian value releases in ρ (Desfontaines et al. 2022; Google's Gaussian
   * thresholding).
   */
  GAUSSIAN
}
