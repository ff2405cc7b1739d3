package org.privet.ledger;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.Budget;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.random.RandomSource;

/**
 * The privacy-budget ledger: registered datasets, analysts' shares, and the append-only history of
 * charges. Every release must be preceded by {@link #charge}, which returns only once the charge
 * is durably committed (or throws, charging nothing).
 *
 * <p>Thread-safe; safe across processes sharing a workspace, or a PostgreSQL server across hosts
 * (see {@link LedgerStore}).
 */
public final class Ledger implements AutoCloseable {
  /** The SQLite file inside a workspace folder. */
  public static final String DATABASE_FILE = "ledger.db";

  private static final int MAX_NAME_LENGTH = 128;

  private final LedgerStore store;

  private Ledger(LedgerStore store) {
    this.store = store;
  }

  /** Opens (creating if needed) the embedded SQLite ledger of a workspace folder. */
  public static Ledger open(Path workspace) {
    Objects.requireNonNull(workspace, "workspace");
    return new Ledger(JdbcLedgerStore.sqlite(workspace.resolve(DATABASE_FILE)));
  }

  /**
   * Opens (creating its tables if needed) a ledger shared through a PostgreSQL server, so that
   * curators on several hosts charge one budget.
   */
  public static Ledger open(PostgresLedger server) {
    Objects.requireNonNull(server, "server");
    return new Ledger(JdbcLedgerStore.postgres(server));
  }

  /** A ledger over another store (e.g. a shared database). */
  public static Ledger using(LedgerStore store) {
    return new Ledger(Objects.requireNonNull(store, "store"));
  }

  /**
   * Registers a dataset without a public schema; its name must be new. No query may use it until
   * the curator fixes its schema ({@link #fixSchema}); prefer {@link #register(DatasetSpec,
   * RegisteredSchema)}.
   */
  public DatasetSpec register(DatasetSpec spec) {
    Objects.requireNonNull(spec, "spec");
    store.register(spec, Instant.now());
    return spec;
  }

  /**
   * Registers a dataset with its public schema, fixed from now on: the columns the registration
   * names (privacy unit, bounds, public keys) must be in it.
   */
  public DatasetSpec register(DatasetSpec spec, RegisteredSchema schema) {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(schema, "schema");
    schema.requireFits(spec);
    store.register(spec, schema, Instant.now());
    return spec;
  }

  /**
   * Registers a dataset whose unit table, the first of its tables ({@link TableSpec}), goes by
   * {@code tableName} in queries rather than by the dataset's name; further tables are added with
   * {@link #addTable}.
   */
  public DatasetSpec register(DatasetSpec spec, RegisteredSchema schema, String tableName) {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(schema, "schema");
    DatasetSpec.requireIdentifier("tableName", tableName);
    schema.requireFits(spec);
    store.register(spec, schema, tableName, Instant.now());
    return spec;
  }

  /**
   * A table registered together with its dataset ({@link #register(DatasetSpec, RegisteredSchema,
   * String, List)}), with its public schema.
   */
  public record NewTable(TableSpec spec, RegisteredSchema schema) {
    public NewTable {
      Objects.requireNonNull(spec, "spec");
      Objects.requireNonNull(schema, "schema");
    }
  }

  /**
   * Checks a multi-table registration as {@link #register(DatasetSpec, RegisteredSchema, String,
   * List)} will, storing nothing: the dataset, then each table in order against the registration
   * and the tables before it ({@link TableRules}), as {@link #addTable} would.
   *
   * @return the dataset's tables as they would be stored: the unit table, then {@code tables}
   *     (references spelled as the schemas spell the names)
   * @throws IllegalArgumentException naming the parameter
   */
  public List<DatasetTable> checkRegistration(DatasetSpec spec, RegisteredSchema schema, String tableName,
      List<NewTable> tables) {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(schema, "schema");
    DatasetSpec.requireIdentifier("tableName", tableName);
    schema.requireFits(spec);
    List<DatasetTable> out = new ArrayList<>();
    out.add(new DatasetTable(TableSpec.unitTable(spec, tableName), Optional.of(schema), true));
    for (NewTable t : tables) {
      TableSpec checked = TableRules.check(spec, List.copyOf(out), t.spec(), t.schema());
      out.add(new DatasetTable(checked, Optional.of(t.schema()), false));
    }
    return List.copyOf(out);
  }

  /**
   * Registers a dataset with its unit table named {@code tableName} and its further {@code tables}
   * in one transaction: all of it, or nothing (a name already used stores nothing). Each table is
   * checked as {@link #addTable} checks it, in order ({@link #checkRegistration}).
   *
   * @return the dataset's tables as stored
   * @throws IllegalArgumentException naming the parameter; nothing is stored then
   */
  public List<DatasetTable> register(DatasetSpec spec, RegisteredSchema schema, String tableName,
      List<NewTable> tables) {
    List<DatasetTable> checked = checkRegistration(spec, schema, tableName, tables);
    store.register(spec, schema, tableName, checked.subList(1, checked.size()), Instant.now());
    return checked;
  }

  /**
   * Adds a table to a registered dataset, with its public schema, fixed from then on: a private
   * table whose references lead to the unit table, or a public table ({@link TableSpec}). The
   * table shares the dataset's budget. Checked against the registration before anything is stored
   * (and again inside the write transaction), as {@link TableRules} states.
   *
   * @return the table as stored (its references spelled as the schemas spell the names)
   * @throws IllegalArgumentException naming the parameter; nothing is stored then
   */
  public DatasetTable addTable(String dataset, TableSpec table, RegisteredSchema schema) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(schema, "schema");
    Named n = resolve(dataset);
    TableSpec checked = TableRules.check(dataset(dataset), store.tables(n.key()), table, schema);
    store.addTable(n.key(), checked, schema, (spec, tables) -> TableRules.check(spec, tables, checked, schema),
        Instant.now());
    return new DatasetTable(checked, Optional.of(schema), false);
  }

  /**
   * Checks {@code table} with its schema as {@link #addTable} will, without storing anything, and
   * returns it as {@link #addTable} would store it (its references spelled as the schemas spell
   * the names): for checks of the curator's that must come after the registration's rules and
   * before the table is stored (a reference's target is a key, read from the data).
   *
   * @throws IllegalArgumentException naming the parameter
   */
  public TableSpec checkTable(String dataset, TableSpec table, RegisteredSchema schema) {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(schema, "schema");
    return TableRules.check(dataset(dataset), store.tables(resolve(dataset).key()), table, schema);
  }

  /**
   * Checks, before the table's source is read for its schema, what {@link #addTable} will check
   * without the schema: its name, its backend, its kind and the tables its references name.
   *
   * @throws IllegalArgumentException naming the parameter
   */
  public void requireTablePlace(String dataset, TableSpec table) {
    Objects.requireNonNull(table, "table");
    TableRules.place(dataset(dataset), store.tables(resolve(dataset).key()), table);
  }

  /**
   * The dataset's tables, in the order they were added: its unit table first, then every added
   * table. A dataset registered with one table has exactly one. The unit table's name is fixed
   * like the schema, whatever renames follow: the {@code tableName} it was registered with, else
   * the dataset's name when its first other table was added (the name that table's references
   * were checked against; for a ledger written before that name was stored, derived from the
   * rename history); until then, the one table goes by the dataset's current name.
   */
  public List<DatasetTable> tables(String dataset) {
    return store.tables(resolve(dataset).key());
  }

  /**
   * The current names of the datasets holding a table named {@code table} (ignoring case) under a
   * name of its own: an added table, or a unit table registered with a name other than the
   * dataset's, or the unit table of a dataset with several tables (named as the dataset). A
   * single-table dataset whose one table is named as the dataset is not listed: its name finds it.
   * This is how an unqualified FROM name finds its dataset (the engine's {@code DatasetCatalog}).
   */
  public List<String> datasetsWithTable(String table) {
    Objects.requireNonNull(table, "table");
    java.util.Map<String, String> names = store.names();
    List<String> out = new ArrayList<>();
    for (String key : store.datasetsWithTables()) {
      List<DatasetTable> tables = store.tables(key);
      String name = names.getOrDefault(key, key);
      boolean ownNames = tables.size() > 1 || !tables.get(0).name().equals(name);
      if (ownNames && tables.stream().anyMatch(t -> t.name().equalsIgnoreCase(table))) {
        out.add(name);
      }
    }
    return out.stream().sorted().toList();
  }

  /**
   * Fixes the public schema of a dataset registered without one (before schemas were kept).
   *
   * @throws IllegalArgumentException if the dataset has a schema already, or the schema does not
   *     hold the registration's columns
   */
  public RegisteredSchema fixSchema(String dataset, RegisteredSchema schema) {
    Objects.requireNonNull(schema, "schema");
    schema.requireFits(dataset(dataset));
    store.fixSchema(resolve(dataset).key(), schema, Instant.now());
    return schema;
  }

  /**
   * The dataset's public schema; empty for a dataset registered before schemas were kept, which
   * no query may use until the curator fixes one.
   */
  public Optional<RegisteredSchema> schema(String dataset) {
    return store.schema(resolve(dataset).key());
  }

  /**
   * Renames a dataset, the curator's way to end a clash of names that differ only in case (a
   * ledger written before such names were refused, issue 23): {@code current} is its name exactly
   * as listed (case-sensitive, since the clashing names resolve to no single dataset); {@code
   * newName} must differ, ignoring case, from every dataset name ever used, and from the names
   * tables go by in queries ({@link #datasetsWithTable}), its own unit table's excepted, so that an
   * unqualified FROM name never finds a table where the dataset was meant. The dataset keeps its
   * budget, grants, charges, releases and its tables' names ({@link #tables}); queries use the new
   * name from now on.
   */
  public DatasetSpec renameDataset(String current, String newName) {
    DatasetSpec.requireIdentifier("name", newName);
    String key = store.names().entrySet().stream().filter(e -> e.getValue().equals(current))
        .map(java.util.Map.Entry::getKey).findFirst()
        .orElseThrow(() -> new UnknownDatasetException(current));
    store.tables(key).stream().filter(t -> !t.unitTable() && t.name().equalsIgnoreCase(newName))
        .findFirst().ifPresent(t -> {
          throw new IllegalArgumentException("name: dataset '" + current + "' has a table named '"
              + t.name() + "'; a dataset cannot be named as one of its tables");
        });
    datasetsWithTable(newName).stream().filter(d -> !d.equals(current)).findFirst().ifPresent(d -> {
      throw new IllegalArgumentException("name: dataset '" + d + "' has a table named '" + newName
          + "' (ignoring case); a dataset cannot be named as another dataset's table");
    });
    store.rename(key, newName, Instant.now());
    return dataset(newName);
  }

  /**
   * The registered dataset a written name denotes: the one whose current name equals it ignoring
   * case (issue 23). Every method of the ledger that takes a dataset name resolves it here, once,
   * so the read, the charge, the share and the records all concern this one dataset.
   *
   * @throws UnknownDatasetException if no dataset goes by that name
   * @throws DatasetNameClashException if two datasets do (a ledger written before the rule): both
   *     are refused until the curator renames one ({@link #renameDataset})
   */
  public DatasetSpec dataset(String name) {
    Named n = resolve(name);
    return n.spec(store.dataset(n.key()).orElseThrow(() -> new UnknownDatasetException(name)));
  }

  /** A dataset's key (the name it was registered under, used in every record) and current name. */
  private record Named(String key, String name) {
    DatasetSpec spec(DatasetSpec stored) {
      return named(stored, name);
    }
  }

  /** A stored registration under the dataset's current name. */
  static DatasetSpec named(DatasetSpec stored, String name) {
    return stored.name().equals(name) ? stored : new DatasetSpec(name, stored.source(), stored.format(),
        stored.csv(), stored.privacyUnit(), stored.relation(), stored.budget(), stored.accountant(),
        stored.publicMetadata(), stored.database());
  }

  private Named resolve(String written) {
    Objects.requireNonNull(written, "dataset");
    java.util.Map<String, String> names = store.names();
    List<Named> hits = new ArrayList<>();
    names.forEach((key, name) -> {
      if (name.equalsIgnoreCase(written)) {
        hits.add(new Named(key, name));
      }
    });
    if (hits.isEmpty()) {
      throw new UnknownDatasetException(written);
    }
    if (hits.size() > 1) {
      throw new DatasetNameClashException(written, hits.stream().map(Named::name).sorted().toList());
    }
    return hits.get(0);
  }

  /** The current name of the dataset registered as {@code key}. */
  private String nameOf(String key) {
    return store.names().getOrDefault(key, key);
  }

  /**
   * All registered datasets under their current names, by name. A dataset whose name clashes with
   * another's ignoring case is listed (the curator must see it to rename it), but no other method
   * accepts its name.
   */
  public List<DatasetSpec> datasets() {
    java.util.Map<String, String> names = store.names();
    return store.datasets().stream().map(d -> new Named(d.name(), names.getOrDefault(d.name(), d.name())).spec(d))
        .sorted(java.util.Comparator.comparing(DatasetSpec::name)).toList();
  }

  /**
   * Grants an analyst a share of a dataset's budget (replacing any earlier grant; the history of
   * grants is kept). The share must be in the budget's measure and not exceed the total.
   */
  public Grant grant(String dataset, String analyst, Budget share) {
    requireName("analyst", analyst);
    Objects.requireNonNull(share, "share");
    DatasetSpec spec = dataset(dataset);
    Budget total = spec.budget();
    if (share.isZcdp() != total.isZcdp()) {
      throw new IllegalArgumentException("share must be in the dataset's budget measure ("
          + total.describe() + "), was " + share.describe());
    }
    if (spec.accountant() == AccountantKind.ZCDP && !share.isZcdp() && share.delta() == 0) {
      throw new IllegalArgumentException("share needs delta > 0 on a dataset with the zcdp accountant");
    }
    if (!total.admits(share.loss())) {
      throw new IllegalArgumentException("share (" + share.describe()
          + ") must not exceed the dataset's total (" + total.describe() + ")");
    }
    Named n = resolve(dataset);
    Grant grant = new Grant(n.key(), analyst, share, Instant.now());
    store.grant(grant);
    return new Grant(n.name(), analyst, share, grant.time());
  }

  /** {@link #grant(String, String, Budget)} of the share a privacy-loss value states ({@link Budget#of}). */
  public Grant grant(String dataset, String analyst, PrivacyLoss share) {
    return grant(dataset, analyst, DatasetSpec.requirePositiveBudget("share", share));
  }

  /**
   * Charges a release to a dataset, durably, before it happens.
   *
   * @param dataset the dataset queried
   * @param analyst who asks
   * @param query the query text (kept in the history)
   * @param cost the privacy losses of everything the query will release
   * @return the committed charge
   * @throws BudgetExceededException if the dataset's total or the analyst's share would be
   *     exceeded; nothing is charged then
   * @throws UnknownDatasetException if the dataset is not registered
   */
  public Charge charge(String dataset, String analyst, String query, List<? extends PrivacyLoss> cost) {
    requireName("analyst", analyst);
    Objects.requireNonNull(query, "query");
    if (cost == null || cost.isEmpty()) {
      throw new IllegalArgumentException("cost must list at least one privacy loss");
    }
    List<PrivacyLoss> costs = new ArrayList<>(cost);
    costs.forEach(LedgerJson::privacyLoss); // rejects measures the store cannot keep, before locking
    Named n = resolve(dataset);
    return named(n, store.appendCharge(n.key(), analyst, query, List.copyOf(costs),
        (spec, grants, prior) -> BudgetRule.admit(spec, grants, prior, analyst, costs)));
  }

  /**
   * Refuses, as {@link #charge} would and before anything is charged, a cost the dataset's rule
   * cannot take whatever has been spent: a measure outside its proven filter, or one its budget
   * cannot compose. EXPLAIN calls it so that what it accepts the run accepts (issue 23, item 5);
   * it reads the registration only, never the charges.
   *
   * @throws BudgetExceededException with the message the charge would give
   */
  public void requireAdmissible(String dataset, List<? extends PrivacyLoss> cost) {
    DatasetSpec spec = dataset(dataset);
    ProvenFilter.requireAdmissible(spec, cost);
    BudgetRule.spent(spec, spec.budget(), cost);
  }

  /**
   * Charges a server release, durably, and records in the same transaction the {@link Release} it
   * pays for (whose answer is stored later by {@link #storeAnswer}).
   *
   * @throws Release.DuplicateKeyException if the analyst already used the claim's idempotency key;
   *     nothing is charged then
   * @see #charge(String, String, String, List)
   */
  public Charge chargeRelease(String dataset, String analyst, String query, List<? extends PrivacyLoss> cost,
      Release.Claim claim) {
    requireName("analyst", analyst);
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(claim, "claim");
    if (cost == null || cost.isEmpty()) {
      throw new IllegalArgumentException("cost must list at least one privacy loss");
    }
    List<PrivacyLoss> costs = new ArrayList<>(cost);
    costs.forEach(LedgerJson::privacyLoss);
    Named n = resolve(dataset);
    return named(n, store.appendCharge(n.key(), analyst, query, List.copyOf(costs),
        (spec, grants, prior) -> BudgetRule.admit(spec, grants, prior, analyst, costs), claim));
  }

  /** The release an analyst holds under an idempotency key. */
  public Optional<Release> release(String analyst, String idempotencyKey) {
    return store.release(analyst, idempotencyKey).map(this::named);
  }

  /** The release a charge paid for. */
  public Optional<Release> releaseOfCharge(long chargeId) {
    return store.releaseOfCharge(chargeId).map(this::named);
  }

  /** The committed charge with that id. */
  public Charge charge(String dataset, long chargeId) {
    return history(dataset).stream().filter(c -> c.id() == chargeId).findFirst()
        .orElseThrow(() -> new IllegalStateException("no charge #" + chargeId + " on dataset '" + dataset + "'"));
  }

  /**
   * Stores a release's answer, committed, unless an answer is stored already; returns the answer
   * that is stored (the first one stored wins, so no second draw can ever be sent).
   */
  public String storeAnswer(long chargeId, String answer) {
    Objects.requireNonNull(answer, "answer");
    return store.storeAnswer(chargeId, answer).answer().orElseThrow();
  }

  /** The job a charge paid for ({@link Release.Claim#job}), without its output. */
  public Optional<Job> job(long chargeId) {
    return store.job(chargeId);
  }

  /** The output of a done job, as stored when it finished. */
  public Optional<String> jobOutput(long chargeId) {
    return store.jobOutput(chargeId);
  }

  /**
   * The charge ids of an analyst's jobs of one kind, oldest first: the analyst's own job numbers
   * 1, 2, ... (which, unlike charge ids, count nobody else's jobs) index this list.
   */
  public List<Long> jobsOf(String analyst, String kind) {
    requireName("analyst", analyst);
    Objects.requireNonNull(kind, "kind");
    return store.jobsOf(analyst, kind);
  }

  /**
   * Starts a claimed job, atomically: true for the one caller (in any process sharing the ledger)
   * that moved it from {@link Job.State#CLAIMED} to {@link Job.State#RUNNING}; only that caller
   * may run it. Its lease lapses {@code lease} after the last {@link #heartbeatJob}, by the
   * database's clock.
   */
  public boolean startJob(long chargeId, String runner, java.time.Duration lease) {
    requireName("runner", runner);
    if (lease == null || lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lease must be positive");
    }
    return store.startJob(chargeId, runner, lease.toMillis());
  }

  /** Renews the lease of a job {@code runner} is running; false if it no longer holds it. */
  public boolean heartbeatJob(long chargeId, String runner) {
    requireName("runner", runner);
    return store.heartbeatJob(chargeId, runner);
  }

  /**
   * Stores the output of a job {@code runner} is running, with its SHA-256 digest, and marks it
   * done; returns the job as stored (failed, with the output dropped, if its lease lapsed first).
   */
  public Job finishJob(long chargeId, String runner, String output) {
    requireName("runner", runner);
    Objects.requireNonNull(output, "output");
    return store.finishJob(chargeId, runner, output, digest(output));
  }

  /** Marks a job {@code runner} is running failed (a fixed reason, never a data value). */
  public Job failJob(long chargeId, String runner, String reason) {
    requireName("runner", runner);
    Objects.requireNonNull(reason, "reason");
    return store.failJob(chargeId, runner, reason);
  }

  /**
   * Marks a running job failed if its lease lapsed (its runner's process stopped before it
   * finished); returns the job as stored. A job is never run twice under one charge.
   */
  public Job expireJob(long chargeId, String reason) {
    Objects.requireNonNull(reason, "reason");
    return store.expireJob(chargeId, reason);
  }

  /** {@code sha256:HEX} of a job output's UTF-8 bytes. */
  public static String digest(String output) {
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256")
          .digest(output.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      return "sha256:" + java.util.HexFormat.of().formatHex(d);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** A new account and its API key, which is shown once and never stored in clear. */
  public record NewAnalyst(Analyst analyst, String apiKey) {
    @Override
    public String toString() {
      return "NewAnalyst[" + analyst + ", apiKey=(shown once)]";
    }
  }

  /**
   * Adds an account with a fresh API key (256 random bits from the secure source); the ledger keeps
   * only a salted hash of the key. The name must differ, ignoring case, from every account's name,
   * revoked ones included: names are never reused (issue 23).
   */
  public NewAnalyst addAnalyst(String name, Role role) {
    requireName("name", name);
    Objects.requireNonNull(role, "role");
    RandomSource random = RandomSource.secure();
    ApiKey key = ApiKey.generate(random);
    byte[] salt = ApiKey.newSalt(random);
    Analyst analyst = new Analyst(name, role, Instant.now(), Optional.empty());
    store.addAnalyst(analyst, key.id(), salt, key.hash(salt));
    return new NewAnalyst(analyst, key.reveal());
  }

  /** All accounts, active and revoked, oldest first (never their keys). */
  public List<Analyst> analysts() {
    return store.analysts();
  }

  /**
   * Revokes the active account of that name: its key fails from the next request on.
   *
   * @throws IllegalArgumentException if no active account has that name
   */
  public void revokeAnalyst(String name) {
    requireName("name", name);
    if (!store.revokeAnalyst(name, Instant.now())) {
      throw new IllegalArgumentException("name: no active account named '" + name + "'");
    }
  }

  /**
   * The active account holding a presented API key, or empty for a malformed, unknown or revoked
   * key. The key's salted hash is compared in constant time; an unknown id still computes a hash,
   * so timing does not tell unknown ids from wrong secrets.
   */
  public Optional<Analyst> authenticate(String presentedKey) {
    Optional<ApiKey> key = ApiKey.parse(presentedKey);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    Optional<LedgerStore.StoredKey> stored = store.key(key.get().id());
    if (stored.isEmpty()) {
      key.get().matches(UNKNOWN_SALT, UNKNOWN_HASH);
      return Optional.empty();
    }
    boolean ok = key.get().matches(stored.get().salt(), stored.get().keyHash());
    Analyst who = stored.get().analyst();
    return ok && who.active() && !revives(who) ? Optional.of(who) : Optional.empty();
  }

  /**
   * Whether an account bears the name of an earlier, revoked one: possible in a ledger written
   * before names were never reused. Records are kept under names, so such an account would inherit
   * the revoked one's stored answers, synthesis jobs and history; it never authenticates (the
   * curator adds it under a new name).
   */
  private boolean revives(Analyst who) {
    return store.analysts().stream().anyMatch(a -> a.name().equals(who.name()) && a.revoked().isPresent()
        && !a.created().isAfter(who.created()) && !a.equals(who));
  }

  private static final byte[] UNKNOWN_SALT = new byte[16];
  private static final byte[] UNKNOWN_HASH = new byte[32];

  /** The dataset's charges, oldest first. */
  public List<Charge> history(String dataset) {
    Named n = resolve(dataset);
    return store.charges(n.key()).stream().map(c -> named(n, c)).toList();
  }

  /**
   * The analyst's own number of a charge on its dataset: 1 for their first charge there, 2 for the
   * next, and so on. Unlike {@link Charge#id}, which counts everyone's charges, it depends on the
   * analyst's own history only, so it is the id an analyst is shown (issue 23, item 3).
   */
  public long analystChargeNumber(Charge charge) {
    return history(charge.dataset()).stream()
        .filter(c -> c.analyst().equals(charge.analyst()) && c.id() <= charge.id()).count();
  }

  /** The grants of a dataset, oldest first. */
  public List<Grant> grants(String dataset) {
    Named n = resolve(dataset);
    return store.grants(n.key()).stream()
        .map(g -> new Grant(n.name(), g.analyst(), g.share(), g.time())).toList();
  }

  /** What all analysts together have spent of the dataset's total. */
  public BudgetStatus status(String dataset) {
    DatasetSpec spec = dataset(dataset);
    List<Charge> charges = store.charges(resolve(dataset).key());
    List<PrivacyLoss> events = new ArrayList<>();
    charges.forEach(c -> events.addAll(c.cost()));
    return status(spec, Optional.empty(), spec.budget(), events, charges.size());
  }

  /** What one analyst has spent, against their grant (or the total when they have none). */
  public BudgetStatus status(String dataset, String analyst) {
    requireName("analyst", analyst);
    DatasetSpec spec = dataset(dataset);
    String key = resolve(dataset).key();
    List<PrivacyLoss> events = new ArrayList<>();
    int n = 0;
    for (Charge c : store.charges(key)) {
      if (c.analyst().equals(analyst)) {
        events.addAll(c.cost());
        n++;
      }
    }
    Budget cap = BudgetRule.grantOf(store.grants(key), analyst)
        .map(Grant::share).orElse(spec.budget());
    return status(spec, Optional.of(analyst), cap, events, n);
  }

  private static BudgetStatus status(
      DatasetSpec spec, Optional<String> analyst, Budget cap, List<PrivacyLoss> events, int n) {
    PrivacyLoss spent = BudgetRule.spent(spec, cap, events);
    return new BudgetStatus(spec.name(), analyst, spec.accountant(), cap, spent, cap.remaining(spent), n);
  }

  private static Charge named(Named n, Charge c) {
    return n.key().equals(n.name()) ? c : new Charge(c.id(), n.name(), c.analyst(), c.time(), c.query(),
        c.cost(), c.spent(), c.analystSpent());
  }

  /** A release under its dataset's current name (a name that resolves to it, unlike its key). */
  private Release named(Release r) {
    String name = nameOf(r.dataset());
    return name.equals(r.dataset()) ? r : new Release(r.chargeId(), name, r.analyst(),
        r.idempotencyKey(), r.request(), r.answer());
  }

  private static void requireName(String parameter, String value) {
    if (value == null || value.isBlank() || value.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(parameter + " must be a non-empty name of at most "
          + MAX_NAME_LENGTH + " characters");
    }
  }

  @Override
  public void close() {
    store.close();
  }
}
