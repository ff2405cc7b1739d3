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
}
