package org.privet.ledger;

import java.util.Optional;
import org.privet.accounting.Budget;
import org.privet.accounting.PrivacyLoss;

/**
 * What has been spent of a budget and what remains.
 *
 * @param dataset the dataset
 * @param analyst the analyst, or empty for the dataset's total
 * @param accountant the composing accountant
 * @param total the budget (the dataset's total, or the analyst's grant)
 * @param spent the composed spend so far (rounded up)
 * @param remaining the total minus the spend, per parameter (rounded down, never negative). Under
 *     the zCDP accountant with an (ε, δ) budget this is indicative only: composition is not additive
 *     in ε, so a query costing the remaining ε may still be refused (or more may fit).
 * @param charges the number of charges counted
 */
public record BudgetStatus(
    String dataset,
    Optional<String> analyst,
    AccountantKind accountant,
    Budget total,
    PrivacyLoss spent,
    PrivacyLoss remaining,
    int charges) {}
