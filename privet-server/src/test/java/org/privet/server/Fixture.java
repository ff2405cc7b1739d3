package org.privet.server;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.privet.accounting.PrivacyLoss;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.ColumnBounds;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PostgresLedger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.PublicMetadata;

/**
 * Test data on the bundled UCI Adult file (data/adult-raw, see its README for source and licence):
 * {@code adult} is a copy with a header and an {@code id} column (the privacy unit), registered
 * with public bounds and keys like privet-sql's AdultFixture, so the SQL corpus applies;
 * {@code adult_rows} is the raw file with one row per unit.
 */
final class Fixture {
  static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education", "education_num",
      "marital_status", "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss",
      "hours_per_week", "native_country", "income");

  private Fixture() {}

  static Path repoRoot() {
    return org.privet.testing.Repository.root();
  }

  static Path rawAdult() {
    return repoRoot().resolve("data/adult-raw/adult.data");
  }

  /** The Adult rows with an id column and a header, written once under target/. */
  static Path adultWithId() {
    return adultWithId(Integer.MAX_VALUE);
  }

  /** The first {@code rows} Adult rows with an id column and a header, written once under target/. */
  static synchronized Path adultWithId(int rows) {
    Path out = repoRoot().resolve("privet-server/target/server-test-data/adult-with-id"
        + (rows == Integer.MAX_VALUE ? "" : "-" + rows) + ".csv");
    if (Files.exists(out)) {
      return out;
    }
    try {
      Files.createDirectories(out.getParent());
      Path tmp = Files.createTempFile(out.getParent(), "adult", ".csv");
      try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        w.write("id," + String.join(",", COLUMNS));
        w.newLine();
        long id = 0;
        for (String line : Files.readAllLines(rawAdult(), StandardCharsets.UTF_8)) {
          if (line.isBlank() || id >= rows) {
            continue;
          }
          String[] f = line.split(", ", -1);
          StringBuilder sb = new StringBuilder().append(id++);
          for (String v : f) {
            sb.append(',').append(v.trim().equals("?") ? "" : v.trim());
          }
          w.write(sb.toString());
          w.newLine();
        }
      }
      Files.move(tmp, out, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Registers {@code name} as the Adult copy with an id column as the privacy unit. */
  static void registerAdult(Ledger ledger, String name, PrivacyLoss budget) {
    registerAdult(ledger, name, budget, Integer.MAX_VALUE);
  }

  /** Registers the first {@code rows} rows of the Adult copy (small tables keep load tests fast). */
  static void registerAdult(Ledger ledger, String name, PrivacyLoss budget, int rows) {
    registerWithSchema(ledger, DatasetSpec.builder().name(name).source(adultWithId(rows).toString())
        .csv(new CsvOptions(true, ",", List.of(), ""))
        .privacyUnit(PrivacyUnit.column("id"))
        .budget(budget)
        .publicMetadata(new PublicMetadata(Map.of("age", new ColumnBounds(17, 90)),
            Map.of("sex", List.of("Female", "Male"),
                "race", List.of("White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"))))
        .build());
  }

  /** Registers {@code name} as the raw Adult file, one row per unit. */
  static void registerAdultRows(Ledger ledger, String name, PrivacyLoss budget) {
    registerWithSchema(ledger, DatasetSpec.builder().name(name).source(rawAdult().toString())
        .csv(new CsvOptions(false, ", ", COLUMNS, "?"))
        .privacyUnit(PrivacyUnit.row())
        .budget(budget)
        .build());
  }

  /** The workspace's SQLite ledger, or the PostgreSQL one at {@code ledgerUrl} when not null. */
  /**
   * A workspace with {@code adult} (2,000 rows, ε = 2) and analyst {@code alice} granted ε = 2;
   * returns alice's API key.
   */
  static String adultWithAlice(Path ws) {
    try (Ledger ledger = Ledger.open(ws)) {
      registerAdult(ledger, "adult", new org.privet.accounting.PureDp(2), 2000);
      String key = ledger.addAnalyst("alice", org.privet.ledger.Role.ANALYST).apiKey();
      ledger.grant("adult", "alice", new org.privet.accounting.PureDp(2));
      return key;
    }
  }

  /** The charges recorded on {@code datasets} in the workspace's ledger, all together. */
  static int charges(Path ws, String... datasets) {
    try (Ledger ledger = Ledger.open(ws)) {
      int n = 0;
      for (String d : datasets) {
        n += ledger.history(d).size();
      }
      return n;
    }
  }

  static Ledger openLedger(Path workspace, String ledgerUrl) {
    return ledgerUrl == null ? Ledger.open(workspace)
        : Ledger.open(new PostgresLedger(ledgerUrl, java.util.Optional.empty(), java.util.Optional.empty()));
  }

  /** Registers {@code spec} with the schema inferred from its file now, as {@code dataset register} does. */
  static DatasetSpec registerWithSchema(Ledger ledger, DatasetSpec spec) {
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      return ledger.register(spec, LedgerCatalog.inferred(spec, backend));
    }
  }

  /**
   * The rows of {@code sql}, a plain (non-DP) query of a key and a count run by an in-memory
   * DuckDB on the files: the reference a test compares released counts with.
   */
  static Map<String, Long> plainCounts(String sql) throws java.sql.SQLException {
    Map<String, Long> counts = new java.util.TreeMap<>();
    try (DuckDbBackend db = DuckDbBackend.inMemory();
        java.sql.Statement st = db.trustedConnection().createStatement();
        java.sql.ResultSet r = st.executeQuery(sql)) {
      while (r.next()) {
        counts.put(r.getString(1), r.getLong(2));
      }
    }
    return counts;
  }
}
