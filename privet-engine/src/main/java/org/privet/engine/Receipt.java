package org.privet.engine;

import java.util.Objects;
import org.privet.accounting.Budget;

/**
 * What a run charged.
 *
 * @param charge the charge accepted by the {@link BudgetCharger}
 * @param requested the query's budget (the charge's total never exceeds it)
 */
public record Receipt(ChargeRequest charge, Budget requested) {
  public Receipt {
    Objects.requireNonNull(charge, "charge");
    Objects.requireNonNull(requested, "requested");
  }
}
