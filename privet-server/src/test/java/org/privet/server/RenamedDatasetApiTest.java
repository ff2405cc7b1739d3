package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.curator.LedgerCatalog;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;
import org.privet.ledger.SourceFormat;
import org.privet.ledger.TableReference;
import org.privet.ledger.TableSpec;

/**
 * A multi-table dataset renamed after its tables were added (issues 23 and 25), over real HTTP: the
 * unit table keeps the name its references were checked against, so GET /v1/datasets lists it
 * under that name with the references as stored, and EXPLAIN and the join over /v1/explain and
 * /v1/query answer (equal to the plain join), charged once to the dataset under its new name. The
 * same holds for a ledger written before the unit table's name was stored (its tables added
 * across a rename, so its references name the unit table under two names). A query naming the
 * dataset alone is refused (422, {@code refused}) naming the SQL position, charging nothing, repeating no data value.
 */
class RenamedDatasetApiTest {
  /** A value in the data that no response may repeat. */
  private static final String SECRET = "Customer#Secret91";
  /**
   * At ε = 10^6 and at most 3 rows per unit the counts' discrete noise has scale 3·10^-6: it is 0
   * except with probability below 10^-100000.
   */
  private static final String JOIN = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
      + " max_groups_contributed = 1, max_rows_per_group = 3) n_name, COUNT(*) AS n FROM orders JOIN customer"
      + " ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name";

  @TempDir Path dir;
  Path ws;

  @BeforeEach
  void files() throws Exception {
    ws = dir.resolve("ws");
    Files.writeString(dir.resolve("customer.csv"), "c_custkey,c_name,c_nationkey\n1," + SECRET
        + ",7\n2,Customer#2,8\n3,Customer#3,7\n4,Customer#4,7\n");
    Files.writeString(dir.resolve("orders.csv"),
        "o_orderkey,o_custkey,o_totalprice\n10,1,99.5\n11,1,12.0\n12,3,40.25\n13,2,5.0\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n8,PERU\n9,CHINA\n");
  }

  private DatasetSpec customer() {
    return DatasetSpec.builder().name("customer").source(dir.resolve("customer.csv").toString())
        .privacyUnit(PrivacyUnit.column("c_custkey")).budget(new PureDp(10_000_000)).build();
  }

  private TableSpec table(String name, boolean isPublic, String references, String referencedBy) {
    return new TableSpec(name, dir.resolve(name + ".csv").toString(), SourceFormat.CSV, CsvOptions.DEFAULT,
        Optional.empty(), references == null ? List.of() : List.of(TableReference.parse(references)), isPublic,
        referencedBy == null ? List.of() : List.of(TableReference.parse(referencedBy)));
  }

  @Test
  void renamedAfterItsTablesWereAdded_listedExplainedAndQueriedOverHttp() throws Exception {
    try (Ledger ledger = Ledger.open(ws)) {
      DatasetSpec spec = customer();
      LedgerCatalog.register(ledger, spec, Optional.empty()); // no table name: privet dataset register
      for (TableSpec t : List.of(table("orders", false, "o_custkey=customer.c_custkey", null),
          table("nation", true, null, "n_nationkey=customer.c_nationkey"))) {
        LedgerCatalog.addTable(ledger, "customer", t, LedgerCatalog.inferSchema(t.asSource(spec)));
      }
      ledger.renameDataset("customer", "clients");
    }
    assertAnswersOverHttp();
  }

  /**
   * A ledger of the previous version: orders added under {@code customer}, then the rename, then
   * nation declared referenced by {@code clients.c_nationkey} (the old rules checked it against
   * the then name), with no stored unit-table name. The unit table is named as the dataset was at
   * its first added table, {@code customer}, and both references find it.
   */
  @Test
  void legacyLedgerRenamedBetweenItsTables_listedExplainedAndQueriedOverHttp() throws Exception {
    try (Ledger ledger = Ledger.open(ws)) {
      LedgerCatalog.register(ledger, customer(), Optional.empty());
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ws.resolve(Ledger.DATABASE_FILE))) {
      legacyAdd(c, table("orders", false, "o_custkey=customer.c_custkey", null), "2026-01-01T00:00:00Z");
      try (PreparedStatement p = c.prepareStatement("INSERT INTO dataset_renames(dataset, name, renamed_at)"
          + " VALUES ('customer', 'clients', '2026-01-02T00:00:00Z')")) {
        p.executeUpdate();
      }
      legacyAdd(c, table("nation", true, null, "n_nationkey=clients.c_nationkey"), "2026-01-03T00:00:00Z");
    }
    assertAnswersOverHttp();
  }

  private void legacyAdd(Connection c, TableSpec t, String time) throws Exception {
    DatasetSpec spec = customer();
    try (PreparedStatement p = c.prepareStatement(
        "INSERT INTO dataset_tables(dataset, name, spec, schema, added_at) VALUES ('customer', ?, ?, ?, ?)")) {
      p.setString(1, t.name());
      p.setString(2, LedgerJson.write(LedgerJson.table(t)));
      p.setString(3, LedgerJson.write(LedgerJson.schema(LedgerCatalog.inferSchema(t.asSource(spec)))));
      p.setString(4, time);
      p.executeUpdate();
    }
  }

  private void assertAnswersOverHttp() throws Exception {
    String alice;
    try (Ledger ledger = Ledger.open(ws)) {
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      ledger.grant("clients", "alice", new PureDp(10_000_000));
    }
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      Api.Response list = api.get("/v1/datasets", alice);
      assertEquals(200, list.status(), list.text());
      assertEquals("clients", list.json().get(0).get("name").asText(), list.text());
      JsonNode tables = list.json().get(0).get("tables");
      List<String> names = new ArrayList<>();
      tables.forEach(t -> names.add(t.get("name").asText()));
      assertEquals(List.of("customer", "orders", "nation"), names, list.text());
      assertTrue(tables.get(0).get("unitTable").asBoolean());
      assertEquals("customer", tables.get(1).get("references").get(0).get("table").asText(), list.text());
      assertEquals("customer", tables.get(2).get("referencedBy").get(0).get("table").asText(), list.text());

      Api.Response explain = api.post("/v1/explain", alice, Api.JSON.createObjectNode().put("sql", JOIN).toString());
      assertEquals(200, explain.status(), explain.text());
      assertFalse(explain.text().contains(SECRET), explain.text());
      Api.Response alone = api.query(alice,
          "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM clients", null);
      assertEquals(422, alone.status(), alone.text());
      assertEquals("refused", alone.errorCode(), alone.text());
      assertEquals(75, alone.json().get("error").get("column").asInt(), "the FROM name's position");
      assertTrue(alone.text().contains("dataset 'clients' has several tables (customer, orders, nation)"),
          alone.text());
      assertFalse(alone.text().contains(SECRET), alone.text());
      assertEquals(0, charges(), "EXPLAIN and a refusal charge nothing");

      Api.Response q = api.query(alice, JOIN, null);
      assertEquals(200, q.status(), q.text());
      Map<String, Long> released = q.roundedByGroup("n_name", "n");
      assertEquals(plainJoin(), released, q.text());
    }
    assertEquals(1, charges(), "one charge, on the dataset under its new name");
  }

  private int charges() {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.history("clients").size();
    }
  }

  /** The plain join, computed by DuckDB on the files: the reference for the released counts. */
  private Map<String, Long> plainJoin() throws Exception {
    Map<String, Long> expected = new TreeMap<>(Map.of("CHINA", 0L));
    expected.putAll(Fixture.plainCounts("SELECT n.n_name, COUNT(*) FROM read_csv('" + dir.resolve("orders.csv")
        + "') o JOIN read_csv('" + dir.resolve("customer.csv") + "') c ON o.o_custkey = c.c_custkey JOIN read_csv('"
        + dir.resolve("nation.csv") + "') n ON c.c_nationkey = n.n_nationkey GROUP BY n.n_name"));
    assertEquals(Map.of("CHINA", 0L, "FRANCE", 3L, "PERU", 1L), expected, "the plain join");
    return expected;
  }
}
