package org.privet.ledger;

import java.time.Instant;
import java.util.List;
import org.privet.accounting.PrivacyLoss;

/**
 * One committed, append-only entry of a dataset's history: a release was paid for.
 *
 * @param id the store's sequence number (increasing in commit order)
 * @param dataset the dataset charged
 * @param analyst who asked
 * @param time when the charge was committed
 * @param query the query text as submitted
 * @param cost the privacy losses of the releases this charge pays for
 * @param spent the dataset's total spend after this charge, composed by its accountant (the
 *     accountant state: {@code ApproxDp} for (ε, δ) budgets, {@code Zcdp} for ρ budgets)
 * @param analystSpent the analyst's spend after this charge, composed the same way
 */
public record Charge(
    long id,
    String dataset,
    String analyst,
    Instant time,
    String query,
    List<PrivacyLoss> cost,
    PrivacyLoss spent,
    PrivacyLoss analystSpent) {
  public Charge {
    cost = List.copyOf(cost);
  }
}
