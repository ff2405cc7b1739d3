package org.privet.mechanisms;

/** How {@link GaussianMechanism} chooses σ for a target (ε, δ). */
public enum GaussianCalibration {
  /**
   * The exact calibration of Balle &amp; Wang (2018), "Improving the Gaussian Mechanism for
   * Differential Privacy: Analytical Calibration and Optimal Denoising" (ICML), Theorem 8: the
   * smallest σ with Φ(Δ/(2σ) − εσ/Δ) − e<sup>ε</sup>Φ(−Δ/(2σ) − εσ/Δ) ≤ δ. Valid for every ε &gt; 0.
   */
  ANALYTIC,
  /**
   * The textbook σ = Δ·√(2 ln(1.25/δ))/ε (Dwork &amp; Roth 2014, Theorem A.1), valid only for ε &lt; 1.
   */
  CLASSIC
}
