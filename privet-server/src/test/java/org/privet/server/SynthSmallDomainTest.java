package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;

/**
 * Issue 23, item 6: {@code POST /v1/synth} on tables with fewer than 3 attributes, over real HTTP.
 * The default workload is all k-way marginals with k = min(3, attributes), with or without
 * {@code queries}; before, every such request was refused ("workload: k must be in [1, 2], was 3").
 */
class SynthSmallDomainTest {
  @TempDir Path dir;

  @Test
  void synth_oneAndTwoAttributes_withAndWithoutQueries_runToACsv() throws Exception {
    Path ws = dir.resolve("ws");
    Path csv = dir.resolve("two.csv");
    StringBuilder rows = new StringBuilder("a,b\n");
    for (int i = 0; i < 200; i++) {
      rows.append(i % 3).append(',').append(i % 2).append('\n');
    }
    Files.writeString(csv, rows);
    String alice;
    try (Ledger ledger = Ledger.open(ws); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = DatasetSpec.builder().name("two").source(csv.toString()).csv(CsvOptions.DEFAULT)
          .privacyUnit(PrivacyUnit.row()).budget(new ApproxDp(20, 1e-6)).build();
      ledger.register(spec, LedgerCatalog.inferred(spec, backend));
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      ledger.grant("two", "alice", new ApproxDp(20, 1e-6));
    }
    String[][] cases = {
        {"{\"dataset\": \"two\", \"domain\": {\"a\": 3, \"b\": 2}, \"epsilon\": 1, \"method\": \"mwem\"}", "a,b"},
        {"{\"dataset\": \"two\", \"domain\": {\"a\": 3, \"b\": 2}, \"epsilon\": 1, \"method\": \"mwem\","
            + " \"queries\": [\"marginal a,b\"]}", "a,b"},
        {"{\"dataset\": \"two\", \"domain\": {\"a\": 3}, \"epsilon\": 1, \"method\": \"mwem\"}", "a"},
        {"{\"dataset\": \"two\", \"domain\": {\"b\": 2}, \"epsilon\": 1, \"method\": \"aim\"}", "b"},
    };
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      Api api = new Api(server.url());
      for (String[] c : cases) {
        Api.Response started = api.send("POST", "/v1/synth", alice, c[0], Map.of());
        assertEquals(202, started.status(), c[0] + " -> " + started.text());
        String job = started.json().get("job").asText();
        String status = "";
        for (int i = 0; i < 240 && !status.equals("done") && !status.equals("failed"); i++) {
          status = api.get("/v1/synth/" + job, alice).json().get("status").asText();
          if (!status.equals("done")) {
            Thread.sleep(250);
          }
        }
        assertEquals("done", status, c[0]);
        Api.Response data = api.get("/v1/synth/" + job + "/data", alice);
        assertEquals(c[1], data.text().lines().findFirst().orElseThrow());
      }
    }
  }
}
