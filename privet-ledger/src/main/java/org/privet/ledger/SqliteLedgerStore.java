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
import org.privet.accounting.PrivacyLoss;
import org.sqlite.SQLiteConfig;

/**
 * The embedded store: one SQLite file in WAL mode with {@code synchronous=FULL} (every commit is
 * fsynced before it returns). A charge runs in a {@code BEGIN IMMEDIATE} transaction, which takes
 * the database's single write lock before reading the prior charges, so charges from any number of
 * processes are serialized; waiting writers retry for up to {@link #BUSY_TIMEOUT_MS}. Triggers make
 * the datasets, grants and charges tables append-only.
 */
final class SqliteLedgerStore implements LedgerStore {
  static final int BUSY_TIMEOUT_MS = 120_000;

  private static final String[] SCHEMA = {
    "CREATE TABLE IF NOT EXISTS datasets(name TEXT PRIMARY KEY, spec TEXT NOT NULL,"
        + " registered_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS grants(id INTEGER PRIMARY KEY AUTOINCREMENT,"
        + " dataset TEXT NOT NULL REFERENCES datasets(name), analyst TEXT NOT NULL,"
        + " share TEXT NOT NULL, granted_at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS charges(id INTEGER PRIMARY KEY AUTOINCREMENT,"
        + " dataset TEXT NOT NULL REFERENCES datasets(name), analyst TEXT NOT NULL,"
        + " charged_at TEXT NOT NULL, query TEXT NOT NULL, cost TEXT NOT NULL,"
        + " spent TEXT NOT NULL, analyst_spent TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS charges_by_dataset ON charges(dataset, id)",
    appendOnly("datasets", "update"),
    appendOnly("datasets", "delete"),
    appendOnly("grants", "update"),
    appendOnly("grants", "delete"),
    appendOnly("charges", "update"),
    appendOnly("charges", "delete"),
  };

  private final Connection connection;

  SqliteLedgerStore(Path file) {
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
      connection = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
      inWriteTransaction(() -> {
        try (Statement s = connection.createStatement()) {
          for (String ddl : SCHEMA) {
            s.executeUpdate(ddl);
          }
        }
        return null;
      });
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open the ledger at " + file + ": " + e.getMessage(), e);
    }
  }

  private static String appendOnly(String table, String operation) {
    return "CREATE TRIGGER IF NOT EXISTS " + table + "_no_" + operation + " BEFORE "
        + operation.toUpperCase(java.util.Locale.ROOT) + " ON " + table
        + " BEGIN SELECT RAISE(ABORT, 'the ledger is append-only'); END";
  }

  @FunctionalInterface
  private interface Work<T> {
    T run() throws SQLException;
  }

  /**
   * Runs {@code work} in a {@code BEGIN IMMEDIATE} transaction (the connection stays in
   * auto-commit mode; the transaction is explicit so the write lock is held only inside it).
   */
  private synchronized <T> T inWriteTransaction(Work<T> work) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
    }
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
      inWriteTransaction(() -> {
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
      inWriteTransaction(() -> {
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
      return inWriteTransaction(() -> {
        DatasetSpec spec = findDataset(dataset).orElseThrow(() -> new UnknownDatasetException(dataset));
        Spend spend = admission.admit(spec, readGrants(dataset), readCharges(dataset));
        Instant now = Instant.now();
        try (PreparedStatement p = connection.prepareStatement(
            "INSERT INTO charges(dataset, analyst, charged_at, query, cost, spent, analyst_spent)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
          p.setString(1, dataset);
          p.setString(2, analyst);
          p.setString(3, now.toString());
          p.setString(4, query);
          p.setString(5, LedgerJson.write(LedgerJson.privacyLosses(cost)));
          p.setString(6, LedgerJson.write(LedgerJson.privacyLoss(spend.spent())));
          p.setString(7, LedgerJson.write(LedgerJson.privacyLoss(spend.analystSpent())));
          p.executeUpdate();
        }
        try (Statement s = connection.createStatement();
            ResultSet keys = s.executeQuery("SELECT last_insert_rowid()")) {
            keys.next();
            return new Charge(keys.getLong(1), dataset, analyst, now, query, cost,
                spend.spent(), spend.analystSpent());
        }
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  /** The first value of {@code PRAGMA name} ({@code integrity_check} gives "ok" when sound). */
  synchronized String pragma(String name) {
    try (Statement s = connection.createStatement();
        ResultSet r = s.executeQuery("PRAGMA " + name)) {
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
