/**
 * The durable privacy-budget ledger: one budget service for the CLI, library sessions and servers.
 *
 * <p>A dataset is registered once ({@link org.privet.ledger.DatasetSpec}) with its source, its
 * explicit privacy unit, its neighbouring relation, a total budget and the accountant that
 * composes charges against it. Analysts may be granted a share of the total. Every release is
 * preceded by a charge ({@link org.privet.ledger.Ledger#charge}), which is committed durably before
 * the caller may release anything: the charge transaction takes the store's write lock, reads every
 * prior charge of the dataset, composes them with the new cost under the dataset's accountant
 * ({@link org.privet.accounting.Accountant}), checks the total and the analyst's share, appends the
 * charge and commits (SQLite WAL, {@code synchronous=FULL}). Concurrent processes are serialized by
 * that lock, so together they can never exceed a budget; a crash before the commit charges nothing
 * (and nothing was released), a crash after it loses at most the answer, never the charge. The
 * history is append-only (enforced by triggers in the store).
 *
 * <p>The store sits behind {@link org.privet.ledger.LedgerStore}: the embedded default is SQLite
 * (xerial sqlite-jdbc); a shared PostgreSQL server ({@link org.privet.ledger.PostgresLedger}) holds
 * the same tables, written by the same SQL, with one advisory lock per dataset in place of SQLite's
 * single write lock, so curators on several hosts share one budget.
 *
 * <p>Privacy argument: {@code docs/proofs/ledger-filter.md}. References: composition theorems as implemented in {@code org.privet.accounting} (Dwork &amp;
 * Roth 2014, Thm. 3.16 for basic composition; Bun &amp; Steinke 2016, Lemma 2.3 and Prop. 1.3 for
 * zCDP composition and conversion). The architecture follows convention 9 of the project
 * ("one budget service": transactional, append-only, safe under concurrent processes) and the
 * "request the budget first, then allocate once" design of PipelineDP.
 */
package org.privet.ledger;
