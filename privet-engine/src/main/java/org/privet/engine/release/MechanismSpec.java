package org.privet.engine.release;

import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/**
 * Which mechanism a {@link Release} uses, with its parameters: budget share and sensitivity (in
 * fixed-point units, already multiplied out over the L0 groups one unit touches). Instantiated by
 * {@link Releases}; the privacy argument is {@code docs/proofs/engine-budget-split.md}.
 */
public sealed interface MechanismSpec
    permits MechanismSpec.Geometric, MechanismSpec.DiscreteGaussian, MechanismSpec.Exponential {

  /**
   * L1 (geometric), L2 (discrete Gaussian, rounded up) over all groups, or the per-group utility
   * sensitivity (exponential); for a quantile tree over all its nodes in all groups.
   */
  long sensitivity();

  /** The privacy loss the mechanism states. */
  PrivacyLoss loss();

  /** Name and parameters, for receipts. */
  String describe();

  /** Two-sided geometric (discrete Laplace) noise at ε with L1 sensitivity Δ₁. */
  record Geometric(double epsilon, long sensitivity) implements MechanismSpec {
    @Override
    public PrivacyLoss loss() {
      return new PureDp(epsilon);
    }

    @Override
    public String describe() {
      return "GeometricMechanism(ε=" + BudgetFormat.up(epsilon) + ", Δ₁=" + sensitivity + ")";
    }
  }

  /**
   * Discrete Gaussian noise at ρ-zCDP with L2 sensitivity Δ₂.
   *
   * @param sensitivity ⌈Δ₂⌉, the integer ℓ2 sensitivity shown and used where an integer is needed
   * @param squaredSensitivity Δ₂² exactly (L0·pg², or L0·H·L∞² for a tree), which calibrates
   *     σ² = Δ₂²/(2ρ) (issue 22: ⌈√2·3⌉ = 5 instead of 4.24 cost a user-level count 18% of
   *     accuracy); 0 when it does not fit a long (then ⌈Δ₂⌉² is used)
   */
  record DiscreteGaussian(double rho, long sensitivity, long squaredSensitivity)
      implements MechanismSpec {
    @Override
    public PrivacyLoss loss() {
      return new Zcdp(rho);
    }

    @Override
    public String describe() {
      String d = squaredSensitivity > 0 && squaredSensitivity != sensitivity * sensitivity
          ? "√" + squaredSensitivity : String.valueOf(sensitivity);
      return "DiscreteGaussianMechanism(ρ=" + BudgetFormat.up(rho) + ", Δ₂=" + d + ")";
    }
  }

  /**
   * The exponential mechanism run once per group with ε/L0 ({@code epsilon} is the total over the
   * L0 groups one unit touches).
   */
  record Exponential(double epsilon, long sensitivity, int l0) implements MechanismSpec {
    @Override
    public PrivacyLoss loss() {
      return new PureDp(epsilon);
    }

    @Override
    public String describe() {
      return "ExponentialMechanism(ε=" + BudgetFormat.up(epsilon / l0) + " per group, Δu=" + sensitivity
          + ")";
    }
  }

  static String fmt(double v) {
    return String.format("%.6g", v);
  }
}
