package org.privet.ledger;

import java.time.Instant;
import org.privet.accounting.Budget;

/**
 * An analyst's share of a dataset's total budget. The latest grant for an analyst is the one in
 * force; grants are appended, never edited. An analyst with no grant may spend up to the dataset's
 * total; the total is always enforced across all analysts.
 *
 * @param dataset the dataset
 * @param analyst the analyst
 * @param share the analyst's cap, in the measure of the dataset's budget
 * @param time when the grant was recorded
 */
public record Grant(String dataset, String analyst, Budget share, Instant time) {}
