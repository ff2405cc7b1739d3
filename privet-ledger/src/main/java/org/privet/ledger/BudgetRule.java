package org.privet.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.UpwardRounding;
import org.privet.accounting.Zcdp;
import org.privet.accounting.ZcdpAccountant;

/**
 * How a dataset's charges are composed and compared with its budget. All composition is the
 * accountant's ({@code org.privet.accounting}); this class only chooses the measure and compares.
 *
 * <ul>
 *   <li>(ε, δ) or ε budget: the accountant composes every event at the budget's δ, and the result
 *       must satisfy ε ≤ ε<sub>budget</sub> and δ ≤ δ<sub>budget</sub>.
 *   <li>ρ budget: the events' ρ's add ({@link ZcdpAccountant#totalApproxZcdp}); events with a δ
 *       part (an (ε, δ) release, or δ-approximate zCDP such as Gaussian partition selection) cannot
 *       be paid in ρ alone and are refused.
 *   <li>ρ-plus-δ budget (δ-approximate ρ-zCDP): the events' ρ's add and so do their δ's ((ε, δ)
 *       events as δ-approximate ε²/2-zCDP; Bun &amp; Steinke 2016, Lemma 8.2); both must fit.
 * </ul>
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
  static PrivacyLoss spent(DatasetSpec spec, PrivacyLoss cap, List<? extends PrivacyLoss> events) {
    if (DatasetSpec.isZcdp(cap)) {
      ApproxZcdp total;
      try {
        total = ZcdpAccountant.INSTANCE.totalApproxZcdp(events);
      } catch (IllegalArgumentException e) {
        throw new BudgetExceededException("the budget cannot cover this charge: " + e.getMessage());
      }
      if (cap instanceof Zcdp) {
        if (total.delta() > 0) {
          throw new BudgetExceededException("a rho budget cannot pay for a release with delta > 0 "
              + "(e.g. an (epsilon, delta) release or private partition selection); register the "
              + "dataset with rho and delta");
        }
        return new Zcdp(total.rho());
      }
      return total;
    }
    if (events.isEmpty()) {
      return new ApproxDp(0.0, 0.0);
    }
    try {
      return spec.accountant().accountant().compose(events, DatasetSpec.deltaOf(cap));
    } catch (IllegalArgumentException e) {
      throw new BudgetExceededException("the budget cannot cover this charge: " + e.getMessage());
    }
  }

  /** Whether a composed spend is within a budget (or grant). */
  static boolean fits(PrivacyLoss spent, PrivacyLoss budget) {
    if (budget instanceof Zcdp b) {
      return rhoOf(spent) <= b.rho() && DatasetSpec.deltaOf(spent) == 0;
    }
    if (budget instanceof ApproxZcdp b) {
      return rhoOf(spent) <= b.rho() && DatasetSpec.deltaOf(spent) <= b.delta();
    }
    ApproxDp s = (ApproxDp) spent;
    return s.epsilon() <= epsilonOf(budget) && s.delta() <= DatasetSpec.deltaOf(budget);
  }

  /** Budget minus spend, per parameter, rounded down and never negative. */
  static PrivacyLoss remaining(PrivacyLoss budget, PrivacyLoss spent) {
    if (budget instanceof Zcdp b) {
      return new Zcdp(subtractDown(b.rho(), rhoOf(spent)));
    }
    if (budget instanceof ApproxZcdp b) {
      return new ApproxZcdp(subtractDown(b.rho(), rhoOf(spent)),
          subtractDown(b.delta(), DatasetSpec.deltaOf(spent)));
    }
    ApproxDp s = (ApproxDp) spent;
    return new ApproxDp(
        subtractDown(epsilonOf(budget), s.epsilon()),
        subtractDown(DatasetSpec.deltaOf(budget), s.delta()));
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
    PrivacyLoss spent = spent(spec, spec.budget(), all);
    if (!fits(spent, spec.budget())) {
      throw new BudgetExceededException("privacy budget of dataset '" + spec.name()
          + "' exceeded: this charge would bring the spend to " + describe(spent) + " of "
          + describe(spec.budget()) + "; nothing was charged");
    }
    Optional<Grant> grant = grantOf(grants, analyst);
    PrivacyLoss analystSpent = spent(spec, grant.map(Grant::share).orElse(spec.budget()), mine);
    if (grant.isPresent() && !fits(analystSpent, grant.get().share())) {
      throw new BudgetExceededException("analyst '" + analyst + "' share of dataset '" + spec.name()
          + "' exceeded: this charge would bring their spend to " + describe(analystSpent) + " of "
          + describe(grant.get().share()) + "; nothing was charged");
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

  /** Human-readable form of a budget or spend, e.g. {@code ε=0.5, δ=1.0E-6} or {@code ρ=0.1}. */
  static String describe(PrivacyLoss loss) {
    if (loss instanceof Zcdp z) {
      return "rho=" + z.rho();
    }
    if (loss instanceof ApproxZcdp z) {
      return "rho=" + z.rho() + ", delta=" + z.delta();
    }
    if (loss instanceof PureDp p) {
      return "epsilon=" + p.epsilon();
    }
    ApproxDp a = (ApproxDp) loss;
    return "epsilon=" + a.epsilon() + ", delta=" + a.delta();
  }

  /** ρ of a zCDP or approximate-zCDP spend. */
  static double rhoOf(PrivacyLoss loss) {
    if (loss instanceof ApproxZcdp z) {
      return z.rho();
    }
    return ((Zcdp) loss).rho();
  }

  static double epsilonOf(PrivacyLoss budget) {
    if (budget instanceof PureDp p) {
      return p.epsilon();
    }
    return ((ApproxDp) budget).epsilon();
  }

  /** a − b rounded down ({@link UpwardRounding#subtractDown}), never below zero. */
  static double subtractDown(double a, double b) {
    return Math.max(0.0, UpwardRounding.subtractDown(a, b));
  }
}
