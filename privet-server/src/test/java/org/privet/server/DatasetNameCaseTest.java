package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.Role;

/**
 * Issue 23, item 1: dataset names that differ only in letter case. Over real HTTP on loopback
 * against a real server and SQLite ledger. A written name resolves to one registered dataset, used
 * for the read, the charge, the share and the records; a name equal to a registered one ignoring
 * case cannot be registered; a ledger that already holds such a pair (written before the rule)
 * refuses both names, charging nothing, until the curator renames one.
 */
class DatasetNameCaseTest {
  private static final String COUNT =
      "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = %s) COUNT(*) AS n FROM %s";

  @TempDir Path dir;

  private static String sqlBody(String sql) {
    return Api.JSON.createObjectNode().put("sql", sql).toString();
  }

  @Test
  void register_nameEqualIgnoringCase_refusedOnServerAndLedger() {
    Path ws = dir.resolve("ws");
    String boss;
    DatasetSpec people;
    try (Ledger ledger = Ledger.open(ws)) {
      Fixture.registerAdult(ledger, "people", new PureDp(10), 500);
      people = ledger.dataset("people");
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      // The CLI's and the library's path: Ledger#register.
      DatasetSpec upper = DatasetSpec.builder().name("PEOPLE").source(people.source())
          .csv(people.csv()).privacyUnit(people.privacyUnit()).budget(new PureDp(100)).build();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> Fixture.registerWithSchema(ledger, upper));
      assertTrue(e.getMessage().contains("ignoring case"), e.getMessage());
    }
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      ObjectRegistration reg = new ObjectRegistration(people, "People");
      Api.Response r = api.post("/v1/datasets", boss, reg.json());
      assertEquals(400, r.status(), r.text());
      assertTrue(r.json().path("error").path("message").asText().contains("ignoring case"), r.text());
      JsonNode list = api.get("/v1/datasets", boss).json();
      assertEquals(1, list.size(), list.toString());
    }
  }

  /** A registration body: {@code spec} under another name. */
  private record ObjectRegistration(DatasetSpec spec, String name) {
    String json() {
      return ((com.fasterxml.jackson.databind.node.ObjectNode) LedgerJson.dataset(spec)).put("name", name)
          .toString();
    }
  }

  @Test
  void legacyPair_refusedUntilRenamed_thenEachNameChargesItsOwnDataset() throws Exception {
    Path ws = dir.resolve("legacy");
    String boss;
    String mallory;
    String trent;
    try (Ledger ledger = Ledger.open(ws)) {
      Fixture.registerAdult(ledger, "people", new PureDp(10), 500);
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      mallory = ledger.addAnalyst("mallory", Role.ANALYST).apiKey();
      trent = ledger.addAnalyst("trent", Role.ANALYST).apiKey();
      ledger.grant("people", "mallory", new PureDp(10));
    }
    writeLegacyUpperCaseTwin(ws);

    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      for (String written : new String[] {"people", "PEOPLE", "People"}) {
        Api.Response q = api.query(mallory, String.format(COUNT, "20", written), null);
        assertFalse(q.status() == 200, "a query on a name in a case clash must be refused: " + q.text());
        Api.Response small = api.query(mallory, String.format(COUNT, "0.125", written), null);
        assertFalse(small.status() == 200, small.text());
        // What mallory sees does not tell her which other dataset clashes, nor that one does.
        assertFalse(small.text().contains("PEOPLE") && !"PEOPLE".equals(written), small.text());
      }
      Api.Response t = api.query(trent, String.format(COUNT, "0.125", "PEOPLE"), null);
      assertFalse(t.status() == 200, t.text());
      // The listing still works: the curator sees both with the reason, mallory neither.
      JsonNode all = api.get("/v1/datasets", boss).json();
      assertEquals(2, all.size(), all.toString());
      all.forEach(d -> assertTrue(d.path("nameClash").asText().contains("rename"), all.toString()));
      assertEquals(0, api.get("/v1/datasets", mallory).json().size());
      // The curator is told why, and what to do.
      Api.Response h = api.get("/v1/history?dataset=people", boss);
      assertEquals(409, h.status(), h.text());
      assertTrue(h.text().contains("rename"), h.text());
    }
    assertEquals(0, chargesIn(ws), "nothing may be charged while the names clash");

    // The curator renames one (the CLI's path: Ledger#renameDataset, by its exact registered name).
    try (Ledger ledger = Ledger.open(ws)) {
      ledger.renameDataset("PEOPLE", "people_hr");
    }
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      // Her ε = 20 query against her ε = 10 share is refused, whichever case she writes.
      for (String written : new String[] {"people", "PEOPLE", "People"}) {
        Api.Response q = api.query(mallory, String.format(COUNT, "20", written), null);
        assertEquals(409, q.status(), q.text());
      }
      for (String written : new String[] {"people", "PEOPLE", "People"}) {
        Api.Response q = api.query(mallory, String.format(COUNT, "0.125", written), null);
        assertEquals(200, q.status(), q.text());
        assertEquals("people", q.json().path("charge").path("dataset").asText(), q.text());
      }
      JsonNode budget = api.get("/v1/budget?dataset=people", mallory).json();
      assertEquals(3, budget.path("charges").asInt(), budget.toString());
      assertEquals(3, api.get("/v1/history?dataset=PEOPLE", mallory).json().size());
      assertEquals(3, api.get("/v1/history?dataset=people", boss).json().size());
      assertEquals(0, api.get("/v1/history?dataset=people_hr", boss).json().size());
      // trent's dataset is now people_hr; 'PEOPLE' is mallory's dataset, which trent cannot see.
      assertEquals(404, api.query(trent, String.format(COUNT, "0.125", "PEOPLE"), null).status());
      Api.Response tq = api.query(trent, String.format(COUNT, "0.125", "people_hr"), null);
      assertEquals(200, tq.status(), tq.text());
      assertEquals("people_hr", tq.json().path("charge").path("dataset").asText());
      assertEquals(1, api.get("/v1/history?dataset=people_hr", boss).json().size());
      assertEquals(3, api.get("/v1/history?dataset=people", boss).json().size());
    }
    try (Ledger ledger = Ledger.open(ws)) {
      // The old name stays taken: no new dataset may be registered as PEOPLE or people.
      assertThrows(IllegalArgumentException.class, () -> ledger.renameDataset("people_hr", "People"));
      assertEquals(java.util.List.of("people", "people_hr"),
          ledger.datasets().stream().map(DatasetSpec::name).sorted().toList());
    }
  }

  /**
   * Writes, as an older Privet did (no case rule), a second dataset {@code PEOPLE} (ε = 100, the
   * same file) granted to trent, straight into the SQLite ledger.
   */
  private static void writeLegacyUpperCaseTwin(Path ws) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ws.resolve(Ledger.DATABASE_FILE));
        Statement s = c.createStatement()) {
      String now = Instant.now().toString();
      s.executeUpdate("INSERT INTO datasets(name, spec, registered_at) SELECT 'PEOPLE',"
          + " replace(replace(spec, '\"name\":\"people\"', '\"name\":\"PEOPLE\"'), '\"epsilon\":10.0',"
          + " '\"epsilon\":100.0'), registered_at FROM datasets WHERE name = 'people'");
      s.executeUpdate("INSERT INTO dataset_schemas(dataset, schema, fixed_at) SELECT 'PEOPLE', schema,"
          + " fixed_at FROM dataset_schemas WHERE dataset = 'people'");
      try (PreparedStatement p = c.prepareStatement(
          "INSERT INTO grants(dataset, analyst, share, granted_at) VALUES ('PEOPLE', 'trent', ?, ?)")) {
        p.setString(1, "{\"measure\":\"pure\",\"epsilon\":100.0}");
        p.setString(2, now);
        p.executeUpdate();
      }
    }
  }

  private static int chargesIn(Path ws) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ws.resolve(Ledger.DATABASE_FILE));
        Statement s = c.createStatement();
        var r = s.executeQuery("SELECT COUNT(*) FROM charges")) {
      r.next();
      return r.getInt(1);
    }
  }
}
