package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;

/**
 * {@code POST /v1/synth} over real HTTP: charged once before the 202, the job runs to a CSV that
 * only its owner (and the curator) may read; an analyst without a grant gets the same 404 as for a
 * dataset or job that does not exist; a retry with the same Idempotency-Key returns the same job.
 */
class SynthApiTest {
  @TempDir Path dir;

  /** 300 rows of a = i mod 3, b = i mod 2, c = i mod 4 (known marginals). */
  private Path tinyCsv() throws java.io.IOException {
    Path csv = dir.resolve("tiny.csv");
    StringBuilder rows = new StringBuilder("a,b,c\n");
    for (int i = 0; i < 300; i++) {
      rows.append(i % 3).append(',').append(i % 2).append(',').append(i % 4).append('\n');
    }
    Files.writeString(csv, rows);
    return csv;
  }

  @Test
  void synth_startPollDownload_ownerOnly_oneCharge() throws Exception {
    Path ws = dir.resolve("ws");
    Path csv = tinyCsv();
    String alice;
    String bob;
    String boss;
    try (Ledger ledger = Ledger.open(ws); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = DatasetSpec.builder().name("tiny").source(csv.toString()).csv(CsvOptions.DEFAULT)
          .privacyUnit(PrivacyUnit.row()).budget(new PureDp(4)).build();
      ledger.register(spec, LedgerCatalog.inferred(spec, backend));
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      bob = ledger.addAnalyst("bob", Role.ANALYST).apiKey();
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      ledger.grant("tiny", "alice", new PureDp(2));
    }
    String body = "{\"dataset\": \"tiny\", \"domain\": {\"a\": 3, \"b\": 2, \"c\": 4}, \"epsilon\": 1, \"method\": \"mwem\"}";
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      Api api = new Api(server.url());
      // Bob has no grant: the same 404 as a dataset that does not exist; nothing charged.
      Api.Response denied = api.send("POST", "/v1/synth", bob, body, Map.of());
      Api.Response missing = api.send("POST", "/v1/synth", bob, body.replace("\"tiny\"", "\"nosuch\""), Map.of());
      assertEquals(404, denied.status(), denied.text());
      assertEquals(missing.text(), denied.text());

      Api.Response started = api.send("POST", "/v1/synth", alice, body, Map.of("Idempotency-Key", "s1"));
      assertEquals(202, started.status(), started.text());
      String job = started.json().get("job").asText();
      Api.Response again = api.send("POST", "/v1/synth", alice, body, Map.of("Idempotency-Key", "s1"));
      assertEquals(202, again.status());
      assertEquals(job, again.json().get("job").asText(), "a retry is the same job");
      String status = "";
      for (int i = 0; i < 240 && !status.equals("done"); i++) {
        Api.Response s = api.get("/v1/synth/" + job, alice);
        assertEquals(200, s.status(), s.text());
        status = s.json().get("status").asText();
        assertTrue(List.of("running", "done").contains(status), s.text());
        if (!status.equals("done")) {
          Thread.sleep(500);
        }
      }
      assertEquals("done", status);
      Api.Response data = api.get("/v1/synth/" + job + "/data", alice);
      assertEquals(200, data.status());
      assertEquals("a,b,c", data.text().lines().findFirst().orElseThrow());
      assertTrue(data.text().lines().count() > 1);
      assertEquals(data.text(), api.get("/v1/synth/" + job + "/data", boss).text(), "the curator may read it");
      // Not the owner: the same 404 as a job that does not exist.
      Api.Response other = api.get("/v1/synth/" + job, bob);
      assertEquals(404, other.status());
      assertEquals(api.get("/v1/synth/999999", bob).text(), other.text());
      assertEquals(404, api.get("/v1/synth/" + job + "/data", bob).status());

      // The comparison with the real table reads the private data: curator only. Analysts, the
      // job's owner included, get the same 403 as for a job that does not exist.
      Api.Response ownerCompare = api.get("/v1/synth/" + job + "/comparison", alice);
      assertEquals(403, ownerCompare.status(), ownerCompare.text());
      assertEquals(api.get("/v1/synth/999999/comparison", alice).text(), ownerCompare.text());
      assertEquals(403, api.get("/v1/synth/" + job + "/comparison", bob).status());
      Api.Response compare = api.get("/v1/synth/" + job + "/comparison", boss);
      assertEquals(200, compare.status(), compare.text());
      var c = compare.json();
      assertEquals(300, c.get("realRows").asInt());
      List<String> synthLines = data.text().lines().skip(1).filter(l -> !l.isBlank()).toList();
      assertEquals(synthLines.size(), c.get("syntheticRows").asInt());
      double[] realA = {1.0 / 3, 1.0 / 3, 1.0 / 3}; // a = i mod 3 over 300 rows
      var a = c.get("attributes").get(0);
      assertEquals("a", a.get("name").asText());
      double l1 = 0;
      for (int v = 0; v < 3; v++) {
        String code = Integer.toString(v);
        double synthFraction = (double) synthLines.stream().filter(l -> l.split(",", -1)[0].equals(code)).count()
            / synthLines.size();
        assertEquals(realA[v], a.get("real").get(v).asDouble(), 1e-12);
        assertEquals(synthFraction, a.get("synthetic").get(v).asDouble(), 1e-12);
        l1 += Math.abs(realA[v] - synthFraction);
      }
      assertEquals(l1, c.get("oneWay").get("marginals").get(0).get("l1").asDouble(), 1e-9,
          "the 1-way error of a is the L1 distance of its fractions");
      assertEquals(3, c.get("twoWay").get("marginals").size(), "all 2-way marginals of 3 attributes");
    }
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("tiny").size(), "one charge for the job and its retry; none for the comparison");
    }
  }

  /**
   * A zCDP method (MST) on a basic-composition (ε, δ) dataset is charged its (ε, δ) conversion,
   * the only events such a dataset admits (docs/proofs/ledger-filter.md), and runs to a CSV.
   */
  @Test
  void synth_mstOnABasicDataset_chargedItsApproxDpConversion() throws Exception {
    Path ws = dir.resolve("ws");
    String alice = tinyWithAlice(ws, new org.privet.accounting.ApproxDp(4, 1e-6), new org.privet.accounting.ApproxDp(2, 1e-6));
    String body = "{\"dataset\": \"tiny\", \"domain\": {\"a\": 3, \"b\": 2, \"c\": 4}, \"epsilon\": 1,"
        + " \"delta\": 1e-9, \"method\": \"mst\"}";
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      Api api = new Api(server.url());
      startAndRunToCsv(api, alice, body);
    }
    try (Ledger ledger = Ledger.open(ws)) {
      var history = ledger.history("tiny");
      assertEquals(1, history.size());
      assertTrue(history.get(0).cost().stream().allMatch(c -> c instanceof org.privet.accounting.ApproxDp),
          "charged as (epsilon, delta): " + history.get(0).cost());
    }
  }

  /**
   * RAP fitted to a query workload given in the request ({@code queries}: the CLI's query-file
   * syntax, one query per string): malformed workloads are refused with 400 naming the parameter
   * ({@code queries} or {@code queries[i]}) before anything is charged; a valid one is charged once
   * (the ledger's request text names the workload) and runs to a CSV.
   */
  @Test
  void synth_rapWithQueries_validatedBeforeTheChargeThenRun() throws Exception {
    Path ws = dir.resolve("ws");
    String alice = tinyWithAlice(ws, new PureDp(4), new PureDp(2));
    String head = "{\"dataset\": \"tiny\", \"domain\": {\"a\": 3, \"b\": 2, \"c\": 4}, \"epsilon\": 1,"
        + " \"method\": \"rap\", \"noise\": \"laplace\", \"queries\": ";
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      Api api = new Api(server.url());
      Map<String, String> refusals = Map.of(
          "\"count a=1\"", "queries:",
          "[]", "queries:",
          "[\"count a=1\", 7]", "queries[1]:",
          "[\"marginal a,b\", \"count z=1\"]", "queries[1]:",
          "[\"count a=1 b=5\"]", "queries[0]:",
          "[\"mean c | a=1\", \"frequency a\"]", "queries[1]:");
      for (var e : refusals.entrySet()) {
        Api.Response r = api.send("POST", "/v1/synth", alice, head + e.getKey() + "}", Map.of());
        assertEquals(400, r.status(), e.getKey() + ": " + r.text());
        assertTrue(r.text().contains(e.getValue()), e.getKey() + " should name " + e.getValue() + ": " + r.text());
      }
      String body = head + "[\"marginal a,b\", \"count a=1 b=0\", \"mean c | b=1\"]}";
      startAndRunToCsv(api, alice, body);
    }
    try (Ledger ledger = Ledger.open(ws)) {
      var history = ledger.history("tiny");
      assertEquals(1, history.size(), "refusals charge nothing");
      assertTrue(history.get(0).query().contains("workload=queries(3)"), history.get(0).query());
      assertEquals(List.of(new PureDp(1)), history.get(0).cost());
    }
  }

  /** Registers the tiny table with the given budget and an analyst alice with the given grant; alice's key. */
  private String tinyWithAlice(Path ws, org.privet.accounting.PrivacyLoss budget, org.privet.accounting.PrivacyLoss grant)
      throws Exception {
    Path csv = tinyCsv();
    try (Ledger ledger = Ledger.open(ws); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = DatasetSpec.builder().name("tiny").source(csv.toString()).csv(CsvOptions.DEFAULT)
          .privacyUnit(PrivacyUnit.row()).budget(budget).build();
      ledger.register(spec, LedgerCatalog.inferred(spec, backend));
      String alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      ledger.grant("tiny", "alice", grant);
      return alice;
    }
  }

  /** Starts a job (202), waits until it is done and checks its CSV's header. */
  private static void startAndRunToCsv(Api api, String key, String body) throws Exception {
    Api.Response started = api.send("POST", "/v1/synth", key, body, Map.of());
    assertEquals(202, started.status(), started.text());
    String job = started.json().get("job").asText();
    awaitDone(api, job, key);
    assertEquals("a,b,c", api.get("/v1/synth/" + job + "/data", key).text().lines().findFirst().orElseThrow());
  }

  /** Polls a job until it is done (at most two minutes). */
  private static void awaitDone(Api api, String job, String key) throws Exception {
    String status = "";
    for (int i = 0; i < 240 && !status.equals("done"); i++) {
      status = api.get("/v1/synth/" + job, key).json().get("status").asText();
      if (!status.equals("done")) {
        Thread.sleep(500);
      }
    }
    assertEquals("done", status);
  }
}
