/**
 * The curator's release path, shared by every front end (the {@code privet} CLI and
 * {@code privet serve}) so that no release logic is duplicated.
 *
 * <p>{@link org.privet.curator.QueryExecution} parses a DP SQL query against the ledger's
 * registered datasets ({@link org.privet.curator.LedgerCatalog}), refuses invalid or unsafe queries
 * before anything is charged ({@link org.privet.curator.QueryRefusedException}), explains without
 * charging, and runs with the ledger as the engine's budget charger
 * ({@link org.privet.curator.LedgerBudgetCharger}), so that the charge is committed durably before
 * any noisy value exists. {@link org.privet.curator.ReleaseJson} is the one JSON form of a release.
 *
 * <p>Threat model: {@code docs/proofs/threat-model.md}. Apart from the noisy values of a paid
 * release, what a caller observes must be a function of public information only.
 */
package org.privet.curator;
