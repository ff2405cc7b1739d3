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
 * lost charge. Guards (triggers) make the datasets, grants and charges tables append-only.
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
  };

  private static final String APPEND_ONLY = "the ledger is append-only";

  private static final List<LedgerDialect.Guard> GUARDS = List.of(
      LedgerDialect.Guard.always("datasets", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("datasets", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("grants", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("grants", "DELETE", APPEND_ONLY),
      LedgerDialect.Guard.always("charges", "UPDATE", APPEND_ONLY),
      LedgerDialect.Guard.always("charges", "DELETE", APPEND_ONLY));

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
    try {
      inWriteTransaction(spec.name(), () -> {
        if (findDataset(spec.name()).isPresent()) {
          throw new IllegalArgumentException("a dataset named '" + spec.name() + "' is already registered");
        }
        try (PreparedStatement p = connection.prepareStatement(
            "INSERT INTO datasets(name, spec, registered_at) VALUES (?, ?, ?)")) {
          p.setString(1, spec.name());
          p.setString(2, LedgerJson.write(LedgerJson.dataset(spec)));
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
  public synchronized Optional<DatasetSpec> dataset(String name) {
    try {
      return findDataset(name);
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  private Optional<DatasetSpec> findDataset(String name) throws SQLException {
    try (PreparedStatement p = connection.prepareStatement("SELECT spec FROM datasets WHERE name = ?")) {
      p.setString(1, name);
      try (ResultSet r = p.executeQuery()) {
        return r.next() ? Optional.of(LedgerJson.readDataset(LedgerJson.read(r.getString(1)))) : Optional.empty();
      }
    }
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
          p.setString(3, LedgerJson.write(LedgerJson.privacyLoss(grant.share())));
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
              LedgerJson.readPrivacyLoss(LedgerJson.read(r.getString(2))),
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
    try {
      return inWriteTransaction(dataset, () -> {
        DatasetSpec spec = findDataset(dataset).orElseThrow(() -> new UnknownDatasetException(dataset));
        Spend spend = admission.admit(spec, readGrants(dataset), readCharges(dataset));
        Instant now = Instant.now();
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
            return new Charge(keys.getLong(1), dataset, analyst, now, query, cost,
                spend.spent(), spend.analystSpent());
          }
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
