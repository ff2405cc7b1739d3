package org.privet.engine;

/** Which noise a query's value mechanisms use. */
public enum NoiseKind {
  /**
   * Laplace-type (geometric) noise for pure ε-DP budgets, discrete Gaussian for ρ-zCDP budgets,
   * and for (ε, δ) budgets with δ &gt; 0 whichever of the two gives the smaller total noise variance.
   */
  AUTO,
  /** Discrete Laplace (geometric mechanism) on fixed-point integers; pure ε-DP per mechanism. */
  LAPLACE,
  /** Discrete Gaussian on fixed-point integers; ρ-zCDP per mechanism. Needs δ &gt; 0 or a ρ budget. */
  GAUSSIAN
}
