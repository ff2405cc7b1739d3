package org.privet.ledger;

import java.util.List;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;

/**
 * The conditions under which a dataset's admission rule ({@link BudgetRule#admit}) is a proven
 * privacy filter when analysts choose every charge's parameters adaptively (proof:
 * docs/proofs/ledger-filter.md). Each dataset's rule must be a fixed box that one theorem covers:
 *
 * <ul>
 *   <li>basic accountant, ε or (ε, δ) budget: Σε ≤ ε<sub>B</sub> and Σδ ≤ δ<sub>B</sub> over
 *       events read directly as (ε, δ)-DP (Rogers, Roth, Ullman, Vadhan 2016). A ρ event would
 *       enter a joint conversion at a δ that depends on the path, which no theorem covers, so
 *       only {@link PureDp} and {@link ApproxDp} events are admitted (callers charge a release's
 *       own (ε, δ) total instead);
 *   <li>zCDP accountant, (ε, δ) budget: Σρ ≤ ρ* with ρ* fixed by converting at δ<sub>B</sub>
 *       (Feldman &amp; Zrnic 2021). An event with δ &gt; 0 would move the conversion δ along the
 *       path, so none is admitted; private group selection under zCDP needs a ρ-plus-δ budget;
 *   <li>zCDP accountant, ρ budget: Σρ ≤ ρ<sub>B</sub>, no δ (Feldman &amp; Zrnic 2021; enforced by
 *       {@link BudgetRule#spent});
 *   <li>zCDP accountant, ρ-plus-δ budget: Σρ ≤ ρ<sub>B</sub> and Σδ ≤ δ<sub>B</sub> (Whitehouse,
 *       Ramdas, Rogers, Wu 2023).
 * </ul>
 *
 * <p>The refusal depends only on the registration and the charge's public costs, never on data.
 */
final class ProvenFilter {
  private ProvenFilter() {}

  /**
   * Refuses a charge whose costs would take the dataset's rule outside its proven filter.
   *
   * @throws BudgetExceededException naming the dataset and the reason; nothing is charged
   */
  static void requireAdmissible(DatasetSpec spec, List<? extends PrivacyLoss> cost) {
    for (PrivacyLoss loss : cost) {
      if (spec.accountant() == AccountantKind.BASIC && !(loss instanceof PureDp || loss instanceof ApproxDp)) {
        throw new BudgetExceededException("dataset '" + spec.name() + "' composes its charges by basic"
            + " composition, proven for adaptively chosen (epsilon, delta) releases only; a release"
            + " stated in rho cannot join it (docs/proofs/ledger-filter.md). State its budget in epsilon"
            + " (and delta), or register the dataset with the zcdp accountant; nothing was charged");
      }
      if (spec.accountant() == AccountantKind.ZCDP && !spec.budget().isZcdp()
          && ownDelta(loss) > 0) {
        throw new BudgetExceededException("dataset '" + spec.name() + "' converts its zCDP spend at its"
            + " own delta; a release with a delta of its own (private group selection, an (epsilon,"
            + " delta) mechanism) cannot join it, because adaptively chosen deltas would move that"
            + " conversion (docs/proofs/ledger-filter.md). Use public groups, or register the dataset"
            + " with --rho and --delta; nothing was charged");
      }
    }
  }

  /** The δ a release states for itself ((ε, δ)-DP or δ-approximate zCDP), else 0. */
  private static double ownDelta(PrivacyLoss loss) {
    if (loss instanceof ApproxDp a) {
      return a.delta();
    }
    return loss instanceof ApproxZcdp z ? z.delta() : 0.0;
  }
}
