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

  /**
   * Stores a new dataset; refuses a name equal, ignoring case, to a dataset name ever used
   * (registered or given by a rename).
   */
  void register(DatasetSpec spec, Instant time);

  /** Stores a new dataset and its public schema, in one transaction. */
  void register(DatasetSpec spec, RegisteredSchema schema, Instant time);

  /**
   * Stores the public schema of a dataset that has none (registered before schemas were kept);
   * refuses if it has one: a schema is fixed once.
   */
  void fixSchema(String dataset, RegisteredSchema schema, Instant time);

  /** The dataset's public schema, if one was fixed. */
  Optional<RegisteredSchema> schema(String dataset);

  /**
   * As {@link #register(DatasetSpec, RegisteredSchema, Instant)}, and in the same transaction
   * records the name of the dataset's unit table ({@link TableSpec}).
   */
  void register(DatasetSpec spec, RegisteredSchema schema, String unitTable, Instant time);

  /**
   * As {@link #register(DatasetSpec, RegisteredSchema, String, Instant)}, and in the same
   * transaction appends {@code tables} (checked by the caller against the registration alone, in
   * order), so a multi-table dataset is registered whole or not at all.
   */
  void register(DatasetSpec spec, RegisteredSchema schema, String unitTable, List<DatasetTable> tables,
      Instant time);

  /**
   * In one write transaction of the dataset: reads its tables ({@link #tables}), asks {@code check}
   * whether {@code table} may join them (it throws to refuse, and then nothing is written), and
   * appends the table with its public schema.
   */
  void addTable(String dataset, TableSpec table, RegisteredSchema schema, TableCheck check, Instant time);

  /**
   * The dataset's tables in the order they were added: first its unit table (named as registered,
   * else by the dataset's current name; with the dataset's schema), then every added table.
   */
  List<DatasetTable> tables(String dataset);

  /**
   * The datasets (by key) with a row in the tables' record: a named unit table or an added table;
   * every other dataset has one table, named as the dataset.
   */
  List<String> datasetsWithTables();

  /** The decision, inside the write transaction, whether a table may be added. */
  @FunctionalInterface
  interface TableCheck {
    /**
     * @param spec the dataset, under its current name
     * @param tables its tables so far ({@link #tables})
     * @throws RuntimeException to refuse the table (nothing is written)
     */
    void check(DatasetSpec spec, List<DatasetTable> tables);
  }

  /** The dataset registered under exactly that name (its key in every record). */
  Optional<DatasetSpec> dataset(String name);

  /**
   * Gives the dataset registered as {@code dataset} the name {@code name}, which queries use from
   * then on; its records keep its registered name. Refuses a name equal, ignoring case, to a
   * dataset name ever used.
   */
  void rename(String dataset, String name, Instant time);

  /** Each dataset's registered name (its key) and the name it goes by now (the latest rename). */
  java.util.Map<String, String> names();

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

  /**
   * As {@link #appendCharge(String, String, String, List, Admission)}, and in the same transaction
   * records the {@link Release} the charge pays for. If the analyst already holds a release under
   * the claim's idempotency key, throws {@link Release.DuplicateKeyException} and writes nothing.
   */
  Charge appendCharge(String dataset, String analyst, String query, List<PrivacyLoss> cost,
      Admission admission, Release.Claim claim);

  /** The release an analyst holds under an idempotency key. */
  Optional<Release> release(String analyst, String idempotencyKey);

  /** The release a charge paid for, if the charge was a server release. */
  Optional<Release> releaseOfCharge(long chargeId);

  /**
   * Stores a release's answer unless one is stored already (the first answer stored wins, and is
   * never replaced); returns the release as stored after this call.
   */
  Release storeAnswer(long chargeId, String answer);

  /** The job a charge paid for ({@link Release.Claim#job}), without its output. */
  Optional<Job> job(long chargeId);

  /** The output of a done job. */
  Optional<String> jobOutput(long chargeId);

  /** The charge ids of an analyst's jobs of one kind (by the release's analyst), oldest first. */
  List<Long> jobsOf(String analyst, String kind);

  /**
   * Starts a claimed job for {@code runner}, atomically (one conditional update): true for the one
   * caller that moved it from {@code CLAIMED} to {@code RUNNING}, false for everyone else.
   */
  boolean startJob(long chargeId, String runner, long leaseMillis);

  /** Renews a running job's lease, if {@code runner} still holds it; whether it did. */
  boolean heartbeatJob(long chargeId, String runner);

  /**
   * Stores a running job's output and marks it done, if {@code runner} still holds it; the job as
   * stored after this call (failed, if its lease lapsed first: the output is then dropped).
   */
  Job finishJob(long chargeId, String runner, String output, String digest);

  /** Marks a running job failed, if {@code runner} still holds it; the job as stored after this call. */
  Job failJob(long chargeId, String runner, String reason);

  /**
   * Marks a running job failed if its lease lapsed (its runner's process stopped); the job as
   * stored after this call.
   */
  Job expireJob(long chargeId, String reason);

  /** Adds an account with the id, salt and hash of its key; refuses a name already active. */
  void addAnalyst(Analyst analyst, String keyId, byte[] salt, byte[] keyHash);

  /** All accounts, active and revoked, oldest first. */
  List<Analyst> analysts();

  /** The account holding a key id, with the salt and hash to check the key against. */
  Optional<StoredKey> key(String keyId);

  /** Revokes the active account of that name; false when there is none. */
  boolean revokeAnalyst(String name, java.time.Instant time);

  /** A stored key: its account, salt and salted hash. */
  record StoredKey(Analyst analyst, byte[] salt, byte[] keyHash) {}

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
