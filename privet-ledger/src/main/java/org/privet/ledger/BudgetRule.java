package org.privet.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;

/**
 * The admission rule of a dataset's charges: the dataset's total and the analyst's grant are each a
 * {@link Budget} (privet-core), which composes the charges in its measure ({@link Budget#compose}:
 * the dataset's accountant at the budget's δ for ε budgets, Σρ and Σδ for ρ budgets), admits or
 * refuses the spend ({@link Budget#admits}) and says what remains ({@link Budget#remaining},
 * rounded down). This class only gathers the charges and names who is over.
 *
 * <p>A budget check on a growing, adaptively chosen sequence is a privacy filter. Each dataset's
 * rule is one proven filter as long as the conditions of {@link ProvenFilter} hold, which
 * {@link #admit} checks first (docs/proofs/ledger-filter.md).
 */
final class BudgetRule {
  private BudgetRule() {}

  /**
   * The composed spend of {@code events} under the dataset's accountant, in the measure of
   * {@code cap} (the dataset's budget or an analyst's share), at the cap's δ.
   */
  static PrivacyLoss spent(DatasetSpec spec, Budget cap, List<? extends PrivacyLoss> events) {
    return cap.compose(events, spec.accountant().accountant());
  }

  /** The admission decision of a charge: checks the total and the analyst's grant, if any. */
  static LedgerStore.Spend admit(
      DatasetSpec spec, List<Grant> grants, List<Charge> prior, String analyst, List<PrivacyLoss> cost) {
    ProvenFilter.requireAdmissible(spec, cost);
    List<PrivacyLoss> all = new ArrayList<>();
    List<PrivacyLoss> mine = new ArrayList<>();
    for (Charge c : prior) {
      all.addAll(c.cost());
      if (c.analyst().equals(analyst)) {
        mine.addAll(c.cost());
      }
    }
    all.addAll(cost);
    mine.addAll(cost);
    // The analyst's own share first: a charge over it is refused with what depends on their own
    // charges only. The dataset's total is checked next; its refusal quotes no spend, since the
    // dataset's spend is the sum of every analyst's (issue 23, item 3; threat-model.md).
    Optional<Grant> grant = grantOf(grants, analyst);
    PrivacyLoss analystSpent = spent(spec, grant.map(Grant::share).orElse(spec.budget()), mine);
    if (grant.isPresent() && !grant.get().share().admits(analystSpent)) {
      throw new BudgetExceededException("analyst '" + analyst + "' share of dataset '" + spec.name()
          + "' exceeded: this charge would bring their spend to " + BudgetFormat.spent(analystSpent) + " of "
          + grant.get().share().describe() + "; nothing was charged");
    }
    PrivacyLoss spent = spent(spec, spec.budget(), all);
    if (!spec.budget().admits(spent)) {
      throw new BudgetExceededException("privacy budget of dataset '" + spec.name()
          + "' exceeded: its total, shared by all its analysts, does not admit this charge (what"
          + " others have spent is not shown; the curator sees it with privet budget show);"
          + " nothing was charged");
    }
    return new LedgerStore.Spend(spent, analystSpent);
  }

  /** The grant in force for an analyst: the latest one. */
  static Optional<Grant> grantOf(List<Grant> grants, String analyst) {
    Grant found = null;
    for (Grant g : grants) {
      if (g.analyst().equals(analyst)) {
        found = g;
      }
    }
    return Optional.ofNullable(found);
  }
}
