package org.privet.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.privet.accounting.PrivacyLoss;

/**
 * Where the ledger keeps datasets, grants and charges. Implementations must make
 * {@link #appendCharge} serializable across processes and durable on return; everything is
 * append-only.
 *
 * <p>Both implementations are one {@link JdbcLedgerStore} in a {@link LedgerDialect}: SQLite, embedded
 * ({@link Ledger#open(java.nio.file.Path)}), and PostgreSQL, shared ({@link
 * Ledger#open(PostgresLedger)}, one advisory lock per dataset held by the charge transaction).
 */
public interface LedgerStore extends AutoCloseable {

  /** Stores a new dataset; refuses a name already registered. */
  void register(DatasetSpec spec, Instant time);

  Optional<DatasetSpec> dataset(String name);

  /** All datasets, by name. */
  List<DatasetSpec> datasets();

  /** Appends a grant. */
  void grant(Grant grant);

  /** All grants of a dataset, oldest first. */
  List<Grant> grants(String dataset);

  /** All charges of a dataset, oldest first. */
  List<Charge> charges(String dataset);

  /**
   * In one serializable write transaction: reads the dataset, its grants and all its charges, asks
   * {@code admission} for the spend after this charge (it throws to refuse, and then nothing is
   * written), appends the charge and commits durably. Returns only once the commit is on disk.
   */
  Charge appendCharge(
      String dataset, String analyst, String query, List<PrivacyLoss> cost, Admission admission);

  @Override
  void close();

  /** The budget decision taken inside the charge transaction. */
  @FunctionalInterface
  interface Admission {
    /**
     * Decides a charge given everything committed before it.
     *
     * @return the spend after the charge, of the dataset and of the analyst
     * @throws RuntimeException to refuse the charge (nothing is written)
     */
    Spend admit(DatasetSpec spec, List<Grant> grants, List<Charge> prior);
  }

  /**
   * The accountant state after a charge.
   *
   * @param spent the dataset's composed spend
   * @param analystSpent the analyst's composed spend
   */
  record Spend(PrivacyLoss spent, PrivacyLoss analystSpent) {}
}
