package org.privet.curator;

import java.util.Map;
import java.util.Optional;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.Zcdp;
import org.privet.engine.BudgetSolution;
import org.privet.engine.Session;
import org.privet.ledger.BudgetStatus;
import org.privet.ledger.Ledger;

/**
 * For queries given by target errors ({@code max_error}, issue 16): EXPLAIN's solved cost against
 * the remaining budget, and the refusal that says what the remaining budget would buy. Uses only
 * public information: the query, the schema and the budget state the analyst may see.
 */
final class SolvedBudgetReport {
  private SolvedBudgetReport() {}

  /** The remaining budget for {@code analyst} (or the dataset's, when null), if readable. */
  static Optional<PrivacyLoss> remaining(Ledger ledger, String dataset, String analyst) {
    try {
      BudgetStatus s = analyst == null ? ledger.status(dataset) : ledger.status(dataset, analyst);
      return Optional.of(s.remaining());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /** EXPLAIN's lines: the solution, the remaining budget and whether the solved cost fits it. */
  static String explain(Session session, BudgetSolution sol, Optional<PrivacyLoss> remaining) {
    StringBuilder s = new StringBuilder(sol.render());
    remaining.ifPresent(r -> {
      s.append("remaining budget: ").append(BudgetFormat.remaining(r));
      double left = parameter(r, sol.inRho());
      if (!Double.isNaN(left)) {
        s.append(left >= sol.parameter() ? " (the solved cost fits)" : " (the solved cost does not"
            + " fit: " + buys(session, sol, left) + ")");
      }
      s.append('\n');
    });
    return s.toString();
  }

  /** The refusal of a solved query, saying what the remaining budget would buy. */
  static BudgetExceededException refusal(BudgetExceededException e, Session session,
      BudgetSolution sol, Optional<PrivacyLoss> remaining) {
    String what = remaining.map(r -> {
      double left = parameter(r, sol.inRho());
      return Double.isNaN(left) ? "remaining budget " + BudgetFormat.remaining(r)
          : buys(session, sol, left);
    }).orElse("");
    return new BudgetExceededException(e.getMessage() + "; the targets need "
        + (sol.inRho() ? "rho" : "epsilon") + " = " + BudgetFormat.up(sol.parameter())
        + (what.isEmpty() ? "" : "; " + what));
  }

  private static String buys(Session session, BudgetSolution sol, double left) {
    if (!(left > 0)) {
      return "nothing remains";
    }
    StringBuilder s = new StringBuilder("the remaining " + (sol.inRho() ? "rho" : "epsilon")
        + " = " + BudgetFormat.down(left) + " would buy");
    Map<String, Double> e = session.errorsAt(sol, left);
    e.forEach((k, v) -> s.append(String.format(" %s => %.6g,", k, v)));
    s.setLength(s.length() - 1);
    return s.append(" at confidence ").append(sol.targets().confidence()).toString();
  }

  /** The remaining ε (or ρ) in the solution's measure, NaN when the measures differ. */
  static double parameter(PrivacyLoss r, boolean rho) {
    if (rho) {
      if (r instanceof Zcdp z) {
        return z.rho();
      }
      return r instanceof ApproxZcdp z ? z.rho() : Double.NaN;
    }
    return r instanceof ApproxDp a ? a.epsilon()
        : r instanceof org.privet.accounting.PureDp p ? p.epsilon() : Double.NaN;
  }
}
