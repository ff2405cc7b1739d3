package org.privet.cli;

import org.privet.accounting.Budget;
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
  Budget budget() {
    return org.privet.curator.Budgets.of(epsilon, delta, rho);
  }
}
