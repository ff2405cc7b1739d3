package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import org.privet.accounting.PureDp;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;
import org.privet.ledger.Role;
import org.privet.testing.TestPostgres;

/**
 * 32 concurrent clients, each with its own key, against one dataset whose budget pays for exactly
 * 10 queries: exactly 10 succeed and 22 get 409 with nothing charged. Run on one server over the
 * workspace's SQLite ledger, and on two server replicas sharing a ledger on a real PostgreSQL
 * server (each replica with its own connection, as on two hosts), clients spread over both.
 */
@ParameterizedClass
@ValueSource(ints = {0, 2})
class ConcurrentReleasesTest {
  /** PostgreSQL replicas sharing one ledger; 0: one server on the workspace's SQLite file. */
  @Parameter int replicas;
  @TempDir Path dir;
  Path ws;
  String ledgerUrl;

  private Ledger openLedger() {
    return Fixture.openLedger(ws, ledgerUrl);
  }

  private List<PrivetServer> start() {
    ServerOptions.Builder options = ServerOptions.builder(ws).port(0).workers(4).queue(64);
    if (replicas == 0) {
      return List.of(PrivetServer.start(options.build()));
    }
    List<PrivetServer> servers = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      servers.add(PrivetServer.start(options.build(), openLedger()));
    }
    return servers;
  }

  @Test
  void query_32ClientsBudgetForTen_exactlyTenSucceedRestConflict() throws Exception {
    ws = dir.resolve("ws");
    ledgerUrl = replicas == 0 ? null : TestPostgres.server().newDatabase();
    List<String> keys = new ArrayList<>();
    try (Ledger ledger = openLedger()) {
      // 10 x 0.125 = 1.25 exactly; an 11th query does not fit.
      Fixture.registerAdult(ledger, "adult", new PureDp(1.25), 2000);
      for (int i = 0; i < 32; i++) {
        keys.add(ledger.addAnalyst("client" + i, Role.ANALYST).apiKey());
        ledger.grant("adult", "client" + i, new PureDp(1.25));
      }
    }
    String sql = String.format(ServerApiTest.SEX, "adult");
    List<PrivetServer> servers = start();
    try {
      CyclicBarrier start = new CyclicBarrier(32);
      ExecutorService clients = Executors.newFixedThreadPool(32);
      List<Future<Api.Response>> answers = new ArrayList<>();
      for (int i = 0; i < keys.size(); i++) {
        String key = keys.get(i);
        Api api = new Api(servers.get(i % servers.size()).url());
        answers.add(clients.submit(() -> {
          start.await();
          return api.query(key, sql, null);
        }));
      }
      Map<Integer, Integer> byStatus = new TreeMap<>();
      List<String> answeredBy = new ArrayList<>();
      for (Future<Api.Response> f : answers) {
        Api.Response r = f.get();
        byStatus.merge(r.status(), 1, Integer::sum);
        if (r.status() == 200) {
          // Each client asks once: its answer is its first charge (an analyst sees their own number).
          assertEquals(1, r.json().path("charge").path("id").asLong(), r.text());
          answeredBy.add(r.json().path("charge").path("analyst").asText());
        } else {
          assertEquals("budget_exceeded", r.errorCode(), r.text());
          assertFalse(r.text().contains("\"value\""), r.text());
        }
      }
      clients.shutdown();
      assertEquals(Map.of(200, 10, 409, 22), byStatus);
      try (Ledger ledger = openLedger()) {
        List<Charge> history = ledger.history("adult");
        assertEquals(10, history.size());
        assertEquals(answeredBy.stream().sorted().toList(), history.stream().map(Charge::analyst).sorted().toList(),
            "every 200 has its charge and every charge was answered");
        assertEquals(java.util.stream.LongStream.rangeClosed(1, 10).boxed().toList(),
            history.stream().map(Charge::id).toList(), "charge ids are dense");
      }
    } finally {
      servers.forEach(PrivetServer::close);
    }
  }
}
