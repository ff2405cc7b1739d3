package org.privet.ledger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.privet.accounting.PrivacyLoss;
import org.sqlite.SQLiteConfig;

/**
 * The ledger's tables and statements, written once over JDBC for every {@link LedgerDialect}:
 * SQLite (the embedded default) and PostgreSQL (shared by processes on several hosts). The
 * dialect renders the few things that differ, the column type of generated ids, the append-only
 * guards and how a write transaction takes its lock; everything else, schema included, is the same
 * SQL text.
 *
 * <p>Every write runs in {@link #inWriteTransaction}, which takes the dialect's write lock before it
 * reads anything, so a charge reads all committed prior charges of its dataset and no other charge
 * of that dataset can commit in between. A charge's id is the next integer after the largest one
 * committed ({@code MAX(id) + 1} inside the transaction), so ids are dense: a gap would mean a
 * lost charge. Guards (triggers) make the datasets, grants, charges, dataset_schemas,
 * dataset_renames and dataset_tables tables append-only, let a release's answer be stored once and an account only be revoked.
 *
 * <p>Migrations are additive: each table is created if absent when a ledger is opened, so a ledger
 * written by an older version gains the new tables and keeps every row it had.
 */
final class JdbcLedgerStore implements LedgerStore {
  /** How long a SQLite writer waits for the file's write lock. */
  static final int BUSY_TIMEOUT_MS = 120_000;
  /** A write transaction that lost a race on the next charge id is retried this often. */
  private static final int MAX_ATTEMPTS = 64;

  /**
   * The schema, in the SQL both dialects accept; {@code ID} stands for the dialect's generated
   * integer primary key.
   */
  private static final String[] TABLES = {
    "CREATE TABLE IF NOT EXISTS datasets(name TEXT PRIMARY KEY, spec TEXT NOT NULL,"
        + " registered_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS grants(id ID,"
        + " dataset TEXT NOT NULL REFERENCES datasets(name), analyst TEXT NOT NULL,"
        + " share TEXT NOT NULL, granted_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS charges(id ID,"
        + " dataset TEXT NOT NULL REFERENCES datasets(name), analyst TEXT NOT NULL,"
        + " charged_at TEXT NOT NULL, query TEXT NOT NULL, cost TEXT NOT NULL,"
        + " spent TEXT NOT NULL, analyst_spent TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS charges_by_dataset ON charges(dataset, id)",
    // Added with fixed public schemas: a ledger created before them gets the table on open, and
    // its datasets have no schema until the curator fixes one (Ledger#fixSchema).
    "CREATE TABLE IF NOT EXISTS dataset_schemas(dataset TEXT PRIMARY KEY REFERENCES datasets(name),"
        + " schema TEXT NOT NULL, fixed_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS releases(charge_id BIGINT PRIMARY KEY REFERENCES charges(id),"
        + " dataset TEXT NOT NULL, analyst TEXT NOT NULL, idempotency_key TEXT, request TEXT NOT NULL,"
        + " answer TEXT, answered_at TEXT)",
    // NULLs are distinct in unique indexes (SQLite and PostgreSQL): releases without a key never collide.
    "CREATE UNIQUE INDEX IF NOT EXISTS releases_by_key ON releases(analyst, idempotency_key)",
    "CREATE TABLE IF NOT EXISTS analysts(id ID, name TEXT NOT NULL,"
        + " role TEXT NOT NULL, key_id TEXT NOT NULL UNIQUE, salt TEXT NOT NULL, key_hash TEXT NOT NULL,"
        + " created_at TEXT NOT NULL, revoked_at TEXT)",
    "CREATE UNIQUE INDEX IF NOT EXISTS analysts_active ON analysts(name) WHERE revoked_at IS NULL",
    // Asynchronous releases (issue 23): written with their charge; state CLAIMED, RUNNING, DONE or
    // FAILED (see Job); the lease is timed by the database's clock (LedgerDialect#nowMillis).
    "CREATE TABLE IF NOT EXISTS jobs(charge_id BIGINT PRIMARY KEY REFERENCES charges(id),"
        + " kind TEXT NOT NULL, request TEXT NOT NULL, state TEXT NOT NULL, runner TEXT,"
        + " lease_ms BIGINT, heartbeat_ms BIGINT, output TEXT, output_digest TEXT, failure TEXT,"
        + " created_at TEXT NOT NULL, finished_at TEXT)",
    // Added with the case rule for dataset names (issue 23): a dataset keeps the name it was
    // registered under as its key in every record; a rename adds the name queries use from then on.
    "CREATE TABLE IF NOT EXISTS dataset_renames(id ID, dataset TEXT NOT NULL REFERENCES datasets(name),"
        + " name TEXT NOT NULL, renamed_at TEXT NOT NULL)",
    // Added with multi-table datasets (issue 25): a dataset's tables after its first (the unit
    // table, whose source is the dataset's own), each with its fixed public schema; a row with no
    // spec and no schema names the unit table, written at registration (--table-name) or with the
    // first added table (the dataset's name then), so renames never change it (readTables).
    "CREATE TABLE IF NOT EXISTS dataset_tables(id ID, dataset TEXT NOT NULL REFERENCES datasets(name),"
        + " name TEXT NOT NULL, spec TEXT, schema TEXT, added_at TEXT NOT NULL,"
        + " CHECK ((spec IS NULL) = (schema IS NULL)))",
    "CREATE UNIQUE INDEX IF NOT EXISTS dataset_tables_by_name ON dataset_tables(dataset, lower(name))",
    "CREATE UNIQUE INDEX IF NOT EXISTS dataset_tables_unit ON dataset_tables(dataset) WHERE spec IS NULL",
  };

  private static final String APPEND_ONLY = "the ledger is append-only";

  private static final List<LedgerDialect.Guard> GUARDS = List.of(
      LedgerDialect.Guard.always("dataset_schemas", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("dataset_schemas", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("datasets", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("datasets", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("grants", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("grants", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("charges", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("charges", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("releases", "DELETE", APPEND_ONLY),
      new LedgerDialect.Guard("releases_answer_once", "releases", "UPDATE",
          "OLD.answer IS NOT NULL OR NEW.charge_id IS DISTINCT FROM OLD.charge_id"
              + " OR NEW.dataset IS DISTINCT FROM OLD.dataset OR NEW.analyst IS DISTINCT FROM OLD.analyst"
              + " OR NEW.idempotency_key IS DISTINCT FROM OLD.idempotency_key"
              + " OR NEW.request IS DISTINCT FROM OLD.request",
          "a release answer is stored once"),
      LedgerDialect.Guard.always("analysts", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("jobs", "DELETE", APPEND_ONLY),
      // CLAIMED -> RUNNING -> DONE | FAILED, nothing else; DONE and FAILED are final; the order and
      // the runner of a started job never change; only a done job has an output.
      new LedgerDialect.Guard("jobs_forward_only", "jobs", "UPDATE",
          "OLD.state IN ('DONE', 'FAILED')"
              + " OR NEW.state NOT IN ('CLAIMED', 'RUNNING', 'DONE', 'FAILED')"
              + " OR (OLD.state = 'RUNNING' AND NEW.state = 'CLAIMED')"
              + " OR (OLD.state = 'CLAIMED' AND NEW.state IN ('DONE', 'FAILED'))"
              + " OR (OLD.state = 'RUNNING' AND NEW.runner IS DISTINCT FROM OLD.runner)"
              + " OR (NEW.state <> 'DONE' AND NEW.output IS NOT NULL)"
              + " OR (NEW.state = 'DONE' AND (NEW.output IS NULL OR NEW.output_digest IS NULL))"
              + " OR NEW.charge_id IS DISTINCT FROM OLD.charge_id OR NEW.kind IS DISTINCT FROM OLD.kind"
              + " OR NEW.request IS DISTINCT FROM OLD.request"
              + " OR NEW.created_at IS DISTINCT FROM OLD.created_at",
          "a job only moves forward, once"),
      LedgerDialect.Guard.always("dataset_renames", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("dataset_renames", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("dataset_tables", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("dataset_tables", "DELETE", APPEND_ONLY),
      new LedgerDialect.Guard("analysts_revoke_only", "analysts", "UPDATE",
          "OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL OR NEW.name IS DISTINCT FROM OLD.name"
              + " OR NEW.role IS DISTINCT FROM OLD.role OR NEW.key_id IS DISTINCT FROM OLD.key_id"
              + " OR NEW.salt IS DISTINCT FROM OLD.salt OR NEW.key_hash IS DISTINCT FROM OLD.key_hash"
              + " OR NEW.created_at IS DISTINCT FROM OLD.created_at",
          "an account is only ever revoked"));

  /**
   * Lock names of writes that concern no single dataset (a leading space keeps them apart from
   * dataset names, which cannot start with one): accounts, and stored answers.
   */
  private static final String ACCOUNTS_LOCK = " accounts";
  private static final String RELEASES_LOCK = " releases";
  private static final String JOBS_LOCK = " jobs";
  /** Registrations and renames: a name is compared, ignoring case, with every name ever used. */
  private static final String NAMES_LOCK = " names";

  /** The lock name of writes that concern no single dataset (schema set-up). */
  private static final String SCHEMA_LOCK = "";

  private final LedgerDialect dialect;
  private final Connection connection;

  /** Takes over {@code connection} (in auto-commit mode) and creates the tables if absent. */
  JdbcLedgerStore(LedgerDialect dialect, Connection connection, String where) {
    this.dialect = dialect;
    this.connection = connection;
    try {
      inWriteTransaction(SCHEMA_LOCK, () -> {
        try (Statement s = connection.createStatement()) {
          for (String ddl : dialect.schema(TABLES, GUARDS)) {
            s.executeUpdate(ddl);
          }
        }
        return null;
      });
    } catch (SQLException e) {
      try {
        connection.close();
      } catch (SQLException closing) {
        e.addSuppressed(closing);
      }
      throw new IllegalStateException("cannot open the ledger at " + where + ": " + e.getMessage(), e);
    }
  }

  /** The embedded store of a workspace: one SQLite file in WAL mode with {@code synchronous=FULL}. */
  static JdbcLedgerStore sqlite(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the workspace folder for " + file, e);
    }
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    config.enforceForeignKeys(true);
    try {
      return new JdbcLedgerStore(LedgerDialect.SQLITE,
          config.createConnection("jdbc:sqlite:" + file.toAbsolutePath()), file.toString());
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open the ledger at " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A shared store on a PostgreSQL server. The password is handed to the driver only; it is never
   * written to the ledger, a message or a log.
   */
  static JdbcLedgerStore postgres(PostgresLedger server) {
    Properties properties = new Properties();
    server.user().ifPresent(u -> properties.setProperty("user", u));
    server.password().ifPresent(p -> properties.setProperty("password", new String(p)));
    properties.setProperty("ApplicationName", "privet");
    properties.setProperty("tcpKeepAlive", "true");
    try {
      return new JdbcLedgerStore(LedgerDialect.POSTGRES,
          new org.postgresql.Driver().connect(server.url(), properties), server.url());
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open the ledger at " + server.url() + ": " + e.getMessage(), e);
    }
  }

  LedgerDialect dialect() {
    return dialect;
  }

  @FunctionalInterface
  private interface Work<T> {
    T run() throws SQLException;
  }

  /**
   * Runs {@code work} in a write transaction holding the dialect's lock for {@code lock} (a dataset
   * name; {@link #SCHEMA_LOCK} otherwise), and commits durably. The connection stays in auto-commit
   * mode; the transaction is explicit so the lock is held only inside it. A transaction that lost a
   * race the dialect reports as retryable (see {@link LedgerDialect#retryable}) is rolled back and
   * run again from the start.
   */
  private synchronized <T> T inWriteTransaction(String lock, Work<T> work) throws SQLException {
    for (int attempt = 1; ; attempt++) {
      try {
        return inWriteTransactionOnce(lock, work);
      } catch (SQLException e) {
        if (attempt >= MAX_ATTEMPTS || !dialect.retryable(e)) {
          throw e;
        }
      }
    }
  }

  private <T> T inWriteTransactionOnce(String lock, Work<T> work) throws SQLException {
    dialect.beginWrite(connection, lock);
    boolean committed = false;
    try {
      T result = work.run();
      try (Statement s = connection.createStatement()) {
        s.execute("COMMIT");
      }
      committed = true;
      return result;
    } finally {
      if (!committed) {
        try (Statement s = connection.createStatement()) {
          s.execute("ROLLBACK");
        } catch (SQLException rollbackFailure) {
          // The transaction is gone already (e.g. the commit itself failed); nothing was written.
        }
      }
    }
  }

  @Override
  public void register(DatasetSpec spec, Instant time) {
    register(spec, Optional.empty(), time);
  }

  @Override
  public void register(DatasetSpec spec, RegisteredSchema schema, Instant time) {
    register(spec, Optional.of(schema), Optional.empty(), time);
  }

  @Override
  public void register(DatasetSpec spec, RegisteredSchema schema, String unitTable, Instant time) {
    register(spec, Optional.of(schema), Optional.of(unitTable), time);
  }

  @Override
  public void register(DatasetSpec spec, RegisteredSchema schema, String unitTable, List<DatasetTable> tables,
      Instant time) {
    register(spec, Optional.of(schema), Optional.of(unitTable), tables, time);
  }

  private void register(DatasetSpec spec, Optional<RegisteredSchema> schema, Instant time) {
    register(spec, schema, Optional.empty(), time);
  }

  private void register(DatasetSpec spec, Optional<RegisteredSchema> schema, Optional<String> unitTable,
      Instant time) {
    register(spec, schema, unitTable, List.of(), time);
  }

  private void register(DatasetSpec spec, Optional<RegisteredSchema> schema, Optional<String> unitTable,
      List<DatasetTable> tables, Instant time) {
    try {
      inWriteTransaction(NAMES_LOCK, () -> {
        requireUnusedName(spec.name());
        try (PreparedStatement p = connection.prepareStatement(
            "INSERT INTO datasets(name, spec, registered_at) VALUES (?, ?, ?)")) {
          p.setString(1, spec.name());
          p.setString(2, LedgerJson.write(LedgerJson.dataset(spec)));
          p.setString(3, time.toString());
          p.executeUpdate();
        }
        if (schema.isPresent()) {
          insertSchema(spec.name(), schema.get(), time);
        }
        if (unitTable.isPresent()) {
          insertTable(spec.name(), unitTable.get(), null, null, time);
        }
        for (DatasetTable t : tables) {
          insertTable(spec.name(), t.name(), LedgerJson.write(LedgerJson.table(t.spec())),
              LedgerJson.write(LedgerJson.schema(t.schema().orElseThrow())), time);
        }
        return null;
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  /**
   * Refuses a name equal, ignoring case, to any dataset name ever used: registered names (each
   * dataset's key in every record) and names given by renames.
   */
  private void requireUnusedName(String name) throws SQLException {
    try (Statement s = connection.createStatement();
        ResultSet r = s.executeQuery("SELECT name FROM datasets UNION ALL SELECT name FROM dataset_renames")) {
      while (r.next()) {
        String used = r.getString(1);
        if (used.equalsIgnoreCase(name)) {
          throw new IllegalArgumentException("name: a dataset named '" + used + "' is already registered"
              + (used.equals(name) ? "" : " (dataset names must differ ignoring case)")
              + "; choose another name");
        }
      }
    }
  }

  @Override
  public void rename(String dataset, String name, Instant time) {
    try {
      inWriteTransaction(NAMES_LOCK, () -> {
        findDataset(dataset).orElseThrow(() -> new UnknownDatasetException(dataset));
        requireUnusedName(name);
        try (PreparedStatement p = connection.prepareStatement(
            "INSERT INTO dataset_renames(dataset, name, renamed_at) VALUES (?, ?, ?)")) {
          p.setString(1, dataset);
          p.setString(2, name);
          p.setString(3, time.toString());
          p.executeUpdate();
        }
        return null;
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public synchronized java.util.Map<String, String> names() {
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    try (Statement s = connection.createStatement()) {
      try (ResultSet r = s.executeQuery("SELECT name FROM datasets")) {
        while (r.next()) {
          out.put(r.getString(1), r.getString(1));
        }
      }
      try (ResultSet r = s.executeQuery("SELECT dataset, name FROM dataset_renames ORDER BY id")) {
        while (r.next()) {
          out.put(r.getString(1), r.getString(2)); // the latest rename wins
        }
      }
    } catch (SQLException e) {
      throw storeFailure(e);
    }
    return out;
  }

  @Override
  public void fixSchema(String dataset, RegisteredSchema schema, Instant time) {
    try {
      inWriteTransaction(dataset, () -> {
        findDataset(dataset).orElseThrow(() -> new UnknownDatasetException(dataset));
        if (findSchema(dataset).isPresent()) {
          throw new IllegalArgumentException("dataset '" + dataset + "' already has a public schema;"
              + " it is fixed once (register the changed file as a new dataset)");
        }
        insertSchema(dataset, schema, time);
        return null;
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private void insertSchema(String dataset, RegisteredSchema schema, Instant time) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "INSERT INTO dataset_schemas(dataset, schema, fixed_at) VALUES (?, ?, ?)")) {
      p.setString(1, dataset);
      p.setString(2, LedgerJson.write(LedgerJson.schema(schema)));
      p.setString(3, time.toString());
      p.executeUpdate();
    }
  }

  @Override
  public synchronized Optional<RegisteredSchema> schema(String dataset) {
    try {
      return findSchema(dataset);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private Optional<RegisteredSchema> findSchema(String dataset) throws SQLException {
    return json("SELECT schema FROM dataset_schemas WHERE dataset = ?", dataset)
        .map(LedgerJson::readSchema);
  }

  @Override
  public void addTable(String dataset, TableSpec table, RegisteredSchema schema, TableCheck check, Instant time) {
    try {
      inWriteTransaction(dataset, () -> {
        DatasetSpec spec = findDataset(dataset).orElseThrow(() -> new UnknownDatasetException(dataset));
        String name = names().getOrDefault(dataset, dataset);
        List<DatasetTable> tables = readTables(dataset, name);
        check.check(Ledger.named(spec, name), tables);
        if (!hasUnitRow(dataset)) {
          // The unit table's name is fixed with the first table that may reference it: the name
          // the checks above gave it (the dataset's now, or a legacy ledger's derived name).
          insertTable(dataset, tables.get(0).name(), null, null, time);
        }
        insertTable(dataset, table.name(), LedgerJson.write(LedgerJson.table(table)),
            LedgerJson.write(LedgerJson.schema(schema)), time);
        return null;
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private void insertTable(String dataset, String name, String spec, String schema, Instant time)
      throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "INSERT INTO dataset_tables(dataset, name, spec, schema, added_at) VALUES (?, ?, ?, ?, ?)")) {
      p.setString(1, dataset);
      p.setString(2, name);
      p.setString(3, spec);
      p.setString(4, schema);
      p.setString(5, time.toString());
      p.executeUpdate();
    }
  }

  @Override
  public synchronized List<DatasetTable> tables(String dataset) {
    try {
      return readTables(dataset, names().getOrDefault(dataset, dataset));
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public synchronized List<String> datasetsWithTables() {
    List<String> out = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet r = s.executeQuery("SELECT DISTINCT dataset FROM dataset_tables ORDER BY dataset")) {
      while (r.next()) {
        out.add(r.getString(1));
      }
    } catch (SQLException e) {
      throw storeFailure(e);
    }
    return out;
  }

  private boolean hasUnitRow(String dataset) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT 1 FROM dataset_tables WHERE dataset = ? AND spec IS NULL")) {
      p.setString(1, dataset);
      try (ResultSet r = p.executeQuery()) {
        return r.next();
      }
    }
  }

  /**
   * The dataset's tables, the unit table first, named as fixed (never by a later rename): the
   * stored unit row's name (written at registration with a table name, or with the first added
   * table); else, for a ledger whose tables were added before that row was written, the dataset's
   * name when its first table was added ({@link #nameAt}), the name its references were checked
   * against; else (no table added yet) the dataset's current name, as a single-table dataset's one
   * table follows its name. A reference is read as it was checked when its table was added
   * ({@link #asChecked}), so a legacy ledger's reference to the unit table under any name the
   * dataset had then still finds it.
   */
  private List<DatasetTable> readTables(String dataset, String currentName) throws SQLException {
    DatasetSpec spec = findDataset(dataset).orElseThrow(() -> new UnknownDatasetException(dataset));
    String unitRow = null;
    Instant firstAdded = null;
    List<DatasetTable> added = new ArrayList<>();
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT name, spec, schema, added_at FROM dataset_tables WHERE dataset = ? ORDER BY id")) {
      p.setString(1, dataset);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          if (r.getString(2) == null) {
            unitRow = r.getString(1);
          } else {
            if (firstAdded == null) {
              firstAdded = LedgerJson.readTime(r.getString(4));
            }
            added.add(new DatasetTable(LedgerJson.readTable(LedgerJson.read(r.getString(2))),
                Optional.of(LedgerJson.readSchema(LedgerJson.read(r.getString(3)))), false));
          }
        }
      }
    }
    String unitName = unitRow != null ? unitRow : firstAdded == null ? currentName : nameAt(dataset, firstAdded);
    String derived = unitName;
    if (unitRow == null && added.stream().anyMatch(t -> t.name().equalsIgnoreCase(derived))) {
      // A legacy ledger could add a table under a name the dataset had before a rename; the current
      // name is never a table's (TableRules, Ledger#renameDataset).
      unitName = currentName;
    }
    List<DatasetTable> out = new ArrayList<>();
    out.add(new DatasetTable(TableSpec.unitTable(spec, unitName), findSchema(dataset), true));
    for (DatasetTable t : added) {
      out.add(new DatasetTable(asChecked(t.spec(), out, unitName), t.schema(), false));
    }
    return out;
  }

  /**
   * {@code table} with each reference naming the table it was checked against when {@code table}
   * was added (TableRules finds a reference's table among those added before it, else it was the
   * unit table): an earlier added table keeps its name, any other name is the unit table's, which
   * in a legacy ledger may be an earlier name of the dataset. No-op for a ledger written since the
   * unit table's name is fixed.
   */
  private static TableSpec asChecked(TableSpec table, List<DatasetTable> before, String unitName) {
    java.util.function.UnaryOperator<TableReference> respell = r ->
        before.stream().skip(1).anyMatch(t -> r.references(t.name())) || r.references(unitName) ? r
            : new TableReference(r.column(), unitName, r.targetColumn());
    List<TableReference> references = table.references().stream().map(respell).toList();
    List<TableReference> referencedBy = table.referencedBy().stream().map(respell).toList();
    return references.equals(table.references()) && referencedBy.equals(table.referencedBy()) ? table
        : new TableSpec(table.name(), table.source(), table.format(), table.csv(), table.database(), references,
            table.isPublic(), referencedBy);
  }

  /** The dataset's name at {@code time}: its registered name, or the last rename made by then. */
  private String nameAt(String dataset, Instant time) throws SQLException {
    String name = dataset;
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT name, renamed_at FROM dataset_renames WHERE dataset = ? ORDER BY id")) {
      p.setString(1, dataset);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          if (!LedgerJson.readTime(r.getString(2)).isAfter(time)) {
            name = r.getString(1);
          }
        }
      }
    }
    return name;
  }

  /** The JSON text in the first column of the row {@code select} finds for {@code key}. */
  private Optional<com.fasterxml.jackson.databind.JsonNode> json(String select, String key)
      throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(select)) {
      p.setString(1, key);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? Optional.of(LedgerJson.read(r.getString(1))) : Optional.empty();
      }
    }
  }

  @Override
  public synchronized Optional<DatasetSpec> dataset(String name) {
    try {
      return findDataset(name);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private Optional<DatasetSpec> findDataset(String name) throws SQLException {
    return json("SELECT spec FROM datasets WHERE name = ?", name).map(LedgerJson::readDataset);
  }


  @Override
  public synchronized List<DatasetSpec> datasets() {
    List<DatasetSpec> out = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet r = s.executeQuery("SELECT spec FROM datasets ORDER BY name")) {
      while (r.next()) {
        out.add(LedgerJson.readDataset(LedgerJson.read(r.getString(1))));
      }
    } catch (SQLException e) {
      throw storeFailure(e);
    }
    return out;
  }

  @Override
  public void grant(Grant grant) {
    try {
      inWriteTransaction(grant.dataset(), () -> {
        try (PreparedStatement p = connection.prepareStatement(
            "INSERT INTO grants(dataset, analyst, share, granted_at) VALUES (?, ?, ?, ?)")) {
          p.setString(1, grant.dataset());
          p.setString(2, grant.analyst());
          p.setString(3, LedgerJson.write(LedgerJson.budget(grant.share())));
          p.setString(4, grant.time().toString());
          p.executeUpdate();
        }
        return null;
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public synchronized List<Grant> grants(String dataset) {
    try {
      return readGrants(dataset);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private List<Grant> readGrants(String dataset) throws SQLException {
    List<Grant> out = new ArrayList<>();
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT analyst, share, granted_at FROM grants WHERE dataset = ? ORDER BY id")) {
      p.setString(1, dataset);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          out.add(new Grant(dataset, r.getString(1),
              LedgerJson.readBudget(LedgerJson.read(r.getString(2))),
              LedgerJson.readTime(r.getString(3))));
        }
      }
    }
    return out;
  }

  @Override
  public synchronized List<Charge> charges(String dataset) {
    try {
      return readCharges(dataset);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private List<Charge> readCharges(String dataset) throws SQLException {
    List<Charge> out = new ArrayList<>();
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT id, analyst, charged_at, query, cost, spent, analyst_spent FROM charges"
            + " WHERE dataset = ? ORDER BY id")) {
      p.setString(1, dataset);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          out.add(new Charge(r.getLong(1), dataset, r.getString(2),
              LedgerJson.readTime(r.getString(3)), r.getString(4),
              LedgerJson.readPrivacyLosses(LedgerJson.read(r.getString(5))),
              LedgerJson.readPrivacyLoss(LedgerJson.read(r.getString(6))),
              LedgerJson.readPrivacyLoss(LedgerJson.read(r.getString(7)))));
        }
      }
    }
    return out;
  }

  @Override
  public Charge appendCharge(
      String dataset, String analyst, String query, List<PrivacyLoss> cost, Admission admission) {
    return appendCharge(dataset, analyst, query, cost, admission, null);
  }

  @Override
  public Charge appendCharge(String dataset, String analyst, String query, List<PrivacyLoss> cost,
      Admission admission, Release.Claim claim) {
    try {
      return inWriteTransaction(dataset, () -> {
        if (claim != null && claim.idempotencyKey().isPresent()
            && findRelease(analyst, claim.idempotencyKey().get()).isPresent()) {
          throw new Release.DuplicateKeyException();
        }
        DatasetSpec spec = findDataset(dataset).orElseThrow(() -> new UnknownDatasetException(dataset));
        Spend spend = admission.admit(spec, readGrants(dataset), readCharges(dataset));
        Instant now = Instant.now();
        long id;
        try (PreparedStatement p = connection.prepareStatement(
            "INSERT INTO charges(id, dataset, analyst, charged_at, query, cost, spent, analyst_spent)"
                + " VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM charges), ?, ?, ?, ?, ?, ?, ?)"
                + " RETURNING id")) {
          p.setString(1, dataset);
          p.setString(2, analyst);
          p.setString(3, now.toString());
          p.setString(4, query);
          p.setString(5, LedgerJson.write(LedgerJson.privacyLosses(cost)));
          p.setString(6, LedgerJson.write(LedgerJson.privacyLoss(spend.spent())));
          p.setString(7, LedgerJson.write(LedgerJson.privacyLoss(spend.analystSpent())));
          try (ResultSet keys = p.executeQuery()) {
            keys.next();
            id = keys.getLong(1);
          }
        }
        if (claim != null) {
          try (PreparedStatement p = connection.prepareStatement(
              "INSERT INTO releases(charge_id, dataset, analyst, idempotency_key, request) VALUES (?, ?, ?, ?, ?)")) {
            p.setLong(1, id);
            p.setString(2, dataset);
            p.setString(3, analyst);
            p.setString(4, claim.idempotencyKey().orElse(null));
            p.setString(5, claim.request());
            p.executeUpdate();
          }
          if (claim.job().isPresent()) {
            try (PreparedStatement p = connection.prepareStatement(
                "INSERT INTO jobs(charge_id, kind, request, state, created_at) VALUES (?, ?, ?, 'CLAIMED', ?)")) {
              p.setLong(1, id);
              p.setString(2, claim.job().get().kind());
              p.setString(3, claim.job().get().request());
              p.setString(4, now.toString());
              p.executeUpdate();
            }
          }
        }
        return new Charge(id, dataset, analyst, now, query, cost, spend.spent(), spend.analystSpent());
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private static final String RELEASE_COLUMNS =
      "SELECT charge_id, dataset, analyst, idempotency_key, request, answer FROM releases";

  private Optional<Release> findRelease(String analyst, String idempotencyKey) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        RELEASE_COLUMNS + " WHERE analyst = ? AND idempotency_key = ?")) {
      p.setString(1, analyst);
      p.setString(2, idempotencyKey);
      return readRelease(p);
    }
  }

  private Optional<Release> findRelease(long chargeId) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(RELEASE_COLUMNS + " WHERE charge_id = ?")) {
      p.setLong(1, chargeId);
      return readRelease(p);
    }
  }

  private static Optional<Release> readRelease(PreparedStatement p) throws SQLException {
    try (ResultSet r = p.executeQuery()) {
      if (!r.next()) {
        return Optional.empty();
      }
      return Optional.of(new Release(r.getLong(1), r.getString(2), r.getString(3),
          Optional.ofNullable(r.getString(4)), r.getString(5), Optional.ofNullable(r.getString(6))));
    }
  }

  @Override
  public synchronized Optional<Release> release(String analyst, String idempotencyKey) {
    try {
      return findRelease(analyst, idempotencyKey);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public synchronized Optional<Release> releaseOfCharge(long chargeId) {
    try {
      return findRelease(chargeId);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public Release storeAnswer(long chargeId, String answer) {
    try {
      return inWriteTransaction(RELEASES_LOCK, () -> {
        try (PreparedStatement p = connection.prepareStatement(
            "UPDATE releases SET answer = ?, answered_at = ? WHERE charge_id = ? AND answer IS NULL")) {
          p.setString(1, answer);
          p.setString(2, Instant.now().toString());
          p.setLong(3, chargeId);
          p.executeUpdate();
        }
        return findRelease(chargeId).orElseThrow(
            () -> new IllegalArgumentException("no release was charged as #" + chargeId));
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private Optional<Job> findJob(long chargeId) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT kind, request, state, output_digest, failure FROM jobs WHERE charge_id = ?")) {
      p.setLong(1, chargeId);
      try (ResultSet r = p.executeQuery()) {
        if (!r.next()) {
          return Optional.empty();
        }
        return Optional.of(new Job(chargeId, r.getString(1), r.getString(2), Job.State.valueOf(r.getString(3)),
            Optional.ofNullable(r.getString(4)), Optional.ofNullable(r.getString(5))));
      }
    }
  }

  @Override
  public synchronized Optional<Job> job(long chargeId) {
    try {
      return findJob(chargeId);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public synchronized Optional<String> jobOutput(long chargeId) {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT output FROM jobs WHERE charge_id = ? AND state = 'DONE'")) {
      p.setLong(1, chargeId);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? Optional.ofNullable(r.getString(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public synchronized List<Long> jobsOf(String analyst, String kind) {
    List<Long> out = new ArrayList<>();
    try (PreparedStatement p = connection.prepareStatement("SELECT j.charge_id FROM jobs j JOIN releases r"
        + " ON r.charge_id = j.charge_id WHERE r.analyst = ? AND j.kind = ? ORDER BY j.charge_id")) {
      p.setString(1, analyst);
      p.setString(2, kind);
      try (ResultSet r = p.executeQuery()) {
        while (r.next()) {
          out.add(r.getLong(1));
        }
      }
    } catch (SQLException e) {
      throw storeFailure(e);
    }
    return out;
  }

  /** Runs one conditional update of a job in a write transaction; the number of rows it changed. */
  private int updateJob(String sql, Object... parameters) {
    try {
      return inWriteTransaction(JOBS_LOCK, () -> {
        try (PreparedStatement p = connection.prepareStatement(sql)) {
          for (int i = 0; i < parameters.length; i++) {
            p.setObject(i + 1, parameters[i]);
          }
          return p.executeUpdate();
        }
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private Job jobAfterUpdate(long chargeId) {
    return job(chargeId).orElseThrow(() -> new IllegalArgumentException("no job was charged as #" + chargeId));
  }

  @Override
  public boolean startJob(long chargeId, String runner, long leaseMillis) {
    return updateJob("UPDATE jobs SET state = 'RUNNING', runner = ?, lease_ms = ?, heartbeat_ms = "
        + dialect.nowMillis() + " WHERE charge_id = ? AND state = 'CLAIMED'", runner, leaseMillis, chargeId) == 1;
  }

  @Override
  public boolean heartbeatJob(long chargeId, String runner) {
    return updateJob("UPDATE jobs SET heartbeat_ms = " + dialect.nowMillis()
        + " WHERE charge_id = ? AND state = 'RUNNING' AND runner = ?", chargeId, runner) == 1;
  }

  @Override
  public Job finishJob(long chargeId, String runner, String output, String digest) {
    updateJob("UPDATE jobs SET state = 'DONE', output = ?, output_digest = ?, finished_at = ?"
        + " WHERE charge_id = ? AND state = 'RUNNING' AND runner = ?",
        output, digest, Instant.now().toString(), chargeId, runner);
    return jobAfterUpdate(chargeId);
  }

  @Override
  public Job failJob(long chargeId, String runner, String reason) {
    updateJob("UPDATE jobs SET state = 'FAILED', failure = ?, finished_at = ?"
        + " WHERE charge_id = ? AND state = 'RUNNING' AND runner = ?",
        reason, Instant.now().toString(), chargeId, runner);
    return jobAfterUpdate(chargeId);
  }

  @Override
  public Job expireJob(long chargeId, String reason) {
    updateJob("UPDATE jobs SET state = 'FAILED', failure = ?, finished_at = ?"
        + " WHERE charge_id = ? AND state = 'RUNNING' AND heartbeat_ms + lease_ms < " + dialect.nowMillis(),
        reason, Instant.now().toString(), chargeId);
    return jobAfterUpdate(chargeId);
  }

  @Override
  public void addAnalyst(Analyst analyst, String keyId, byte[] salt, byte[] keyHash) {
    try {
      inWriteTransaction(ACCOUNTS_LOCK, () -> {
        // Releases, jobs, grants and charges are kept under the account's name: a name is never
        // reused, so no new account can inherit a revoked one's answers, tables or history.
        try (Statement q = connection.createStatement();
            ResultSet r = q.executeQuery("SELECT name, revoked_at FROM analysts")) {
          while (r.next()) {
            if (r.getString(1).equalsIgnoreCase(analyst.name())) {
              throw new IllegalArgumentException("name: an account named '" + r.getString(1) + "' "
                  + (r.getString(2) == null ? "exists" : "existed (revoked)") + "; account names are"
                  + " never reused (ignoring case), so choose another name");
            }
          }
        }
        try (PreparedStatement p = connection.prepareStatement(
            "INSERT INTO analysts(name, role, key_id, salt, key_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)")) {
          p.setString(1, analyst.name());
          p.setString(2, analyst.role().name());
          p.setString(3, keyId);
          p.setString(4, ApiKey.hex(salt));
          p.setString(5, ApiKey.hex(keyHash));
          p.setString(6, analyst.created().toString());
          p.executeUpdate();
        }
        return null;
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private static Analyst readAnalyst(ResultSet r) throws SQLException {
    String revoked = r.getString(4);
    return new Analyst(r.getString(1), Role.valueOf(r.getString(2)), LedgerJson.readTime(r.getString(3)),
        revoked == null ? Optional.empty() : Optional.of(LedgerJson.readTime(revoked)));
  }

  @Override
  public synchronized List<Analyst> analysts() {
    List<Analyst> out = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet r = s.executeQuery("SELECT name, role, created_at, revoked_at FROM analysts ORDER BY id")) {
      while (r.next()) {
        out.add(readAnalyst(r));
      }
    } catch (SQLException e) {
      throw storeFailure(e);
    }
    return out;
  }

  @Override
  public synchronized Optional<StoredKey> key(String keyId) {
    try (PreparedStatement p = connection.prepareStatement(
        "SELECT name, role, created_at, revoked_at, salt, key_hash FROM analysts WHERE key_id = ?")) {
      p.setString(1, keyId);
      try (ResultSet r = p.executeQuery()) {
        if (!r.next()) {
          return Optional.empty();
        }
        return Optional.of(new StoredKey(readAnalyst(r), ApiKey.unhex(r.getString(5)), ApiKey.unhex(r.getString(6))));
      }
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public boolean revokeAnalyst(String name, Instant time) {
    try {
      return inWriteTransaction(ACCOUNTS_LOCK, () -> {
        try (PreparedStatement p = connection.prepareStatement(
            "UPDATE analysts SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL")) {
          p.setString(1, time.toString());
          p.setString(2, name);
          return p.executeUpdate() > 0;
        }
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  /** The first column of the first row of a read-only statement (a PRAGMA, a setting). */
  synchronized String scalar(String sql) {
    try (Statement s = connection.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      return r.next() ? r.getString(1) : "no result";
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private static IllegalStateException storeFailure(SQLException e) {
    return new IllegalStateException("ledger store failure: " + e.getMessage(), e);
  }

  @Override
  public synchronized void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }
}
