package org.privet.ledger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.privet.testing.TestPostgres;

/**
 * A fresh, empty ledger for one test, in either store: a workspace folder (SQLite) or a database
 * of its own on the test JVM's real PostgreSQL server ({@link TestPostgres}). Tests that take a
 * {@link Kind} parameter run unchanged against both.
 *
 * @param address the workspace folder, or the JDBC URL; what a child process is told
 */
record TestLedger(Kind kind, String address) {
  /** The two stores. */
  enum Kind { SQLITE, POSTGRES }

  static TestLedger fresh(Kind kind, Path dir) {
    return new TestLedger(kind, kind == Kind.SQLITE
        ? dir.toAbsolutePath().toString() : TestPostgres.server().newDatabase());
  }

  Ledger open() {
    return open(address);
  }

  /** Opens the ledger at an address as {@link #address()} writes it (used by child processes). */
  static Ledger open(String address) {
    return Ledger.using(store(address));
  }

  JdbcLedgerStore store() {
    return store(address);
  }

  private static JdbcLedgerStore store(String address) {
    return address.startsWith(PostgresLedger.URL_PREFIX)
        ? JdbcLedgerStore.postgres(new PostgresLedger(address, Optional.empty(), Optional.empty()))
        : JdbcLedgerStore.sqlite(Path.of(address).resolve(Ledger.DATABASE_FILE));
  }

  /**
   * Everything the store holds, as text: the workspace's files (ISO-8859-1) for SQLite, every row of
   * every table for PostgreSQL.
   */
  String storedText() throws IOException, SQLException {
    StringBuilder out = new StringBuilder();
    if (kind == Kind.SQLITE) {
      try (var files = Files.list(Path.of(address))) {
        for (Path f : files.toList()) {
          out.append(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).append('\n');
        }
      }
      return out.toString();
    }
    try (Connection c = raw(); Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet r = s.executeQuery(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")) {
        while (r.next()) {
          tables.add(r.getString(1));
        }
      }
      for (String t : tables) {
        try (ResultSet r = s.executeQuery("SELECT t::text FROM " + t + " t")) {
          while (r.next()) {
            out.append(r.getString(1)).append('\n');
          }
        }
      }
    }
    return out.toString();
  }

  /** A plain JDBC connection to the store, bypassing the ledger (to attack its tables). */
  Connection raw() throws SQLException {
    return DriverManager.getConnection(kind == Kind.SQLITE
        ? "jdbc:sqlite:" + Path.of(address).resolve(Ledger.DATABASE_FILE) : address);
  }
}
