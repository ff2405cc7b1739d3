package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import org.privet.accounting.PureDp;
import org.privet.ledger.BudgetStatus;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;
import org.privet.ledger.Release;
import org.privet.ledger.Role;
import org.privet.testing.TestPostgres;

/**
 * SIGKILL of a loaded server at random moments, 20 times, over each store (the workspace's SQLite
 * ledger, and a ledger on a real PostgreSQL server). After each kill: every 200 answer has
 * its committed charge (and is the stored answer), charge ids are gapless, no budget or share is
 * exceeded. After each restart, requests that got no answer are retried with their Idempotency-Key:
 * a request that was charged is answered under that charge, never charged again.
 */
@ParameterizedClass
@ValueSource(strings = {"sqlite", "postgres"})
class KillUnderLoadTest {
  /** The ledger: the workspace's SQLite file, or a database on a real PostgreSQL server. */
  @Parameter String store;
  private String ledgerUrl;

  private static final int ROUNDS = 20;
  private static final int CLIENTS = 4;
  private static final double QUERY_EPSILON = 0.125;

  @TempDir Path dir;

  record Sent(String analyst, String key, Optional<Api.Response> answer) {}

  @Test
  void sigkillUnderLoad_twentyTimes_chargesGaplessEveryAnswerChargedNoBudgetExceeded() throws Exception {
    Path ws = dir.resolve("ws");
    ledgerUrl = store.equals("postgres") ? TestPostgres.server().newDatabase() : null;
    Map<String, String> keys = new HashMap<>();
    try (Ledger ledger = Fixture.openLedger(ws, ledgerUrl)) {
      // 40 queries fit the total; the 4 shares (16 each) add up to more, so the total binds.
      Fixture.registerAdult(ledger, "adult", new PureDp(5), 2000);
      for (int c = 0; c < CLIENTS; c++) {
        keys.put("c" + c, ledger.addAnalyst("c" + c, Role.ANALYST).apiKey());
        ledger.grant("adult", "c" + c, new PureDp(2));
      }
    }
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + QUERY_EPSILON
        + ") COUNT(*) AS n FROM adult";
    Random random = new Random(20261126L); // fixed seed: the kill moments (test code only)
    List<Sent> unanswered = new ArrayList<>();
    Map<String, Long> answeredCharge = new HashMap<>();
    int answered = 0;
    for (int round = 0; round < ROUNDS; round++) {
      List<Sent> sent = new ArrayList<>();
      try (ServerChild child = ServerChild.start(ledgerUrl, ws, "none", "2", "16")) {
        Api api = new Api(child.url());
        // Retry what the last kill left unanswered: each key is answered exactly once.
        for (Sent s : unanswered) {
          Optional<Release> charged = release(ws, s.analyst(), s.key());
          Api.Response r = api.query(keys.get(s.analyst()), sql, s.key());
          if (charged.isPresent()) {
            assertEquals(200, r.status(), r.text());
            assertEquals(charged.get().chargeId(), ledgerId(ws, s.analyst(), r.json().path("charge").path("id").asLong()),
                "a charged request is answered under its charge");
          } else {
            assertTrue(r.status() == 200 || r.status() == 409, r.text());
          }
          if (r.status() == 200) {
            answeredCharge.put(s.key(), ledgerId(ws, s.analyst(), r.json().path("charge").path("id").asLong()));
            answered++;
          }
        }
        unanswered.clear();
        AtomicBoolean stop = new AtomicBoolean();
        Map<String, Sent> results = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
          String analyst = "c" + c;
          int round0 = round;
          Thread t = new Thread(() -> {
            for (int i = 0; !stop.get(); i++) {
              String key = analyst + "-r" + round0 + "-" + i;
              Optional<Api.Response> r;
              try {
                r = Optional.of(api.query(keys.get(analyst), sql, key));
              } catch (RuntimeException killed) {
                r = Optional.empty();
              }
              results.put(key, new Sent(analyst, key, r));
              if (r.isEmpty()) {
                return;
              }
            }
          });
          t.start();
          threads.add(t);
        }
        Thread.sleep(200 + random.nextInt(1500));
        child.kill();
        stop.set(true);
        for (Thread t : threads) {
          t.join(60_000);
        }
        sent.addAll(results.values());
      }
      try (Ledger ledger = Fixture.openLedger(ws, ledgerUrl)) {
        List<Charge> history = ledger.history("adult");
        for (int i = 0; i < history.size(); i++) {
          assertEquals(i + 1, history.get(i).id(), "charge ids are gapless");
        }
        for (Sent s : sent) {
          if (s.answer().isEmpty()) {
            unanswered.add(s);
            continue;
          }
          Api.Response r = s.answer().get();
          assertTrue(r.status() == 200 || r.status() == 409, r.text());
          if (r.status() == 200) {
            // An analyst is shown their own number of the charge (issue 23): their n-th charge.
            long number = r.json().path("charge").path("id").asLong();
            List<Charge> mine = history.stream().filter(h -> h.analyst().equals(s.analyst())).toList();
            assertTrue(number >= 1 && number <= mine.size(), "a 200 without its committed charge: " + r.text());
            long id = mine.get((int) number - 1).id();
            Charge c = history.stream().filter(h -> h.id() == id).findFirst().orElseThrow();
            assertEquals(s.analyst(), c.analyst());
            Release rel = ledger.releaseOfCharge(id).orElseThrow();
            assertEquals(Api.JSON.readTree(rel.answer().orElseThrow()),
                ExactlyOnceReleaseTest.withoutReplayFlag(r.json()), "the answer sent is the answer stored");
            answeredCharge.put(s.key(), id);
            answered++;
          }
        }
        BudgetStatus total = ledger.status("adult");
        assertTrue(((org.privet.accounting.ApproxDp) total.spent()).epsilon() <= 5.0, total.toString());
        for (int c = 0; c < CLIENTS; c++) {
          BudgetStatus share = ledger.status("adult", "c" + c);
          assertTrue(((org.privet.accounting.ApproxDp) share.spent()).epsilon() <= 2.0, share.toString());
        }
        assertEquals(answeredCharge.size(), answeredCharge.values().stream().distinct().count(),
            "no charge answers two requests");
      }
    }
    System.out.println("kill test: " + ROUNDS + " kills, " + answered + " answers");
    assertTrue(answered > 0);
  }

  /** The ledger's id of the analyst's {@code number}-th charge on adult (what they are shown). */
  private long ledgerId(Path ws, String analyst, long number) {
    try (Ledger ledger = Fixture.openLedger(ws, ledgerUrl)) {
      List<Charge> mine = ledger.history("adult").stream().filter(c -> c.analyst().equals(analyst)).toList();
      return number >= 1 && number <= mine.size() ? mine.get((int) number - 1).id() : -1;
    }
  }

  private Optional<Release> release(Path ws, String analyst, String key) {
    try (Ledger ledger = Fixture.openLedger(ws, ledgerUrl)) {
      return ledger.release(analyst, key);
    }
  }
}
