package org.privet.cli;

import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import picocli.CommandLine.Option;

/**
 * Shared options stating a budget: {@code --epsilon E [--delta D]}, or {@code --rho R [--delta D]}
 * (ρ-zCDP, or with δ &gt; 0 δ-approximate ρ-zCDP, which pays for private partition selection).
 */
final class BudgetOptions {
  @Option(names = "--epsilon", paramLabel = "E", description = "Total epsilon (> 0).")
  Double epsilon;

  @Option(names = "--delta", paramLabel = "D",
      description = "Total delta in [0, 1) (default 0); with --rho, the delta of approximate zCDP.")
  Double delta;

  @Option(names = "--rho", paramLabel = "R", description = "Total rho (zCDP) instead of epsilon/delta.")
  Double rho;

  /** The stated budget; exactly one of ε (with optional δ) or ρ. */
  PrivacyLoss budget() {
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
