package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PureDp;

/**
 * Job state in the ledger (issue 23 item 2), on each store: written with its charge; started by
 * exactly one of many racing runners (each on its own connection, as replicas are); done with its
 * output and digest, or failed; final either way; a lapsed lease fails it, never re-opens it; the
 * triggers refuse every other transition, even through a raw connection.
 */
class JobsTest extends OnEachStore {
  private static final Duration LEASE = Duration.ofMinutes(5);

  private long chargeJob(String key) {
    ledger.register(DatasetSpec.builder().name("t").source("/t.csv").privacyUnit(PrivacyUnit.row())
        .budget(new ApproxDp(1.0, 0)).build());
    Charge c = ledger.chargeRelease("t", "alice", "synth", List.of(new PureDp(0.25)),
        new Release.Claim(Optional.of(key), "digest", Optional.of(new Job.Order("synth", "{\"x\":1}"))));
    return c.id();
  }

  @Test
  void chargeRelease_withAnOrder_recordsAClaimedJobInTheSameTransaction() {
    long id = chargeJob("k1");
    Job job = ledger.job(id).orElseThrow();
    assertEquals(new Job(id, "synth", "{\"x\":1}", Job.State.CLAIMED, Optional.empty(), Optional.empty()), job);
    // The same key again is refused before anything is written: still one charge, one job.
    assertThrows(Release.DuplicateKeyException.class, () -> ledger.chargeRelease("t", "alice", "synth",
        List.of(new PureDp(0.25)), new Release.Claim(Optional.of("k1"), "digest",
            Optional.of(new Job.Order("synth", "{\"x\":2}")))));
    assertEquals(1, ledger.history("t").size());
    assertEquals("{\"x\":1}", ledger.job(id).orElseThrow().request());
    // A release that is not a job has none.
    long query = ledger.chargeRelease("t", "alice", "q", List.of(new PureDp(0.25)),
        new Release.Claim(Optional.empty(), "d")).id();
    assertTrue(ledger.job(query).isEmpty());
  }

  @Test
  void startJob_eightRunnersOnTheirOwnConnections_exactlyOneWins() throws Exception {
    long id = chargeJob("k1");
    int runners = 8;
    ExecutorService threads = Executors.newFixedThreadPool(runners);
    List<Ledger> replicas = new ArrayList<>();
    try {
      for (int i = 0; i < runners; i++) {
        replicas.add(where.open());
      }
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Boolean>> won = new ArrayList<>();
      for (int i = 0; i < runners; i++) {
        Ledger replica = replicas.get(i);
        String runner = "runner-" + i;
        won.add(threads.submit(() -> {
          go.await();
          return replica.startJob(id, runner, LEASE);
        }));
      }
      go.countDown();
      int winners = 0;
      for (Future<Boolean> f : won) {
        winners += f.get() ? 1 : 0;
      }
      assertEquals(1, winners, "one conditional update moves CLAIMED to RUNNING");
      assertEquals(Job.State.RUNNING, ledger.job(id).orElseThrow().state());
      assertFalse(ledger.startJob(id, "late", LEASE), "a running job is never started again");
    } finally {
      threads.shutdownNow();
      replicas.forEach(Ledger::close);
    }
  }

  @Test
  void finishJob_storesOutputAndDigest_thenFinal() {
    long id = chargeJob("k1");
    assertTrue(ledger.startJob(id, "r1", LEASE));
    assertTrue(ledger.heartbeatJob(id, "r1"));
    assertFalse(ledger.heartbeatJob(id, "r2"), "only the runner renews its lease");
    assertEquals(Job.State.RUNNING, ledger.finishJob(id, "r2", "forged").state(), "only the runner finishes");
    Job done = ledger.finishJob(id, "r1", "a,b\n1,2\n");
    assertEquals(Job.State.DONE, done.state());
    // sha256 of "a,b\n1,2\n", computed independently: printf 'a,b\n1,2\n' | sha256sum
    assertEquals(Optional.of("sha256:492d5ea496056f1a6a6592241032fab764c321596317930b4fa0e1e8bc3b7470"),
        done.outputDigest());
    assertEquals(Optional.of("a,b\n1,2\n"), ledger.jobOutput(id));
    assertEquals(Job.State.DONE, ledger.failJob(id, "r1", "late").state(), "done is final");
    assertEquals(Job.State.DONE, ledger.finishJob(id, "r1", "other").state());
    assertEquals(Optional.of("a,b\n1,2\n"), ledger.jobOutput(id), "the first output stays");
    assertFalse(ledger.startJob(id, "r3", LEASE));
  }

  @Test
  void failJob_isFinal_noOutputNoRestart() {
    long id = chargeJob("k1");
    assertTrue(ledger.startJob(id, "r1", LEASE));
    Job failed = ledger.failJob(id, "r1", "the job failed");
    assertEquals(Job.State.FAILED, failed.state());
    assertEquals(Optional.of("the job failed"), failed.failure());
    assertFalse(ledger.startJob(id, "r2", LEASE));
    assertEquals(Job.State.FAILED, ledger.finishJob(id, "r1", "x").state());
    assertTrue(ledger.jobOutput(id).isEmpty());
  }

  @Test
  void expireJob_onlyAfterTheLeaseLapses_thenTheRunnerCannotFinish() throws Exception {
    long id = chargeJob("k1");
    assertTrue(ledger.startJob(id, "r1", LEASE));
    assertEquals(Job.State.RUNNING, ledger.expireJob(id, "stopped").state(), "a live lease is kept");
    long short1 = chargeJob2();
    assertTrue(ledger.startJob(short1, "r1", Duration.ofMillis(50)));
    Thread.sleep(400);
    Job expired = ledger.expireJob(short1, "its replica stopped before it finished");
    assertEquals(Job.State.FAILED, expired.state());
    assertFalse(ledger.heartbeatJob(short1, "r1"));
    assertEquals(Job.State.FAILED, ledger.finishJob(short1, "r1", "late output").state(),
        "a job reported failed never turns done");
    assertTrue(ledger.jobOutput(short1).isEmpty());
  }

  private long chargeJob2() {
    return ledger.chargeRelease("t", "alice", "synth", List.of(new PureDp(0.25)),
        new Release.Claim(Optional.of("k2"), "digest", Optional.of(new Job.Order("synth", "{}")))).id();
  }

  @Test
  void jobs_rawUpdatesBackwardsOrDeletes_refusedByTriggers() throws SQLException {
    long id = chargeJob("k1");
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE jobs SET state = 'DONE', output = 'x',"
          + " output_digest = 'y' WHERE charge_id = " + id), "claimed cannot skip running");
      assertTrue(ledger.startJob(id, "r1", LEASE));
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE jobs SET state = 'CLAIMED' WHERE charge_id = " + id));
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE jobs SET runner = 'r2' WHERE charge_id = " + id));
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE jobs SET request = '{}' WHERE charge_id = " + id));
      ledger.finishJob(id, "r1", "out");
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE jobs SET output = 'other' WHERE charge_id = " + id));
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE jobs SET state = 'RUNNING', output = NULL"
          + " WHERE charge_id = " + id));
      assertThrows(SQLException.class, () -> s.executeUpdate("DELETE FROM jobs"));
    }
    assertEquals(Optional.of("out"), ledger.jobOutput(id));
  }
}
