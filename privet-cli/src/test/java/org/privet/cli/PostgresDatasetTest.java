package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.ledger.Ledger;
import org.privet.testing.TestPostgres;

/**
 * A dataset kept in PostgreSQL, end to end through the CLI on a real server (TestPostgres): {@code
 * dataset register --jdbc-url --table} reads the public schema from the catalog and stores no
 * password; {@code privet query} runs the bounding in PostgreSQL (the explained physical plan is
 * PostgreSQL's), charges once, and its near noise-free answer (ε = 10^6: the count's discrete noise
 * is 0 except with probability below 10^-400000, the sum's noise scale is 6·10^-5) equals DuckDB's on
 * the same rows registered as a CSV file; refusals charge nothing; a database failure after the
 * charge (a lock timeout, provoked on no row) is an internal error with a fixed text.
 */
class PostgresDatasetTest {
  private static final String PASSWORD = "not-stored-3f9a";
  private static final String QUERY_TAIL = " city, COUNT(*) AS n, SUM(minutes) AS total FROM %s"
      + " GROUP BY city";
  private static final String OPTIONS = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
      + " max_groups_contributed = 1, max_rows_per_group = 3, public_groups = ('Lima', 'Oslo', 'Rome'))";

  @TempDir Path dir;
  Path ws;
  String url;

  @BeforeEach
  void tables() throws Exception {
    ws = dir.resolve("ws");
    String full = TestPostgres.server().newDatabase();
    StringBuilder csv = new StringBuilder("user_id,city,minutes\n");
    List<String> values = new ArrayList<>();
    // Each unit in one city with 1 to 3 rows (no bounding choice is left to a salted hash), some
    // minutes above the public bound 60 (clamped), some NULL (ignored by SUM, counted by COUNT).
    for (int u = 0; u < 90; u++) {
      String city = u % 3 == 0 ? "Oslo" : u % 3 == 1 ? "Lima" : "Rome";
      for (int r = 0; r <= u % 3; r++) {
        String minutes = (u + r) % 11 == 0 ? null : String.valueOf((u * 7 + r * 13) % 80 + 0.5);
        values.add("(" + u + ", '" + city + "', " + (minutes == null ? "NULL" : minutes) + ")");
        csv.append(u).append(',').append(city).append(',').append(minutes == null ? "" : minutes)
            .append('\n');
      }
    }
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA sales");
      s.execute("CREATE TABLE sales.visits (user_id integer, city text, minutes numeric(6,1))");
      s.execute("INSERT INTO sales.visits VALUES " + String.join(", ", values));
    }
    Files.writeString(dir.resolve("visits.csv"), csv);
    url = full.substring(0, full.indexOf('?')); // the user is given with --db-user
    Files.writeString(dir.resolve("pw"), PASSWORD + "\n");
  }

  private CliRun register(String... extra) {
    List<String> a = new ArrayList<>(List.of("dataset", "register", "--workspace", ws.toString(),
        "--privacy-unit", "user_id", "--epsilon", "10000000", "--bounds", "minutes=0:60"));
    a.addAll(List.of(extra));
    return CliRun.of(a.toArray(String[]::new));
  }

  private CliRun registerTable() {
    return register("--name", "pgvisits", "--jdbc-url", url, "--table", "sales.visits", "--db-user",
        "postgres", "--db-password-file", dir.resolve("pw").toString());
  }

  private CliRun query(String... args) {
    List<String> a = new ArrayList<>(List.of("query", "--workspace", ws.toString(), "--analyst", "ann"));
    a.addAll(List.of(args));
    return CliRun.of(a.toArray(String[]::new));
  }

  private int charges(String dataset) {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.history(dataset).size();
    }
  }

  /** city → [n, total] of a JSON answer. */
  private static Map<String, double[]> rows(String json) throws Exception {
    Map<String, double[]> out = new TreeMap<>();
    for (JsonNode r : new ObjectMapper().readTree(json).get("rows")) {
      JsonNode city = r.get("city");
      out.put(city.isObject() ? city.get("value").asText() : city.asText(),
          new double[] {r.get("n").get("value").asDouble(), r.get("total").get("value").asDouble()});
    }
    return out;
  }

  @Test
  void tableDataset_queryRunsInPostgres_chargesOnce_andMatchesDuckDbOnTheSameRows() throws Exception {
    CliRun reg = registerTable();
    assertEquals(ExitCodes.OK, reg.code(), reg.toString());
    assertTrue(reg.out().contains("minutes:double"), reg.out()); // numeric(6,1) read as double
    assertEquals(ExitCodes.OK, register("--name", "csvvisits", "--source",
        dir.resolve("visits.csv").toString()).code());

    CliRun explain = query("--explain", OPTIONS + QUERY_TAIL.formatted("pgvisits"));
    assertEquals(ExitCodes.OK, explain.code(), explain.toString());
    assertTrue(explain.out().contains("hash_record_extended") && explain.out().contains("\"sales\".\"visits\""),
        explain.out()); // PostgreSQL's plan, on the table
    assertEquals(0, charges("pgvisits"));

    CliRun pg = query("--format", "json", OPTIONS + QUERY_TAIL.formatted("pgvisits"));
    assertEquals(ExitCodes.OK, pg.code(), pg.toString());
    assertEquals(1, charges("pgvisits"));
    CliRun duck = query("--format", "json", OPTIONS + QUERY_TAIL.formatted("csvvisits"));
    assertEquals(ExitCodes.OK, duck.code(), duck.toString());

    Map<String, double[]> p = rows(pg.out());
    Map<String, double[]> d = rows(duck.out());
    assertEquals(List.of("Lima", "Oslo", "Rome"), List.copyOf(p.keySet()));
    assertEquals(d.keySet(), p.keySet());
    for (String city : p.keySet()) {
      assertEquals(d.get(city)[0], p.get(city)[0], 0.0, city + " count"); // both exact
      assertEquals(d.get(city)[1], p.get(city)[1], 0.01, city + " sum");  // noise sd < 1e-4
      assertTrue(p.get(city)[1] > 500, city + " sum " + p.get(city)[1]); // not an empty answer
    }
    // The exact counts, from the rows: Oslo 30 units × 1 row, Lima × 2, Rome × 3.
    assertEquals(30.0, p.get("Oslo")[0]);
    assertEquals(60.0, p.get("Lima")[0]);
    assertEquals(90.0, p.get("Rome")[0]);
  }

  @Test
  void passwordIsNeverStored_andAPasswordInTheUrlIsRefused() throws Exception {
    CliRun bad = register("--name", "leaky", "--jdbc-url", url + "?password=" + PASSWORD, "--table",
        "sales.visits");
    assertEquals(ExitCodes.USAGE, bad.code(), bad.toString());
    assertFalse(bad.err().contains(PASSWORD), bad.err());
    assertEquals(ExitCodes.OK, registerTable().code());
    CliRun show = CliRun.of("dataset", "show", "--workspace", ws.toString(), "--name", "pgvisits",
        "--format", "json");
    assertEquals(ExitCodes.OK, show.code(), show.toString());
    CliRun plain = CliRun.of("dataset", "show", "--workspace", ws.toString(), "--name", "pgvisits");
    assertTrue(plain.out().contains("read from file " + dir.resolve("pw"))
        && plain.out().contains("never stored"), plain.toString());
    JsonNode db = new ObjectMapper().readTree(show.out()).get("database");
    assertEquals(url, db.get("jdbcUrl").asText());
    assertEquals("postgres", db.get("user").asText());
    assertEquals(dir.resolve("pw").toString(), db.get("passwordFile").asText());
    try (Stream<Path> files = Files.walk(ws)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        assertFalse(new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1)
            .contains(PASSWORD), f.toString());
      }
    }
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.datasets().size()); // the refused registration left nothing
    }
  }

  @Test
  void refusals_chargeNothing_includingATableWhoseStructureChanged() throws Exception {
    assertEquals(ExitCodes.OK, registerTable().code());
    CliRun unknownColumn = query(OPTIONS + " city, SUM(seconds) AS s FROM pgvisits GROUP BY city");
    assertEquals(ExitCodes.REFUSED, unknownColumn.code(), unknownColumn.toString());
    String full = url + "?user=postgres";
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement()) {
      s.execute("ALTER TABLE sales.visits ALTER COLUMN minutes TYPE text");
    }
    CliRun changed = query(OPTIONS + QUERY_TAIL.formatted("pgvisits"));
    assertEquals(ExitCodes.REFUSED, changed.code(), changed.toString());
    assertTrue(changed.err().contains("minutes") && changed.err().contains("structure changed"),
        changed.err());
    assertEquals(0, charges("pgvisits"));
  }

  @Test
  void aDatabaseFailureAfterTheCharge_isAnInternalErrorWithAFixedText_andTheChargeStands()
      throws Exception {
    assertEquals(ExitCodes.OK, registerTable().code());
    String database = url.substring(url.lastIndexOf('/') + 1);
    try (Connection c = DriverManager.getConnection(url + "?user=postgres");
        Statement s = c.createStatement()) {
      // New sessions give up waiting for a lock after 300 ms; the catalog reads before the charge
      // take no lock on the table, the aggregation does: it fails after the charge, on no row.
      s.execute("ALTER DATABASE " + database + " SET lock_timeout = '300ms'");
      c.setAutoCommit(false);
      s.execute("LOCK TABLE sales.visits IN ACCESS EXCLUSIVE MODE");
      CliRun r = query(OPTIONS + QUERY_TAIL.formatted("pgvisits"));
      c.rollback();
      assertEquals(ExitCodes.INTERNAL, r.code(), r.toString());
      assertTrue(r.err().contains("failed in the database after the charge; the charge stands"),
          r.err());
      assertFalse(r.err().contains("55P03") || r.err().toLowerCase(java.util.Locale.ROOT)
          .contains("lock"), r.err());
      assertEquals("", r.out());
    }
    assertEquals(1, charges("pgvisits"));
  }

  @Test
  void planRun_onATable_chargesThePlanOnceAndAnswersOnPostgres() throws Exception {
    assertEquals(ExitCodes.OK, registerTable().code());
    String count = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => %d),"
        + " max_groups_contributed = 1, max_rows_per_group = 3,"
        + " public_groups = ('Lima', 'Oslo', 'Rome')) city, COUNT(*) AS n FROM pgvisits GROUP BY city";
    Path workload = dir.resolve("w.sql");
    Files.writeString(workload, count.formatted(10) + ";\n" + count.formatted(20) + ";\n");
    CliRun r = CliRun.of("plan", "--workspace", ws.toString(), "--dataset", "pgvisits",
        "--workload", workload.toString(), "--budget-epsilon", "1", "--run", "--analyst", "ann");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.out().contains("query 2:") && r.out().contains("Rome"), r.out());
    assertEquals(1, charges("pgvisits"));
  }
}
