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
import org.privet.ledger.Release;

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
  private final Release.Claim claim;
  private final Charge existing;
  private Charge committed;

  /**
   * @param ledger the ledger
   * @param dataset the dataset the query reads
   * @param analyst who asks
   * @param queryText the query as the analyst wrote it (kept in the history)
   */
  public LedgerBudgetCharger(Ledger ledger, String dataset, String analyst, String queryText) {
    this(ledger, dataset, analyst, queryText, null, null);
  }

  private LedgerBudgetCharger(Ledger ledger, String dataset, String analyst, String queryText,
      Release.Claim claim, Charge existing) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.dataset = Objects.requireNonNull(dataset, "dataset");
    this.analyst = Objects.requireNonNull(analyst, "analyst");
    this.queryText = Objects.requireNonNull(queryText, "queryText");
    this.claim = claim;
    this.existing = existing;
  }

  /**
   * A charger for a server release: the charge and its {@link Release} record are committed in one
   * transaction ({@link Ledger#chargeRelease}).
   */
  public static LedgerBudgetCharger forRelease(Ledger ledger, String dataset, String analyst,
      String queryText, Release.Claim claim) {
    return new LedgerBudgetCharger(ledger, dataset, analyst, queryText, Objects.requireNonNull(claim, "claim"), null);
  }

  /**
   * A charger that charges nothing new: the query was already paid for by {@code existing} (whose
   * answer was never stored, e.g. after a crash), so it is computed once under that charge. The
   * engine's cost must equal the recorded cost exactly, else nothing is computed.
   */
  public static LedgerBudgetCharger underExisting(Ledger ledger, Charge existing) {
    Objects.requireNonNull(existing, "existing");
    return new LedgerBudgetCharger(ledger, existing.dataset(), existing.analyst(), existing.query(), null, existing);
  }

  /** The dataset this charger charges. */
  public String dataset() {
    return dataset;
  }

  /** The analyst this charger charges for. */
  public String analyst() {
    return analyst;
  }

  @Override
  public synchronized void charge(org.privet.engine.ChargeRequest charge) {
    if (committed != null) {
      throw new IllegalStateException("this charger already charged a query");
    }
    List<PrivacyLoss> cost = ledgerCost(ledger, dataset,
        charge.mechanisms().stream().map(MechanismCost::loss).toList(), charge.total());
    if (existing != null) {
      if (!existing.cost().equals(cost)) {
        throw new IllegalStateException("the recomputed cost differs from charge #" + existing.id());
      }
      committed = existing;
    } else if (claim != null) {
      committed = ledger.chargeRelease(dataset, analyst, queryText, cost, claim);
    } else {
      committed = ledger.charge(dataset, analyst, queryText, cost);
    }
  }

  /**
   * What the ledger records for a query with mechanism losses {@code losses} and composed total
   * {@code total} on {@code dataset}: the losses, or on a basic-accountant dataset with zCDP parts
   * the query's own (ε, δ) total (basic composition is a proven filter for (ε, δ) events only,
   * docs/proofs/ledger-filter.md).
   */
  public static List<PrivacyLoss> ledgerCost(Ledger ledger, String dataset,
      List<PrivacyLoss> losses, PrivacyLoss total) {
    boolean basic = ledger.dataset(dataset).accountant() == AccountantKind.BASIC;
    if (losses.isEmpty() || basic && !losses.stream().allMatch(LedgerBudgetCharger::directlyDp)) {
      return List.of(total);
    }
    return losses;
  }

  private static boolean directlyDp(PrivacyLoss loss) {
    return loss instanceof PureDp || loss instanceof ApproxDp;
  }

  /** The ledger entry of the charge, once it has committed. */
  public synchronized Optional<Charge> committed() {
    return Optional.ofNullable(committed);
  }
}
