package org.privet.curator;

import org.privet.accounting.Budget;

/** A stated budget or share: ε with an optional δ, or ρ (zCDP) with an optional δ. */
public final class Budgets {
  private Budgets() {}

  /**
   * The budget stated by exactly one of ε (with optional δ) or ρ (with optional δ), as core's
   * {@link Budget} (δ absent or 0 gives pure ε or pure ρ); the option names are those of the CLI
   * ({@code --epsilon}, {@code --delta}, {@code --rho}).
   *
   * @throws IllegalArgumentException naming the option, if both or neither are given or a value is
   *     out of range
   */
  public static Budget of(Double epsilon, Double delta, Double rho) {
    double d = delta == null ? 0.0 : delta;
    if (rho != null) {
      if (epsilon != null) {
        throw new IllegalArgumentException("give either --epsilon [--delta] or --rho [--delta], not both");
      }
      return Budget.zcdp(rho, d);
    }
    if (epsilon == null) {
      throw new IllegalArgumentException("--epsilon (or --rho) is required");
    }
    return Budget.approx(epsilon, d);
  }
}
