package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.curator.LedgerCatalog;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;
import org.privet.ledger.SourceFormat;
import org.privet.ledger.TableReference;
import org.privet.ledger.TableSpec;

/**
 * GET /v1/datasets over real HTTP lists a multi-table dataset's tables (issue 25) as
 * docs/openapi.json states: name, unit table, public flag, references and columns, the public
 * metadata fixed at registration, and never a source path.
 */
class DatasetTablesApiTest {
  @TempDir Path dir;

  @Test
  void datasets_multiTableDataset_listsItsTablesAndNoSource() throws Exception {
    Files.writeString(dir.resolve("customer.csv"), "c_custkey,c_name\n1,a\n");
    Files.writeString(dir.resolve("orders.csv"), "o_orderkey,o_custkey\n10,1\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n");
    Path ws = dir.resolve("ws");
    String alice;
    try (Ledger ledger = Ledger.open(ws)) {
      DatasetSpec shop = DatasetSpec.builder().name("shop").source(dir.resolve("customer.csv").toString())
          .privacyUnit(PrivacyUnit.column("c_custkey")).budget(new PureDp(4)).build();
      ledger.register(shop, LedgerCatalog.inferSchema(shop), "customer");
      for (String t : List.of("orders", "nation")) {
        TableSpec table = new TableSpec(t, dir.resolve(t + ".csv").toString(), SourceFormat.CSV,
            CsvOptions.DEFAULT, Optional.empty(), t.equals("orders")
                ? List.of(TableReference.parse("o_custkey=customer.c_custkey")) : List.of(), t.equals("nation"));
        ledger.addTable("shop", table, LedgerCatalog.inferSchema(table.asSource(shop)));
      }
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      ledger.grant("shop", "alice", new PureDp(1));
    }
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api.Response r = new Api(server.url()).get("/v1/datasets", alice);
      assertEquals(200, r.status(), r.text());
      JsonNode tables = r.json().get(0).get("tables");
      assertEquals(3, tables.size(), r.text());
      assertEquals("customer", tables.get(0).get("name").asText());
      assertTrue(tables.get(0).get("unitTable").asBoolean());
      JsonNode ref = tables.get(1).get("references").get(0);
      assertEquals("o_custkey=customer.c_custkey",
          ref.get("column").asText() + "=" + ref.get("table").asText() + "." + ref.get("targetColumn").asText());
      assertFalse(tables.get(1).get("public").asBoolean());
      assertTrue(tables.get(2).get("public").asBoolean());
      assertEquals("n_name", tables.get(2).get("columns").get(1).get("name").asText());
      assertEquals("string", tables.get(2).get("columns").get(1).get("type").asText());
      assertFalse(r.text().contains(dir.toString()), "no source path is shown to analysts");
    }
  }

  /**
   * POST /v1/datasets registers a multi-table dataset whole (issue 25): the unit table's name,
   * then each table with its references (both JSON forms), its public flag, and a public table
   * the unit table references ({@code referencedBy}); a refused registration (a floating key, a
   * target that is not a key, a reference to an unknown table) is 400 naming the field, shows no
   * data value and stores nothing, so the corrected request then succeeds; repeating it is 400
   * naming {@code name} and changes nothing. An analyst's join over the tables then releases every nation as a
   * public group, equal to the plain join (noise 0 at ε = 10^6 and a bound of 3 rows: scale
   * 3·10^-6, non-zero with probability below 10^-100000).
   */
  @Test
  void registerDataset_withTables_registeredWholeOrNotAtAll() throws Exception {
    Files.writeString(dir.resolve("customer.csv"), "c_custkey,c_name,c_nationkey\n1,Secret#1,7\n2,b,8\n3,c,7\n");
    Files.writeString(dir.resolve("orders.csv"), "o_orderkey,o_custkey,o_totalprice\n10,1,9.5\n11,1,3.25\n12,3,4.0\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n8,PERU\n9,CHINA\n");
    Files.writeString(dir.resolve("nation_twice.csv"), "n_nationkey,n_name\n7,FRANCE\n7,PERU\n");
    Path ws = dir.resolve("ws");
    String boss;
    String alice;
    JsonNode base;
    try (Ledger ledger = Ledger.open(ws)) {
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      base = org.privet.ledger.LedgerJson.dataset(DatasetSpec.builder().name("shop")
          .source(dir.resolve("customer.csv").toString()).privacyUnit(PrivacyUnit.column("c_custkey"))
          .budget(new PureDp(10_000_000)).build());
    }
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    java.util.function.BiFunction<String, String, String> body = (ordersRef, nationFile) -> {
      com.fasterxml.jackson.databind.node.ObjectNode b = base.deepCopy();
      b.put("tableName", "customer");
      com.fasterxml.jackson.databind.node.ArrayNode tables = b.putArray("tables");
      tables.addObject().put("name", "orders").put("source", dir.resolve("orders.csv").toString())
          .putArray("references").add(ordersRef);
      com.fasterxml.jackson.databind.node.ObjectNode nation = tables.addObject().put("name", "nation")
          .put("source", dir.resolve(nationFile).toString()).put("public", true);
      nation.putArray("referencedBy").addObject().put("column", "n_nationkey").put("table", "customer")
          .put("targetColumn", "c_nationkey");
      return b.toString();
    };
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      String[][] refused = {
          {body.apply("o_totalprice=customer.c_custkey", "nation.csv"),
              "references: orders.o_totalprice (double) -> customer.c_custkey (integer)"},
          {body.apply("o_custkey=customer.c_custkey", "nation_twice.csv"),
              "referenced-by: nation.n_nationkey is not a key of nation"},
          {body.apply("o_custkey=client.c_custkey", "nation.csv"), "references: dataset 'shop' has no table 'client'"},
          {body.apply("o_custkey=customer.c_custkey", "nation.csv").replace("\"public\":true", "\"public\":1"),
              "tables: public must be true or false"},
          {body.apply("o_custkey=customer.c_custkey", "missing.csv"),
              "tables: source of 'nation' must be an absolute path to a file on the server's machine"}};
      for (String[] r : refused) {
        Api.Response res = api.post("/v1/datasets", boss, r[0]);
        assertEquals(400, res.status(), res.text());
        assertTrue(res.json().path("error").path("message").asText().contains(r[1]), res.text());
        assertFalse(res.text().contains("Secret") || res.text().contains("FRANCE"), res.text());
        assertEquals(0, api.get("/v1/datasets", boss).json().size(), "a refused registration stores nothing");
      }

      String good = body.apply("o_custkey=customer.c_custkey", "nation.csv");
      Api.Response reg = api.post("/v1/datasets", boss, good);
      assertEquals(201, reg.status(), reg.text());
      JsonNode tables = reg.json().get("tables");
      assertEquals(List.of("customer", "orders", "nation"),
          List.of(tables.get(0).get("name").asText(), tables.get(1).get("name").asText(), tables.get(2).get("name").asText()));
      assertEquals("o_custkey", tables.get(1).get("references").get(0).get("column").asText());
      assertEquals("o_orderkey:integer", tables.get(1).get("schema").get("columns").get(0).get("name").asText()
          + ":" + tables.get(1).get("schema").get("columns").get(0).get("type").asText(), "inferred now");
      Api.Response again = api.post("/v1/datasets", boss, good);
      assertEquals(400, again.status(), again.text());
      assertTrue(again.text().contains("name: a dataset named 'shop' is already registered"), again.text());

      assertEquals(201, api.post("/v1/grants", boss, "{\"dataset\":\"shop\",\"analyst\":\"alice\",\"epsilon\":1000000}").status());
      JsonNode listed = api.get("/v1/datasets", alice).json().get(0).get("tables");
      assertEquals(3, listed.size(), listed.toString());
      assertEquals("customer", listed.get(2).get("referencedBy").get(0).get("table").asText());
      Api.Response q = api.query(alice, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
          + " max_groups_contributed = 1, max_rows_per_group = 3) n_name, COUNT(*) AS n FROM orders JOIN customer"
          + " ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name", null);
      assertEquals(200, q.status(), q.text());
      java.util.Map<String, Long> expected = Fixture.plainCounts("SELECT n.n_name, COUNT(o.o_orderkey) FROM read_csv('"
          + dir.resolve("nation.csv") + "') n LEFT JOIN read_csv('" + dir.resolve("customer.csv")
          + "') c ON c.c_nationkey = n.n_nationkey LEFT JOIN read_csv('" + dir.resolve("orders.csv")
          + "') o ON o.o_custkey = c.c_custkey GROUP BY n.n_name");
      java.util.Map<String, Long> released = q.roundedByGroup("n_name", "n");
      assertEquals(0L, expected.get("CHINA"));
      assertEquals(expected, released, q.text());
    }
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(3, ledger.tables("shop").size());
      assertEquals(1, ledger.datasets().size());
    }
  }
}
