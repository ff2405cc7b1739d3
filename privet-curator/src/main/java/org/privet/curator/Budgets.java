package org.privet.curator;

import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/** A stated budget or share: ε with an optional δ, or ρ (zCDP) with an optional δ. */
public final class Budgets {
  private Budgets() {}

  /**
   * The budget stated by exactly one of ε (with optional δ) or ρ (with optional δ); the option
   * names are those of the CLI ({@code --epsilon}, {@code --delta}, {@code --rho}).
   */
  public static PrivacyLoss of(Double epsilon, Double delta, Double rho) {
    if (rho != null) {
      if (epsilon != null) {
        throw new IllegalArgumentException("give either --epsilon [--delta] or --rho [--delta], not both");
      }
      if (delta != null && delta != 0.0) {
        return new ApproxZcdp(rho, delta);
      }
      return new Zcdp(rho);
    }
    if (epsilon == null) {
      throw new IllegalArgumentException("--epsilon (or --rho) is required");
    }
    if (delta == null || delta == 0.0) {
      return new PureDp(epsilon);
    }
    return new ApproxDp(epsilon, delta);
  }
}
