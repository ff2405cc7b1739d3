package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
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
 * Issue 23 item 2: a synthesis job runs at most once under its charge, whichever replica is asked.
 * Two (or three) real {@link PrivetServer} replicas on loopback, each with its own workspace
 * folder, share one ledger on a real PostgreSQL server (the README's shared-ledger deployment).
 * Every replica counts the tables it computed ({@link ReleaseHooks#jobComputed}), so "ran once" is
 * counted, not inferred from bytes.
 */
class SynthReplicasTest {
  private static final String BODY = "{\"dataset\": \"tiny\", \"domain\": {\"a\": 3, \"b\": 2, \"c\": 4},"
      + " \"epsilon\": 1, \"method\": \"mwem\"}";

  @TempDir Path dir;
  private String ledgerUrl;
  private String alice;
  private final AtomicInteger runs = new AtomicInteger();

  /** Counts every table computed, on any replica of this test. */
  private final ReleaseHooks counting = new ReleaseHooks() {
    @Override
    public void jobComputed(long chargeId) {
      runs.incrementAndGet();
    }
  };

  @BeforeEach
  void setUp() throws Exception {
    ledgerUrl = TestPostgres.server().newDatabase();
    Path csv = dir.resolve("tiny.csv");
    StringBuilder rows = new StringBuilder("a,b,c\n");
    for (int i = 0; i < 300; i++) {
      rows.append(i % 3).append(',').append(i % 2).append(',').append(i % 4).append('\n');
    }
    Files.writeString(csv, rows);
    try (Ledger ledger = ledger(); DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = DatasetSpec.builder().name("tiny").source(csv.toString()).csv(CsvOptions.DEFAULT)
          .privacyUnit(PrivacyUnit.row()).budget(new PureDp(4)).build();
      ledger.register(spec, LedgerCatalog.inferred(spec, backend));
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      ledger.grant("tiny", "alice", new PureDp(4));
    }
  }

  private Ledger ledger() {
    return Ledger.open(new PostgresLedger(ledgerUrl, Optional.empty(), Optional.empty()));
  }

  /** A replica with a workspace folder of its own, over the shared ledger. */
  private PrivetServer replica(String name, ReleaseHooks hooks) {
    return PrivetServer.start(ServerOptions.builder(dir.resolve(name)).port(0).build(), ledger(), hooks);
  }

  private static Api.Response start(Api api, String key, String idempotencyKey) {
    return api.send("POST", "/v1/synth", key, BODY, Map.of("Idempotency-Key", idempotencyKey));
  }

  /** Polls until the job is no longer running (two minutes at most); its last status. */
  private static String awaitSettled(Api api, String key, String job) throws InterruptedException {
    String status = "running";
    for (int i = 0; i < 240 && status.equals("running"); i++) {
      Api.Response s = api.get("/v1/synth/" + job, key);
      assertEquals(200, s.status(), s.text());
      status = s.json().get("status").asText();
      if (status.equals("running")) {
        Thread.sleep(500);
      }
    }
    return status;
  }

  private int charges() {
    try (Ledger ledger = ledger()) {
      return ledger.history("tiny").size();
    }
  }

  @Test
  void startOnA_pollAndDownloadOnB_sameBytesOneRun() throws Exception {
    try (PrivetServer a = replica("a", counting); PrivetServer b = replica("b", counting)) {
      Api onA = new Api(a.url());
      Api onB = new Api(b.url());
      Api.Response started = start(onA, alice, "job-1");
      assertEquals(202, started.status(), started.text());
      String job = started.json().get("job").asText();
      assertEquals("done", awaitSettled(onB, alice, job));
      assertEquals("done", awaitSettled(onA, alice, job));
      Api.Response fromB = onB.get("/v1/synth/" + job + "/data", alice);
      Api.Response fromA = onA.get("/v1/synth/" + job + "/data", alice);
      assertEquals(200, fromB.status(), fromB.text());
      assertEquals(fromA.text(), fromB.text(), "one charge, one table, whichever replica is asked");
      assertEquals(1, runs.get(), "the job ran once");
      // A third replica started later serves the same bytes and runs nothing.
      try (PrivetServer c = replica("c", counting)) {
        Api onC = new Api(c.url());
        assertEquals("done", awaitSettled(onC, alice, job));
        assertEquals(fromA.text(), onC.get("/v1/synth/" + job + "/data", alice).text());
      }
      assertEquals(1, runs.get());
    }
    assertEquals(1, charges());
  }

  @Test
  void failedJob_afterRestart_isStillFailedAndNeverRunAgain() throws Exception {
    ReleaseHooks failing = new ReleaseHooks() {
      @Override
      public void jobComputed(long chargeId) {
        runs.incrementAndGet();
        throw new IllegalStateException("test: the job fails after computing its table");
      }
    };
    String job;
    try (PrivetServer a = replica("a", failing)) {
      Api api = new Api(a.url());
      Api.Response started = start(api, alice, "job-f");
      assertEquals(202, started.status(), started.text());
      job = started.json().get("job").asText();
      assertEquals("failed", awaitSettled(api, alice, job));
    }
    assertEquals(1, runs.get());
    try (PrivetServer again = replica("a", counting); PrivetServer b = replica("b", counting)) {
      for (Api api : new Api[] {new Api(again.url()), new Api(b.url())}) {
        for (int i = 0; i < 6; i++) {
          Api.Response s = api.get("/v1/synth/" + job, alice);
          assertEquals("failed", s.json().get("status").asText(), s.text());
          Thread.sleep(250);
        }
        assertEquals(404, api.get("/v1/synth/" + job + "/data", alice).status());
        // A retry with the job's key is the same failed job, not a new run.
        Api.Response retry = start(api, alice, "job-f");
        assertEquals(202, retry.status(), retry.text());
        assertEquals(job, retry.json().get("job").asText());
        assertEquals("failed", api.get("/v1/synth/" + job, alice).json().get("status").asText());
      }
    }
    assertEquals(1, runs.get(), "the failed job was never run again");
    assertEquals(1, charges());
  }

  /**
   * A replica SIGKILLed while its job runs (after the draw, before the table is stored): the job is
   * reported running while its lease may still be renewed, then failed on every replica, and is
   * never run again, by them or by a restarted replica on the dead one's workspace.
   */
  @Test
  void replicaKilledMidJob_reportedFailedAfterItsLease_neverRunAgain() throws Exception {
    String job;
    try (ServerChild doomed = ServerChild.start(ledgerUrl, Map.of("PRIVET_TEST_JOB_LEASE_MS", "3000"),
        dir.resolve("doomed"), "pause-in-job")) {
      Api api = new Api(doomed.url());
      Api.Response started = start(api, alice, "job-k");
      assertEquals(202, started.status(), started.text());
      job = started.json().get("job").asText();
      doomed.await("privet-test: paused #" + job, 120);
      try (PrivetServer b = replica("b", counting)) {
        Api onB = new Api(b.url());
        // The runner is alive (paused mid-job, renewing its lease): B must not take the job over.
        for (int i = 0; i < 8; i++) {
          assertEquals("running", onB.get("/v1/synth/" + job, alice).json().get("status").asText());
          Thread.sleep(500);
        }
        doomed.kill();
        long killed = System.nanoTime();
        assertEquals("failed", awaitSettled(onB, alice, job));
        assertTrue(System.nanoTime() - killed < 60_000_000_000L, "failed once the 3 s lease lapsed");
        assertEquals(404, onB.get("/v1/synth/" + job + "/data", alice).status());
      }
    }
    try (PrivetServer again = replica("doomed", counting)) {
      Api api = new Api(again.url());
      assertEquals("failed", api.get("/v1/synth/" + job, alice).json().get("status").asText());
      Api.Response retry = start(api, alice, "job-k");
      assertEquals(job, retry.json().get("job").asText(), "the retry is the same failed job");
      Thread.sleep(1000);
      assertEquals("failed", api.get("/v1/synth/" + job, alice).json().get("status").asText());
    }
    assertEquals(0, runs.get(), "no replica ran the job again");
    assertEquals(1, charges());
  }

  @Test
  void racingRetries_onTwoReplicas_oneJobOneRunSameBytes() throws Exception {
    ExecutorService clients = Executors.newFixedThreadPool(4);
    try (PrivetServer a = replica("a", counting); PrivetServer b = replica("b", counting)) {
      Api[] apis = {new Api(a.url()), new Api(b.url()), new Api(a.url()), new Api(b.url())};
      CountDownLatch go = new CountDownLatch(1);
      Future<?>[] sent = new Future<?>[apis.length];
      for (int i = 0; i < apis.length; i++) {
        Api api = apis[i];
        sent[i] = clients.submit((Callable<Api.Response>) () -> {
          go.await();
          return start(api, alice, "race");
        });
      }
      go.countDown();
      String job = null;
      for (Future<?> f : sent) {
        Api.Response r = (Api.Response) f.get();
        assertEquals(202, r.status(), r.text());
        String id = r.json().get("job").asText();
        assertTrue(job == null || job.equals(id), "every racing retry is the same job");
        job = id;
      }
      String first = null;
      for (Api api : apis) {
        assertEquals("done", awaitSettled(api, alice, job));
        String data = api.get("/v1/synth/" + job + "/data", alice).text();
        assertTrue(first == null || first.equals(data), "the same table on every replica");
        first = data;
      }
      assertEquals(1, runs.get(), "the job ran once");
    } finally {
      clients.shutdownNow();
    }
    assertEquals(1, charges());
  }
}
