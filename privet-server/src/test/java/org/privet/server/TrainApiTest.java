package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PostgresLedger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;
import org.privet.testing.TestPostgres;

/**
 * {@code POST /v1/train} over real HTTP on loopback (issue 26 item 1): refusals name the field and
 * charge nothing; a job is charged once, runs once (counted by {@link ReleaseHooks#jobComputed}),
 * and its model JSON is served to its owner and the curator only; a retry with the same
 * Idempotency-Key is the same job; two replicas sharing a PostgreSQL ledger serve the same bytes of
 * a job that ran once. Objective perturbation and AdaSSP only (DP-SGD's calibration is slow).
 */
class TrainApiTest {
  private static final String LOGISTIC = "{\"dataset\": \"people\", \"model\": \"logistic-regression\","
      + " \"label\": \"y\", \"positive\": \"yes\", \"features\": [\"x\", \"z\"],"
      + " \"featureBounds\": {\"x\": [0, 9]}, \"featureKeys\": {\"z\": [\"a\", \"b\"]},"
      + " \"epsilon\": 1, \"delta\": 1e-6}";

  @TempDir Path dir;
  private final AtomicInteger runs = new AtomicInteger();
  private final ReleaseHooks counting = new ReleaseHooks() {
    @Override
    public void jobComputed(long chargeId) {
      runs.incrementAndGet();
    }
  };

  /** 400 rows: x = i mod 10, z = a|b, y = yes iff x ≥ 5, t = 2x + 1. */
  private Path csv() throws Exception {
    Path csv = dir.resolve("people.csv");
    StringBuilder rows = new StringBuilder("x,z,y,t\n");
    for (int i = 0; i < 400; i++) {
      int x = i % 10;
      rows.append(x).append(',').append(i % 2 == 0 ? "a" : "b").append(',').append(x >= 5 ? "yes" : "no")
          .append(',').append(2 * x + 1).append('\n');
    }
    Files.writeString(csv, rows);
    return csv;
  }

  /** Registers {@code people} (budget (8, 1e-5)); keys of alice (granted (4, 1e-5)), bob (no grant), boss (curator). */
  private String[] register(Ledger ledger) throws Exception {
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = DatasetSpec.builder().name("people").source(csv().toString()).csv(CsvOptions.DEFAULT)
          .privacyUnit(PrivacyUnit.row()).budget(new ApproxDp(8, 1e-5)).build();
      ledger.register(spec, LedgerCatalog.inferred(spec, backend));
    }
    String alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
    String bob = ledger.addAnalyst("bob", Role.ANALYST).apiKey();
    String boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
    ledger.grant("people", "alice", new ApproxDp(4, 1e-5));
    return new String[] {alice, bob, boss};
  }

  private static String awaitSettled(Api api, String key, String job) throws InterruptedException {
    String status = "running";
    for (int i = 0; i < 240 && status.equals("running"); i++) {
      Api.Response s = api.get("/v1/train/" + job, key);
      assertEquals(200, s.status(), s.text());
      status = s.json().get("status").asText();
      if (status.equals("running")) {
        Thread.sleep(250);
      }
    }
    return status;
  }

  @Test
  void train_refusalsChargeNothing_jobRunsOnce_modelServedToOwnerAndCurator() throws Exception {
    Path ws = dir.resolve("ws");
    String[] keys;
    try (Ledger ledger = Ledger.open(ws)) {
      keys = register(ledger);
    }
    String alice = keys[0];
    String bob = keys[1];
    String boss = keys[2];
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build(), Ledger.open(ws),
        counting)) {
      Api api = new Api(server.url());
      // Each refusal is a 400 naming the request field, before any charge.
      Map<String, String> refusals = Map.of(
          LOGISTIC.replace("\"x\", \"z\"]", "\"x\", \"z\", \"nosuch\"]"), "features:",
          LOGISTIC.replace("\"epsilon\": 1, ", ""), "epsilon:",
          LOGISTIC.replace("\"positive\": \"yes\", ", ""), "positive:",
          LOGISTIC.replace("[0, 9]", "[0]"), "featureBounds.x:",
          LOGISTIC.replace("logistic-regression", "forest"), "model ",
          LOGISTIC.replace("\"model\": \"logistic-regression\"", "\"model\": \"linear-regression\""), "labelBounds:",
          LOGISTIC.replace("\"featureKeys\": {\"z\": [\"a\", \"b\"]},", ""), "features: z needs public bounds");
      for (var e : refusals.entrySet()) {
        Api.Response r = api.send("POST", "/v1/train", alice, e.getKey(), Map.of("Idempotency-Key", "bad"));
        assertEquals(400, r.status(), e.getKey() + ": " + r.text());
        assertTrue(r.text().contains(e.getValue()), "should name " + e.getValue() + ": " + r.text());
        assertTrue(!r.text().contains("--"), "names the request field, not a CLI option: " + r.text());
      }
      // No grant: the same 404 as a dataset that does not exist.
      Api.Response denied = api.send("POST", "/v1/train", bob, LOGISTIC, Map.of());
      assertEquals(404, denied.status(), denied.text());
      assertEquals(api.send("POST", "/v1/train", bob, LOGISTIC.replace("\"people\"", "\"nosuch\""), Map.of()).text(),
          denied.text());
      try (Ledger ledger = Ledger.open(ws)) {
        assertEquals(0, ledger.history("people").size(), "refusals charge nothing");
      }

      Api.Response started = api.send("POST", "/v1/train", alice, LOGISTIC, Map.of("Idempotency-Key", "t1"));
      assertEquals(202, started.status(), started.text());
      assertEquals("1", started.json().get("job").asText(), "alice's first training job");
      assertEquals(1, started.json().get("charge").get("id").asLong(), "alice's own charge number");
      Api.Response again = api.send("POST", "/v1/train", alice, LOGISTIC, Map.of("Idempotency-Key", "t1"));
      assertEquals(202, again.status(), again.text());
      assertEquals("1", again.json().get("job").asText(), "a retry is the same job");
      assertTrue(again.json().get("replay").asBoolean());
      Api.Response other = api.send("POST", "/v1/train", alice, LOGISTIC.replace("\"epsilon\": 1", "\"epsilon\": 2"),
          Map.of("Idempotency-Key", "t1"));
      assertEquals(422, other.status(), "the key is bound to the whole body: " + other.text());
      assertTrue(other.text().contains("nothing charged"), other.text());

      assertEquals("done", awaitSettled(api, alice, "1"));
      Api.Response model = api.get("/v1/train/1/model", alice);
      assertEquals(200, model.status(), model.text());
      JsonNode m = model.json();
      assertEquals("privet-model-1", m.get("format").asText());
      assertEquals("logistic-regression", m.get("model").asText());
      assertEquals("objective-perturbation", m.get("method").asText());
      assertEquals(java.util.List.of("(intercept)", "x", "z=a", "z=b"),
          iterable(m.get("coefficients").fieldNames()));
      assertEquals(1, m.get("privacy").get("ledger_charge").asLong(), "the owner's own charge number");
      assertEquals("people", m.get("privacy").get("dataset").asText());
      // The curator knows the job by its charge id, and reads the same bytes.
      long chargeId;
      try (Ledger ledger = Ledger.open(ws)) {
        assertEquals(1, ledger.history("people").size(), "one charge for the job and its retry");
        chargeId = ledger.history("people").get(0).id();
      }
      assertEquals(model.text(), api.get("/v1/train/" + chargeId + "/model", boss).text());
      // Not the owner: the same 404 as a job that does not exist.
      assertEquals(404, api.get("/v1/train/1", bob).status());
      assertEquals(api.get("/v1/train/99", bob).text(), api.get("/v1/train/1", bob).text());
      assertEquals(404, api.get("/v1/train/1/model", bob).status());
      // A synthesis job number is not a training job.
      assertEquals(404, api.get("/v1/synth/1", alice).status());
      assertEquals(1, runs.get(), "the job ran once");
    }
  }

  /**
   * Two replicas over one PostgreSQL ledger: a linear-regression (AdaSSP) job started on A is
   * polled and downloaded on B; same bytes on both, one run, one charge.
   */
  @Test
  void twoReplicas_sameModelBytes_oneRun() throws Exception {
    String url = TestPostgres.server().newDatabase();
    String alice;
    try (Ledger ledger = Ledger.open(new PostgresLedger(url, Optional.empty(), Optional.empty()))) {
      alice = register(ledger)[0];
    }
    String body = "{\"dataset\": \"people\", \"model\": \"linear-regression\", \"label\": \"t\","
        + " \"labelBounds\": [0, 20], \"features\": [\"x\"], \"featureBounds\": {\"x\": [0, 9]},"
        + " \"epsilon\": 1, \"delta\": 1e-6}";
    try (PrivetServer a = PrivetServer.start(ServerOptions.builder(dir.resolve("a")).port(0).build(),
            Ledger.open(new PostgresLedger(url, Optional.empty(), Optional.empty())), counting);
        PrivetServer b = PrivetServer.start(ServerOptions.builder(dir.resolve("b")).port(0).build(),
            Ledger.open(new PostgresLedger(url, Optional.empty(), Optional.empty())), counting)) {
      Api onA = new Api(a.url());
      Api onB = new Api(b.url());
      Api.Response started = onA.send("POST", "/v1/train", alice, body, Map.of("Idempotency-Key", "lin"));
      assertEquals(202, started.status(), started.text());
      String job = started.json().get("job").asText();
      Api.Response retryOnB = onB.send("POST", "/v1/train", alice, body, Map.of("Idempotency-Key", "lin"));
      assertEquals(job, retryOnB.json().get("job").asText(), "a retry on another replica is the same job");
      assertEquals("done", awaitSettled(onB, alice, job));
      assertEquals("done", awaitSettled(onA, alice, job));
      Api.Response fromA = onA.get("/v1/train/" + job + "/model", alice);
      Api.Response fromB = onB.get("/v1/train/" + job + "/model", alice);
      assertEquals(200, fromB.status(), fromB.text());
      assertEquals(fromA.text(), fromB.text(), "one charge, one model, whichever replica is asked");
      assertEquals("adassp", fromB.json().get("method").asText());
      assertEquals(1, runs.get(), "the job ran once");
    }
    try (Ledger ledger = Ledger.open(new PostgresLedger(url, Optional.empty(), Optional.empty()))) {
      assertEquals(1, ledger.history("people").size());
    }
  }

  /**
   * Neighbouring tables (the second has one more row, with a hostile feature value and a missing
   * label): the same requests get the same statuses and the same refusal texts, and the model has
   * the same shape (every key but the noisy coefficients' values and the timestamps is equal), with
   * public bounds and with AUTO bounds under pure ε.
   */
  @Test
  void neighbouringTables_sameRefusals_sameModelShape() throws Exception {
    java.util.List<String> seen = new java.util.ArrayList<>();
    for (boolean extra : new boolean[] {false, true}) {
      Path ws = dir.resolve(extra ? "ws-extra" : "ws-base");
      String alice;
      try (Ledger ledger = Ledger.open(ws)) {
        alice = register(ledger)[0];
      }
      // the registration (public) is the same; the table differs in one row
      if (extra) {
        Files.writeString(dir.resolve("people.csv"), "1e308,\"a,b\",,NaN\n", java.nio.file.StandardOpenOption.APPEND);
      }
      StringBuilder outcome = new StringBuilder();
      try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build(), Ledger.open(ws),
          ReleaseHooks.NONE)) {
        Api api = new Api(server.url());
        for (String body : new String[] {LOGISTIC.replace("\"x\", \"z\"]", "\"x\", \"t\"]"),
            LOGISTIC.replace("\"epsilon\": 1", "\"epsilon\": 100"), LOGISTIC}) {
          Api.Response r = api.send("POST", "/v1/train", alice, body, Map.of());
          outcome.append(r.status()).append(' ').append(r.status() == 202 ? "" : r.text()).append('\n');
        }
        outcome.append(awaitSettled(api, alice, "1")).append('\n');
        JsonNode m = api.get("/v1/train/1/model", alice).json();
        outcome.append(shape(m)).append('\n');
        // AUTO bounds for x, pure ε (δ = 0): a second job, the same shape on both tables
        Api.Response auto = api.send("POST", "/v1/train", alice, LOGISTIC.replace("[0, 9]", "\"AUTO\"")
            .replace("\"delta\": 1e-6", "\"delta\": 0"), Map.of());
        outcome.append(auto.status()).append(' ').append(auto.status() == 202 ? "" : auto.text()).append('\n');
        outcome.append(awaitSettled(api, alice, "2")).append('\n');
        outcome.append(shape(api.get("/v1/train/2/model", alice).json())).append('\n');
      }
      seen.add(outcome.toString());
    }
    assertEquals(seen.get(0), seen.get(1));
    assertTrue(seen.get(0).startsWith("400 ") && seen.get(0).contains("\n202 \ndone\n"), seen.get(0));
    assertTrue(seen.get(0).contains("auto_bounds:{x:[#,#,],}"), seen.get(0));
    assertTrue(seen.get(0).lines().skip(1).findFirst().orElseThrow().matches("(400|409) .*"), seen.get(0));
  }

  /** The JSON's structure: its keys and, for text leaves, their values; numbers as "#". */
  private static String shape(JsonNode n) {
    if (n.isObject()) {
      StringBuilder b = new StringBuilder("{");
      n.fields().forEachRemaining(e -> b.append(e.getKey()).append(':').append(shape(e.getValue())).append(','));
      return b.append('}').toString();
    }
    if (n.isArray()) {
      StringBuilder b = new StringBuilder("[");
      n.forEach(e -> b.append(shape(e)).append(','));
      return b.append(']').toString();
    }
    return n.isNumber() ? "#" : n.asText();
  }

  private static java.util.List<String> iterable(java.util.Iterator<String> it) {
    java.util.List<String> out = new java.util.ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
