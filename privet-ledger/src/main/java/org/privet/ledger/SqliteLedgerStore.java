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
 * the datasets, grants, charges and dataset_schemas tables append-only.
 *
 * <p>Migrations are additive: each table is created if absent when a ledger is opened, so a ledger
 * written by an older version gains the new tables (today {@code dataset_schemas}) and keeps every
 * row it had.
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
    // Added with fixed public schemas: a ledger created before them gets the table on open, and
    // its datasets have no schema until the curator fixes one (Ledger#fixSchema).
    "CREATE TABLE IF NOT EXISTS dataset_schemas(dataset TEXT PRIMARY KEY REFERENCES datasets(name),"
        + " schema TEXT NOT NULL, fixed_at TEXT NOT NULL)",
    appendOnly("dataset_schemas", "update"),
    appendOnly("dataset_schemas", "delete"),
    appendOnly("datasets", "update"),
    appendOnly("datasets", "delete"),
    appendOnly("grants", "update"),
    appendOnly("grants", "delete"),
    appendOnly("charges", "update"),
    appendOnly("charges", "delete"),
    "CREATE TABLE IF NOT EXISTS releases(charge_id INTEGER PRIMARY KEY REFERENCES charges(id),"
        + " dataset TEXT NOT NULL, analyst TEXT NOT NULL, idempotency_key TEXT, request TEXT NOT NULL,"
        + " answer TEXT, answered_at TEXT)",
    // SQLite treats NULLs as distinct: releases without a key never collide.
    "CREATE UNIQUE INDEX IF NOT EXISTS releases_by_key ON releases(analyst, idempotency_key)",
    appendOnly("releases", "delete"),
    "CREATE TRIGGER IF NOT EXISTS releases_answer_once BEFORE UPDATE ON releases"
        + " WHEN OLD.answer IS NOT NULL OR NEW.charge_id IS NOT OLD.charge_id"
        + " OR NEW.dataset IS NOT OLD.dataset OR NEW.analyst IS NOT OLD.analyst"
        + " OR NEW.idempotency_key IS NOT OLD.idempotency_key OR NEW.request IS NOT OLD.request"
        + " BEGIN SELECT RAISE(ABORT, 'a release answer is stored once'); END",
    "CREATE TABLE IF NOT EXISTS analysts(id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL,"
        + " role TEXT NOT NULL, key_id TEXT NOT NULL UNIQUE, salt TEXT NOT NULL, key_hash TEXT NOT NULL,"
        + " created_at TEXT NOT NULL, revoked_at TEXT)",
    "CREATE UNIQUE INDEX IF NOT EXISTS analysts_active ON analysts(name) WHERE revoked_at IS NULL",
    appendOnly("analysts", "delete"),
    "CREATE TRIGGER IF NOT EXISTS analysts_revoke_only BEFORE UPDATE ON analysts"
        + " WHEN OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL OR NEW.name IS NOT OLD.name"
        + " OR NEW.role IS NOT OLD.role OR NEW.key_id IS NOT OLD.key_id OR NEW.salt IS NOT OLD.salt"
        + " OR NEW.key_hash IS NOT OLD.key_hash OR NEW.created_at IS NOT OLD.created_at"
        + " BEGIN SELECT RAISE(ABORT, 'an account is only ever revoked'); END",
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
    register(spec, Optional.empty(), time);
  }

  @Override
  public void register(DatasetSpec spec, RegisteredSchema schema, Instant time) {
    register(spec, Optional.of(schema), time);
  }

  private void register(DatasetSpec spec, Optional<RegisteredSchema> schema, Instant time) {
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
        if (schema.isPresent()) {
          insertSchema(spec.name(), schema.get(), time);
        }
        return null;
      });
    } catch (SQLException e) {
      throw storeFailure(e);
    }
  }

  @Override
  public void fixSchema(String dataset, RegisteredSchema schema, Instant time) {
    try {
      inWriteTransaction(() -> {
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
    return appendCharge(dataset, analyst, query, cost, admission, null);
  }

  @Override
  public Charge appendCharge(String dataset, String analyst, String query, List<PrivacyLoss> cost,
      Admission admission, Release.Claim claim) {
    try {
      return inWriteTransaction(() -> {
        if (claim != null && claim.idempotencyKey().isPresent()
            && findRelease(analyst, claim.idempotencyKey().get()).isPresent()) {
          throw new Release.DuplicateKeyException();
        }
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
        long id;
        try (Statement s = connection.createStatement();
            ResultSet keys = s.executeQuery("SELECT last_insert_rowid()")) {
          keys.next();
          id = keys.getLong(1);
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
      return inWriteTransaction(() -> {
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

  @Override
  public void addAnalyst(Analyst analyst, String keyId, byte[] salt, byte[] keyHash) {
    try {
      inWriteTransaction(() -> {
        try (PreparedStatement q = connection.prepareStatement(
            "SELECT 1 FROM analysts WHERE name = ? AND revoked_at IS NULL")) {
          q.setString(1, analyst.name());
          try (ResultSet r = q.executeQuery()) {
            if (r.next()) {
              throw new IllegalArgumentException("name: an active account named '" + analyst.name()
                  + "' exists already (revoke it first)");
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
      return inWriteTransaction(() -> {
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
