/**
 * The {@code privet} command line (picocli): one class per command, shared option mixins
 * ({@code WorkspaceOption}, {@code AnalystOption}, {@code FormatOption}, {@code BudgetOptions}),
 * and one place where exceptions become fixed exit codes ({@link org.privet.cli.ExitCodes}),
 * following the jbang/picocli layout named in the project conventions.
 *
 * <p>{@code privet dataset} and {@code privet budget} read and write the workspace's ledger
 * ({@code org.privet.ledger}); {@code privet query} parses DP SQL ({@code org.privet.sql}, after
 * BigQuery's differential privacy clause), runs it on the engine ({@code org.privet.engine}, DuckDB)
 * with the ledger as the budget charger, so a query's cost is committed durably before any noisy
 * value is printed (argument: {@code docs/proofs/ledger-filter.md}); {@code privet demo} does the
 * same on the bundled UCI Adult data (Kohavi 1996; UCI doi:10.24432/C5XW20) in a temporary
 * workspace. Results go to stdout; progress and receipts go to stderr.
 */
package org.privet.cli;
