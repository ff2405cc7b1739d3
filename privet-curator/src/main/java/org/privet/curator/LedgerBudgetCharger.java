package org.privet.curator;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.engine.BudgetCharger;
import org.privet.engine.MechanismCost;
import org.privet.ledger.AccountantKind;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;

/**
 * The engine's {@link BudgetCharger} backed by the ledger: each query's cost is committed durably
 * to the dataset's history (and checked against its total and the analyst's share) before the
 * engine reads data or releases anything. A refusal throws
 * {@link org.privet.accounting.BudgetExceededException} and nothing is charged or released.
 *
 * <p>The ledger records each mechanism's own privacy loss (not only the query's composed total),
 * so the dataset's accountant composes all mechanisms of all queries together: with the zCDP
 * accountant, many small Gaussian releases cost what zCDP composition says. On a dataset with the
 * basic accountant, a query with zCDP parts is charged its own (ε, δ) total instead, since basic
 * composition is a proven filter for (ε, δ) events only (docs/proofs/ledger-filter.md). Costs are stated under
 * add/remove-one-unit neighbours, the relation datasets are registered under.
 *
 * <p>One instance charges one query text; not for reuse across queries.
 */
public final class LedgerBudgetCharger implements BudgetCharger {
  private final Ledger ledger;
  private final String dataset;
  private final String analyst;
  private final String queryText;
  private Charge committed;

  /**
   * @param ledger the ledger
   * @param dataset the dataset the query reads
   * @param analyst who asks
   * @param queryText the query as the analyst wrote it (kept in the history)
   */
  public LedgerBudgetCharger(Ledger ledger, String dataset, String analyst, String queryText) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.dataset = Objects.requireNonNull(dataset, "dataset");
    this.analyst = Objects.requireNonNull(analyst, "analyst");
    this.queryText = Objects.requireNonNull(queryText, "queryText");
  }

  @Override
  public synchronized void charge(org.privet.engine.ChargeRequest charge) {
    if (committed != null) {
      throw new IllegalStateException("this charger already charged a query");
    }
    List<PrivacyLoss> losses = charge.mechanisms().stream().map(MechanismCost::loss).toList();
    boolean basic = ledger.dataset(dataset).accountant() == AccountantKind.BASIC;
    if (losses.isEmpty() || basic && !losses.stream().allMatch(LedgerBudgetCharger::directlyDp)) {
      // Basic composition is a proven filter for (ε, δ) events only (docs/proofs/ledger-filter.md):
      // a query with zCDP parts is charged its own (ε, δ) total, converted at its own δ.
      losses = List.of(charge.total());
    }
    committed = ledger.charge(dataset, analyst, queryText, losses);
  }

  private static boolean directlyDp(PrivacyLoss loss) {
    return loss instanceof PureDp || loss instanceof ApproxDp;
  }

  /** The ledger entry of the charge, once it has committed. */
  public synchronized Optional<Charge> committed() {
    return Optional.ofNullable(committed);
  }
}
