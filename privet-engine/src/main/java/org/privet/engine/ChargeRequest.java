package org.privet.engine;

import java.util.List;
import java.util.Objects;
import org.privet.accounting.PrivacyLoss;

/**
 * The full cost of one query, handed to a {@link BudgetCharger} before anything is released.
 *
 * <p>{@code total} is the composition of {@code mechanisms} computed by the engine: for a pure
 * budget the sum of ε's ({@link org.privet.accounting.PureDp}); for a ρ budget the sum of ρ's
 * ({@link org.privet.accounting.Zcdp}, pure parts converted by ε²/2, Bun &amp; Steinke 2016
 * Prop. 1.4); for an (ε, δ) budget an {@link org.privet.accounting.ApproxDp} obtained by basic
 * composition of the pure/approximate parts plus the zCDP parts converted at {@code
 * zcdpConversionDelta} (Bun &amp; Steinke 2016 Prop. 1.3). Rounded upward. The engine asserts that
 * total never exceeds the query's budget.
 *
 * @param queryId random identifier of this run (for the ledger's audit trail)
 * @param query a description of the query (names, bounds, budget; no data values)
 * @param mechanisms one entry per mechanism
 * @param total the composed cost, which is what must be charged
 * @param zcdpConversionDelta the δ used to convert zCDP parts inside an (ε, δ) total, else 0
 */
public record ChargeRequest(String queryId, String query, List<MechanismCost> mechanisms,
    PrivacyLoss total, double zcdpConversionDelta) {
  public ChargeRequest {
    Objects.requireNonNull(queryId, "queryId");
    Objects.requireNonNull(query, "query");
    mechanisms = List.copyOf(mechanisms);
    Objects.requireNonNull(total, "total");
  }
}
