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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.curator.DatasetBackends;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Ledger;
import org.privet.sql.DatasetDescriptor;
import org.privet.testing.TestPostgres;

/**
 * A multi-table dataset kept in PostgreSQL (issue 25, item 1) on a real server (TestPostgres):
 * {@code dataset register --jdbc-url --table --table-name}, then {@code dataset add-table --table}
 * in the dataset's database (schemas read from the catalog, no password stored); a table of
 * another database, or a file, is refused and stores nothing; the catalog describes every table
 * as a table of that database, and reads a public table's distinct values (public groups) there.
 */
class PostgresTablesTest {
  private static final String PASSWORD = "not-stored-51c2";

  @TempDir Path dir;

  @Test
  void tablesOfOneDatabase_registeredAndDescribed_othersRefused() throws Exception {
    String full = TestPostgres.server().newDatabase(
        "CREATE SCHEMA tpch",
        "CREATE TABLE tpch.customer (c_custkey bigint, c_name text, c_nationkey integer)",
        "CREATE TABLE tpch.orders (o_orderkey bigint, o_custkey bigint, o_totalprice numeric(12,2))",
        "CREATE TABLE tpch.nation (n_nationkey integer, n_name text)",
        "INSERT INTO tpch.customer VALUES (1, 'Customer#1', 7), (2, 'Customer#2', 8), (3, 'Customer#3', 7)",
        "INSERT INTO tpch.orders VALUES (10, 1, 99.50), (11, 1, 12.00), (12, 3, 40.25)",
        "INSERT INTO tpch.nation VALUES (7, 'FRANCE'), (8, 'PERU'), (9, 'CHINA')");
    String url = full.substring(0, full.indexOf('?'));
    Files.writeString(dir.resolve("pw"), PASSWORD + "\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n");
    Path ws = dir.resolve("ws");

    ok("register", "--workspace", ws.toString(), "--name", "shop", "--table-name", "customer", "--jdbc-url", url,
        "--table", "tpch.customer", "--db-user", "postgres", "--db-password-file", dir.resolve("pw").toString(),
        "--privacy-unit", "c_custkey", "--epsilon", "10000000");
    CliRun orders = ok("add-table", "--workspace", ws.toString(), "--dataset", "shop", "--name", "orders",
        "--table", "tpch.orders", "--references", "o_custkey=customer.c_custkey");
    assertTrue(orders.out().contains("o_totalprice:double") && orders.out().contains("read from the table's catalog"),
        orders.out());
    ok("add-table", "--workspace", ws.toString(), "--dataset", "shop", "--name", "nation", "--table", "tpch.nation",
        "--public");

    List<String> refused = new ArrayList<>();
    CliRun otherDb = CliRun.of("dataset", "add-table", "--workspace", ws.toString(), "--dataset", "shop",
        "--name", "x", "--jdbc-url", TestPostgres.server().newDatabase().replaceAll("\\?.*", ""),
        "--table", "tpch.nation", "--db-user", "postgres", "--public");
    refused.add(otherDb.err());
    assertEquals(ExitCodes.USAGE, otherDb.code(), otherDb.toString());
    assertTrue(otherDb.err().contains("jdbc-url: the tables of dataset 'shop' are in its database"), otherDb.err());
    CliRun file = CliRun.of("dataset", "add-table", "--workspace", ws.toString(), "--dataset", "shop",
        "--name", "x", "--source", dir.resolve("nation.csv").toString(), "--public");
    assertEquals(ExitCodes.USAGE, file.code(), file.toString());
    assertTrue(file.err().contains("jdbc-url: the tables of dataset 'shop' are in its database"), file.err());

    JsonNode json = new ObjectMapper().readTree(
        ok("show", "--workspace", ws.toString(), "--name", "shop", "--format", "json").out());
    JsonNode tables = json.get("tables");
    assertEquals(3, tables.size(), json.toPrettyString());
    assertEquals("tpch.orders", tables.get(1).get("source").asText());
    assertEquals("postgres", tables.get(1).get("format").asText());
    assertEquals(url, tables.get(1).get("database").get("jdbcUrl").asText());
    assertTrue(tables.get(2).get("public").asBoolean());
    for (Path f : Files.list(ws).toList()) {
      assertFalse(new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1).contains(PASSWORD),
          "the password is never stored: " + f);
    }

    // A join query runs in PostgreSQL; at ε = 10^6 and bounds of 3 rows the counts' discrete noise
    // (scale 3·10^-6) is 0 except with probability below 10^-100000, so it equals the plain join.
    java.util.Map<String, Long> expected = new java.util.TreeMap<>(java.util.Map.of("CHINA", 0L, "PERU", 0L));
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery("SELECT n_name, COUNT(*) FROM tpch.orders JOIN tpch.customer"
            + " ON o_custkey = c_custkey JOIN tpch.nation ON c_nationkey = n_nationkey GROUP BY n_name")) {
      while (r.next()) {
        expected.put(r.getString(1), r.getLong(2));
      }
    }
    CliRun q = CliRun.of("query", "--workspace", ws.toString(), "--analyst", "ann", "--format", "json",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000, max_groups_contributed = 1,"
            + " max_rows_per_group = 3) n_name, COUNT(*) AS n FROM orders JOIN customer ON o_custkey = c_custkey"
            + " JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name");
    assertEquals(ExitCodes.OK, q.code(), q.toString());
    java.util.Map<String, Long> released = new java.util.TreeMap<>();
    for (JsonNode row : new ObjectMapper().readTree(q.out()).get("rows")) {
      JsonNode nation = row.get("n_name");
      released.put(nation.isObject() ? nation.get("value").asText() : nation.asText(),
          Math.round(row.get("n").get("value").asDouble()));
    }
    assertEquals(expected, released, q.out());
    CliRun explain = CliRun.of("query", "--workspace", ws.toString(), "--explain",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_groups_contributed = 1,"
            + " max_rows_per_group = 3) n_name, COUNT(*) AS n FROM orders JOIN customer ON o_custkey = c_custkey"
            + " JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name");
    assertEquals(ExitCodes.OK, explain.code(), explain.toString());
    assertTrue(explain.out().contains("\"tpch\".\"orders\""), explain.out()); // PostgreSQL's plan, on its tables

    try (Ledger ledger = Ledger.open(ws); DuckDbBackend files = DuckDbBackend.inMemory();
        DatasetBackends backends = new DatasetBackends(files)) {
      DatasetDescriptor d = new LedgerCatalog(ledger, backends).find("shop").orElseThrow();
      assertEquals(3, d.tables().size());
      DatasetDescriptor.TableDescriptor t = d.table("orders").orElseThrow();
      assertTrue(t.source() instanceof Source.Typed typed && typed.file() instanceof Source.Table table
          && table.name().equals("tpch.orders"), t.source().toString());
      assertEquals(3, ledger.tables("shop").size(), "refused tables stored nothing");
      assertEquals(1, ledger.history("shop").size(), "one charge: the query; explain and refusals charge nothing");
      LedgerCatalog catalog = new LedgerCatalog(ledger, backends);
      assertEquals(java.util.Optional.of(List.of("CHINA", "FRANCE", "PERU")),
          catalog.publicValues("shop", "nation", "n_name"));
      assertEquals(java.util.Optional.of(List.of(7L, 8L, 9L)), catalog.publicValues("shop", "NATION", "n_nationkey"));
      assertEquals(java.util.Optional.empty(), catalog.publicValues("shop", "orders", "o_custkey"),
          "a private table's values are never read");
    }
  }

  /**
   * In PostgreSQL too: reference keys of a floating type (double precision, and numeric, which the
   * registered schema reads as double) are refused naming {@code references}; the unit table's
   * reference to a public table is declared by {@code --referenced-by}, its key checked in the
   * database (a duplicate refused, no value shown); customer ⋈ nation then releases every nation
   * as a public group, the empty one too, equal to the plain join (noise 0 at ε = 10^6 and a
   * bound of 1 row: scale 10^-6, non-zero with probability below 10^-100000).
   */
  @Test
  void floatingKeysRefused_unitTableReferencesAPublicTable_joinGivesPublicGroups() throws Exception {
    String full = TestPostgres.server().newDatabase(
        "CREATE TABLE customer (c_custkey bigint, c_name text, c_nationkey integer)",
        "CREATE TABLE orders_d (o_orderkey bigint, o_custkey double precision)",
        "CREATE TABLE orders_n (o_orderkey bigint, o_custkey numeric(10,0))",
        "CREATE TABLE nation (n_nationkey integer, n_name text)",
        "CREATE TABLE nation_twice (n_nationkey integer, n_name text)",
        "INSERT INTO customer VALUES (1, 'Customer#Secret3', 7), (2, 'Customer#2', 8), (3, 'Customer#3', 7)",
        "INSERT INTO nation VALUES (7, 'FRANCE'), (8, 'PERU'), (9, 'CHINA')",
        "INSERT INTO nation_twice VALUES (7, 'FRANCE'), (7, 'PERU')");
    String url = full.substring(0, full.indexOf('?'));
    Files.writeString(dir.resolve("pw"), PASSWORD + "\n");
    Path ws = dir.resolve("ws");
    ok("register", "--workspace", ws.toString(), "--name", "shop", "--table-name", "customer", "--jdbc-url", url,
        "--table", "public.customer", "--db-user", "postgres", "--db-password-file", dir.resolve("pw").toString(),
        "--privacy-unit", "c_custkey", "--epsilon", "10000000");
    for (String[] bad : new String[][] {
        {"public.orders_d", "references: orders.o_custkey (double) -> customer.c_custkey (integer): a reference"
            + " and its target must not be of a floating type", "o_custkey=customer.c_custkey"},
        {"public.orders_n", "references: orders.o_custkey (double) -> customer.c_custkey (integer)",
            "o_custkey=customer.c_custkey"}}) {
      CliRun r = CliRun.of("dataset", "add-table", "--workspace", ws.toString(), "--dataset", "shop",
          "--name", "orders", "--table", bad[0], "--references", bad[2]);
      assertEquals(ExitCodes.USAGE, r.code(), r.toString());
      assertTrue(r.err().contains(bad[1]), r.err());
    }
    CliRun twice = CliRun.of("dataset", "add-table", "--workspace", ws.toString(), "--dataset", "shop",
        "--name", "nation", "--table", "public.nation_twice", "--public",
        "--referenced-by", "n_nationkey=customer.c_nationkey");
    assertEquals(ExitCodes.USAGE, twice.code(), twice.toString());
    assertTrue(twice.err().contains("referenced-by: nation.n_nationkey is not a key of nation"), twice.err());
    assertFalse(twice.err().contains("FRANCE") || twice.err().contains("Secret"), twice.err());
    ok("add-table", "--workspace", ws.toString(), "--dataset", "shop", "--name", "nation", "--table",
        "public.nation", "--public", "--referenced-by", "n_nationkey=customer.c_nationkey");
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(2, ledger.tables("shop").size(), "refused tables stored nothing");
    }

    CliRun q = CliRun.of("query", "--workspace", ws.toString(), "--analyst", "ann", "--format", "json",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000, max_groups_contributed = 1,"
            + " max_rows_per_group = 1) n_name, COUNT(*) AS n FROM customer JOIN nation"
            + " ON c_nationkey = n_nationkey GROUP BY n_name");
    assertEquals(ExitCodes.OK, q.code(), q.toString());
    java.util.Map<String, Long> expected = new java.util.TreeMap<>();
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery("SELECT n_name, COUNT(c_custkey) FROM nation LEFT JOIN customer"
            + " ON c_nationkey = n_nationkey GROUP BY n_name")) {
      while (r.next()) {
        expected.put(r.getString(1), r.getLong(2));
      }
    }
    assertEquals(0L, expected.get("CHINA"), "a nation without customers: a public group only");
    assertEquals(expected, DatasetWorkspace.released(q, "n_name", "n"), q.out());
  }

  private static CliRun ok(String command, String... args) {
    List<String> a = new ArrayList<>(List.of("dataset", command));
    a.addAll(List.of(args));
    CliRun r = CliRun.of(a.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return r;
  }
}
