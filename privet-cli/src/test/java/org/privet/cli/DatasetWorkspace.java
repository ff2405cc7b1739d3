package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;

/**
 * Base of the {@code privet dataset} command tests: a fresh temporary folder {@link #dir} per test
 * for the data files the test writes, a workspace {@link #ws} inside it, and the runs of
 * {@code privet dataset <command> --workspace ws ...} and {@code privet query --workspace ws ...} in
 * process, with the released values of a JSON answer.
 */
abstract class DatasetWorkspace {
  /** Four orders of customers 1, 1, 3 and 2 (orders.csv of the customer ⋈ orders ⋈ nation tests). */
  static final String ORDERS_CSV =
      "o_orderkey,o_custkey,o_totalprice\n10,1,99.5\n11,1,12.0\n12,3,40.25\n13,2,5.0\n";
  /** Three nations; CHINA (9) has no customer: released anyway, as a public group. */
  static final String NATION_CSV = "n_nationkey,n_name\n7,FRANCE\n8,PERU\n9,CHINA\n";
  /**
   * The join, grouped by public nation keys. At ε = 10^6 and at most 3 rows per unit the counts'
   * discrete noise has scale 3·10^-6: it is 0 except with probability below 10^-100000.
   */
  static final String JOIN = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000, delta = 1e-6,"
      + " max_groups_contributed = 1, max_rows_per_group = 3) n_name, COUNT(*) AS n"
      + " FROM orders JOIN customer ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey"
      + " GROUP BY n_name";

  @TempDir Path dir;
  Path ws;

  @BeforeEach
  void workspace() {
    ws = dir.resolve("ws");
  }

  /** Runs {@code privet dataset args[0] --workspace ws args[1..]}. */
  CliRun run(String... args) {
    List<String> a = new ArrayList<>(List.of("dataset", args[0], "--workspace", ws.toString()));
    a.addAll(List.of(args).subList(1, args.length));
    return CliRun.of(a.toArray(String[]::new));
  }

  /**
   * Runs {@code privet dataset add-table --dataset shop args...}, asserted refused (exit USAGE) with
   * an error containing {@code message} and repeating {@code secret} (a data value) nowhere.
   */
  CliRun assertAddTableRefused(String secret, String message, String... args) {
    List<String> a = new ArrayList<>(List.of("add-table", "--dataset", "shop"));
    a.addAll(List.of(args));
    CliRun r = run(a.toArray(String[]::new));
    assertEquals(ExitCodes.USAGE, r.code(), r.toString());
    assertTrue(r.err().contains(message), r.err());
    assertFalse(r.err().contains(secret) || r.out().contains(secret), r.toString());
    return r;
  }

  /** Runs {@code privet query --workspace ws args...}. */
  CliRun query(String... args) {
    List<String> a = new ArrayList<>(List.of("query", "--workspace", ws.toString()));
    a.addAll(List.of(args));
    return CliRun.of(a.toArray(String[]::new));
  }

  /** Runs {@code privet query --analyst ann --format json sql}, asserted to have exited OK. */
  CliRun jsonQuery(String sql) {
    return ok(query("--analyst", "ann", "--format", "json", sql));
  }

  /**
   * A grouped JSON answer's released values, rounded, by group: per row, the key of column
   * {@code key} (a public group's key is an object with its "value") and the estimate of column
   * {@code value}.
   */
  static Map<String, Long> released(CliRun q, String key, String value) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    for (JsonNode row : new ObjectMapper().readTree(q.out()).get("rows")) {
      JsonNode k = row.get(key);
      out.put(k.isObject() ? k.get("value").asText() : k.asText(), Math.round(row.get(value).get("value").asDouble()));
    }
    return out;
  }

  /**
   * Reference counts by group, computed by DuckDB (in memory) on the files, never by Privet:
   * {@code zeros} (groups the plain query has no row for) overlaid with the (name, count) rows of
   * the plain SQL query {@code sql}.
   */
  static Map<String, Long> duckDbCounts(Map<String, Long> zeros, String sql) throws Exception {
    Map<String, Long> expected = new TreeMap<>(zeros);
    try (DuckDbBackend db = DuckDbBackend.inMemory();
        java.sql.Statement st = db.trustedConnection().createStatement();
        java.sql.ResultSet r = st.executeQuery(sql)) {
      while (r.next()) {
        expected.put(r.getString(1), r.getLong(2));
      }
    }
    return expected;
  }

  /** Writes {@code text} to the file {@code name} in {@link #dir}. */
  void write(String name, String text) throws IOException {
    Files.writeString(dir.resolve(name), text);
  }

  /** The path of the file {@code name} in {@link #dir}. */
  String file(String name) {
    return dir.resolve(name).toString();
  }

  /** {@code r}, asserted to have exited OK. */
  static CliRun ok(CliRun r) {
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return r;
  }

  /** The tables the ledger stores for {@code dataset}. */
  List<DatasetTable> tables(String dataset) {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.tables(dataset);
    }
  }
}
