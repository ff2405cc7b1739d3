package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.ledger.DatabaseSource;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;
import org.privet.testing.TestPostgres;

/**
 * The server on a dataset kept in PostgreSQL (a real embedded server): {@code POST /v1/datasets}
 * registers the table with its schema from the catalog, {@code GET /v1/datasets} lists its columns,
 * {@code POST /v1/query} releases through the shared release path with one charge, and a refused
 * query charges nothing.
 */
class PostgresDatasetApiTest {
  @TempDir static Path dir;
  static PrivetServer server;
  static Api api;
  static String boss;
  static String ann;
  static String url;

  @BeforeAll
  static void start() throws Exception {
    String full = TestPostgres.server().newDatabase();
    List<String> rows = new ArrayList<>();
    for (int u = 0; u < 60; u++) {
      rows.add("(" + u + ", '" + (u % 2 == 0 ? "Oslo" : "Lima") + "')");
    }
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE visits (user_id bigint, city varchar(20))");
      s.execute("INSERT INTO visits VALUES " + String.join(", ", rows));
    }
    url = full.substring(0, full.indexOf('?'));
    Path ws = dir.resolve("ws");
    try (Ledger ledger = Ledger.open(ws)) {
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      ann = ledger.addAnalyst("ann", Role.ANALYST).apiKey();
    }
    server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(2).build());
    api = new Api(server.url());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** The charges on the table's dataset, as the curator reads them over HTTP. */
  private static int charges() {
    return api.get("/v1/history?dataset=pgvisits", boss).json().size();
  }

  @Test
  void registerListQueryAndRefuse_onAPostgresTable() {
    DatasetSpec spec = DatasetSpec.builder().name("pgvisits").source("visits")
        .database(new DatabaseSource(url, Optional.of("postgres"), Optional.empty(), Optional.empty()))
        .privacyUnit(PrivacyUnit.column("user_id")).budget(new PureDp(5)).build();
    Api.Response reg = api.post("/v1/datasets", boss, LedgerJson.dataset(spec).toString());
    assertEquals(201, reg.status(), reg.text());
    assertEquals("postgres", reg.json().path("format").asText());
    assertEquals(201, api.post("/v1/grants", boss,
        "{\"dataset\":\"pgvisits\",\"analyst\":\"ann\",\"epsilon\":2}").status());

    JsonNode list = api.get("/v1/datasets", ann).json();
    assertEquals(1, list.size(), list.toString());
    assertEquals("[\"user_id\",\"city\"]", list.get(0).get("columns").findValuesAsText("name")
        .stream().map(n -> "\"" + n + "\"").toList().toString().replace(" ", ""));

    Api.Response q = api.query(ann, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " public_groups = ('Lima', 'Oslo')) city, COUNT(*) AS n FROM pgvisits GROUP BY city", null);
    assertEquals(200, q.status(), q.text());
    assertEquals(2, q.json().get("rows").size(), q.text());
    assertEquals(1, charges());

    Api.Response refused = api.query(ann, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)"
        + " city, SUM(nope) AS s FROM pgvisits GROUP BY city", null);
    assertEquals(422, refused.status(), refused.text());
    assertFalse(refused.text().contains("\"charge\""), refused.text());
    assertTrue(refused.text().contains("nope"), refused.text());
    assertEquals(1, charges());
  }

  /**
   * {@code POST /v1/datasets} registers a multi-table dataset in PostgreSQL whole (issue 25): the
   * tables are of the dataset's database (format postgres by default), a floating reference key
   * ({@code numeric}, registered as double) is refused naming {@code references} and stores
   * nothing, and the corrected registration answers an analyst's join with every nation as a
   * public group, equal to the plain join in PostgreSQL (noise 0 at ε = 10^6 and a bound of 2
   * rows: scale 2·10^-6, non-zero with probability below 10^-100000).
   */
  @Test
  void registerWithTables_joinsInTheDatabase_floatKeysRefused() throws Exception {
    String full = TestPostgres.server().newDatabase(
        "CREATE TABLE customer (c_custkey bigint, c_nationkey integer)",
        "CREATE TABLE orders (o_orderkey bigint, o_custkey bigint, o_price numeric(8,2))",
        "CREATE TABLE nation (n_nationkey integer, n_name text)",
        "INSERT INTO customer VALUES (1, 7), (2, 8), (3, 7)",
        "INSERT INTO orders VALUES (10, 1, 1.5), (11, 1, 2.5), (12, 3, 3.5)",
        "INSERT INTO nation VALUES (7, 'FRANCE'), (8, 'PERU'), (9, 'CHINA')");
    String db = full.substring(0, full.indexOf('?'));
    DatasetSpec spec = DatasetSpec.builder().name("pgshop").source("public.customer")
        .database(new DatabaseSource(db, Optional.of("postgres"), Optional.empty(), Optional.empty()))
        .privacyUnit(PrivacyUnit.column("c_custkey")).budget(new PureDp(10_000_000)).build();
    java.util.function.Function<String, String> body = ref -> {
      com.fasterxml.jackson.databind.node.ObjectNode b = LedgerJson.dataset(spec);
      b.put("tableName", "customer");
      com.fasterxml.jackson.databind.node.ArrayNode tables = b.putArray("tables");
      tables.addObject().put("name", "orders").put("source", "public.orders").putArray("references").add(ref);
      tables.addObject().put("name", "nation").put("source", "public.nation").put("public", true)
          .putArray("referencedBy").add("n_nationkey=customer.c_nationkey");
      return b.toString();
    };
    Api.Response refused = api.post("/v1/datasets", boss, body.apply("o_price=customer.c_custkey"));
    assertEquals(400, refused.status(), refused.text());
    assertTrue(refused.text().contains("references: orders.o_price (double) -> customer.c_custkey (integer)"),
        refused.text());
    assertEquals(404, api.get("/v1/history?dataset=pgshop", boss).status(), "nothing was registered");
    Api.Response reg = api.post("/v1/datasets", boss, body.apply("o_custkey=customer.c_custkey"));
    assertEquals(201, reg.status(), reg.text());
    assertEquals("postgres", reg.json().get("tables").get(1).get("format").asText());

    String bea = api.post("/v1/analysts", boss, "{\"name\":\"bea\"}").json().get("apiKey").asText();
    assertEquals(201, api.post("/v1/grants", boss,
        "{\"dataset\":\"pgshop\",\"analyst\":\"bea\",\"epsilon\":1000000}").status());
    Api.Response q = api.query(bea, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
        + " max_groups_contributed = 1, max_rows_per_group = 2) n_name, COUNT(*) AS n FROM orders"
        + " JOIN customer ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name", null);
    assertEquals(200, q.status(), q.text());
    java.util.Map<String, Long> expected = new java.util.TreeMap<>();
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery("SELECT n_name, COUNT(o_orderkey) FROM nation LEFT JOIN customer"
            + " ON c_nationkey = n_nationkey LEFT JOIN orders ON o_custkey = c_custkey GROUP BY n_name")) {
      while (r.next()) {
        expected.put(r.getString(1), r.getLong(2));
      }
    }
    java.util.Map<String, Long> released = q.roundedByGroup("n_name", "n");
    assertEquals(0L, expected.get("CHINA"));
    assertEquals(expected, released, q.text());
  }

  /**
   * A table whose password file has gone: the analyst's query is refused, nothing is charged, and
   * the message names neither the curator's password file nor an SQL state.
   */
  @Test
  void unreachableDatabase_refusedWithoutTheCuratorsConfiguration() throws Exception {
    Path secret = dir.resolve("db-secret-file-7f3a");
    java.nio.file.Files.writeString(secret, "unused-by-trust-auth\n");
    DatasetSpec spec = DatasetSpec.builder().name("pglocked").source("visits")
        .database(new DatabaseSource(url, Optional.of("postgres"), Optional.empty(),
            Optional.of(secret.toAbsolutePath().toString())))
        .privacyUnit(PrivacyUnit.column("user_id")).budget(new PureDp(5)).build();
    assertEquals(201, api.post("/v1/datasets", boss, LedgerJson.dataset(spec).toString()).status());
    assertEquals(201, api.post("/v1/grants", boss,
        "{\"dataset\":\"pglocked\",\"analyst\":\"ann\",\"epsilon\":2}").status());
    java.nio.file.Files.delete(secret);
    Api.Response r = api.query(ann, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " public_groups = ('Lima', 'Oslo')) city, COUNT(*) AS n FROM pglocked GROUP BY city", null);
    assertEquals(422, r.status(), r.text());
    assertFalse(r.text().contains("db-secret-file-7f3a"), r.text());
    assertFalse(r.text().toLowerCase(java.util.Locale.ROOT).contains("sql state"), r.text());
    assertTrue(r.text().contains("nothing was charged"), r.text());
    assertEquals(0, api.get("/v1/history?dataset=pglocked", boss).json().size());
  }

  /**
   * A table dataset whose database is down (nothing listens on its port) beside one that is up:
   * {@code GET /v1/datasets} lists both from the ledger, the registered columns included, without
   * connecting and without the curator's password file or an SQL state; a query on the dead one is
   * refused, charging nothing.
   */
  @Test
  void listing_oneDatabaseDown_listsEveryDatasetFromTheLedgerWithoutTheCuratorsConfiguration()
      throws Exception {
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    String cy;
    try (Ledger ledger = Ledger.open(dir.resolve("ws"))) {
      cy = ledger.addAnalyst("cy", Role.ANALYST).apiKey();
      ledger.register(DatasetSpec.builder().name("pgdown").source("visits")
          .database(new DatabaseSource("jdbc:postgresql://127.0.0.1:" + closed + "/gone",
              Optional.of("postgres"), Optional.empty(), Optional.of("/etc/privet/db-secret-9c1d")))
          .privacyUnit(PrivacyUnit.column("user_id")).budget(new PureDp(5)).build(),
          org.privet.curator.LedgerCatalog.registered(
              org.privet.engine.PublicSchema.parse("user_id:integer,city:string"),
              org.privet.ledger.RegisteredSchema.Origin.DECLARED));
      ledger.register(DatasetSpec.builder().name("pgup").source("visits")
          .database(new DatabaseSource(url, Optional.of("postgres"), Optional.empty(), Optional.empty()))
          .privacyUnit(PrivacyUnit.column("user_id")).budget(new PureDp(5)).build(),
          org.privet.curator.LedgerCatalog.registered(
              org.privet.engine.PublicSchema.parse("user_id:integer,city:string"),
              org.privet.ledger.RegisteredSchema.Origin.DECLARED));
      ledger.grant("pgdown", "cy", new PureDp(2));
      ledger.grant("pgup", "cy", new PureDp(2));
    }

    Api.Response list = api.get("/v1/datasets", cy);
    assertEquals(200, list.status(), list.text());
    assertEquals(List.of("pgdown", "pgup"), list.json().findValuesAsText("name").stream()
        .filter(n -> n.startsWith("pg")).toList(), list.text());
    for (JsonNode d : list.json()) {
      assertEquals(List.of("user_id", "city"), d.get("columns").findValuesAsText("name"), list.text());
    }
    assertFalse(list.text().contains("db-secret-9c1d"), list.text());
    assertFalse(list.text().contains(String.valueOf(closed)), list.text());
    assertFalse(list.text().toLowerCase(java.util.Locale.ROOT).contains("sql state"), list.text());

    Api.Response q = api.query(cy, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " public_groups = ('Lima', 'Oslo')) city, COUNT(*) AS n FROM pgdown GROUP BY city", null);
    assertEquals(422, q.status(), q.text());
    assertFalse(q.text().contains("db-secret-9c1d"), q.text());
    assertTrue(q.text().contains("nothing was charged"), q.text());
    assertEquals(0, api.get("/v1/history?dataset=pgdown", boss).json().size());
  }

  /**
   * The server keeps a bounded pool per database: six queries one after another leave one
   * session open to the table's database (a connection per request would leave none), and
   * closing the server ends it. Counted in PostgreSQL's own {@code pg_stat_activity}.
   */
  @Test
  void queries_reuseOnePooledSession_endedOnShutdown() throws Exception {
    String full = TestPostgres.server().newDatabase();
    String database;
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE visits (user_id bigint, city varchar(20))");
      s.execute("INSERT INTO visits SELECT u, CASE WHEN u % 2 = 0 THEN 'Oslo' ELSE 'Lima' END"
          + " FROM generate_series(0, 59) u");
      database = c.getCatalog();
    }
    Path ws = dir.resolve("ws-pool");
    String curator;
    try (Ledger ledger = Ledger.open(ws)) {
      curator = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      org.privet.curator.LedgerCatalog.register(ledger, DatasetSpec.builder().name("pooled").source("visits")
          .database(new DatabaseSource(full.substring(0, full.indexOf('?')), Optional.of("postgres"),
              Optional.empty(), Optional.empty()))
          .privacyUnit(PrivacyUnit.column("user_id")).budget(new PureDp(5)).build(), Optional.empty());
    }
    assertEquals(0, sessions(full, database, 0));
    PrivetServer second = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(2).build());
    try {
      Api api2 = new Api(second.url());
      for (int i = 0; i < 6; i++) {
        Api.Response q = api2.query(curator, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5,"
            + " public_groups = ('Lima', 'Oslo')) city, COUNT(*) AS n FROM pooled GROUP BY city", null);
        assertEquals(200, q.status(), q.text());
      }
      assertEquals(1, sessions(full, database, 1));
    } finally {
      second.close();
    }
    assertEquals(0, sessions(full, database, 0));
  }

  /** Other sessions on {@code database}, waiting up to 5 s for the count to reach {@code expected}. */
  private static int sessions(String full, String database, int expected) throws Exception {
    int n = -1;
    for (int i = 0; i < 50 && n != expected; i++) {
      if (n >= 0) {
        Thread.sleep(100);
      }
      try (Connection c = DriverManager.getConnection(full);
          java.sql.PreparedStatement st = c.prepareStatement("SELECT count(*) FROM pg_stat_activity"
              + " WHERE datname = ? AND pid <> pg_backend_pid()")) {
        st.setString(1, database);
        try (java.sql.ResultSet r = st.executeQuery()) {
          r.next();
          n = r.getInt(1);
        }
      }
    }
    return n;
  }
}
