package org.privet.bench.server;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PureDp;
import java.util.Optional;
import org.privet.curator.LedgerBudgetCharger;
import org.privet.curator.QueryExecution;
import org.privet.curator.ReleaseJson;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.Release;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;
import org.privet.server.PrivetServer;
import org.privet.server.ServerOptions;

/**
 * Server benchmark harness (not a timed test): requests per second and p50/p99 latency of
 * {@code POST /v1/query} (a DP count on UCI Adult, charged to the ledger) at 1, 8 and 32 concurrent
 * clients over loopback HTTP, against the same query through the in-process release path
 * ({@link QueryExecution} with a ledger charge) at the same concurrency, as the baseline, and the
 * in-process path doing the server's ledger work too (release record, stored answer). Each phase
 * uses a fresh workspace (the ledger re-reads a dataset's history on every charge, so phases must
 * start from the same history). Counts answers other than 200 ("lost").
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar org.privet.bench.server.ServerBench
 * [requests per phase, default 320] [path to adult.data]}.
 */
public final class ServerBench {
  static final String SQL = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.001) COUNT(*) AS n FROM adult";
  static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education", "education_num",
      "marital_status", "occupation", "relationship", "race", "sex", "capital_gain", "capital_loss",
      "hours_per_week", "native_country", "income");

  private ServerBench() {}

  record Stats(int clients, int requests, int lost, double seconds, double p50, double p99) {
    double rps() {
      return requests / seconds;
    }
  }

  interface Call {
    boolean run(int client) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    int requests = args.length > 0 ? Integer.parseInt(args[0]) : 320;
    Path adult = Path.of(args.length > 1 ? args[1] : "data/adult-raw/adult.data").toAbsolutePath();
    int[] levels = {1, 8, 32};
    System.out.printf(Locale.ROOT, "load average before: %.2f; %d cores; %d requests per phase%n",
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        Runtime.getRuntime().availableProcessors(), requests);
    List<String> rows = new ArrayList<>();
    for (int clients : levels) {
      Stats base = inProcess(adult, clients, requests, false);
      Stats stored = inProcess(adult, clients, requests, true);
      Stats http = server(adult, clients, requests);
      rows.add(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %+.1f | %d |",
          clients, base.rps(), base.p50(), base.p99(), stored.p50(), http.rps(), http.p50(), http.p99(),
          http.p50() - base.p50(), http.p50() - stored.p50(), http.lost()));
    }
    System.out.println();
    System.out.println("| clients | in-process rps | p50 ms | p99 ms | in-process + stored answer p50 ms | server rps | p50 ms | p99 ms"
        + " | server - in-process p50 ms | server - (in-process + stored answer) p50 ms | lost |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
    rows.forEach(System.out::println);
    System.out.printf(Locale.ROOT, "load average after: %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static Path workspace(Path adult, int analysts, List<String> keys) throws Exception {
    Path ws = Files.createTempDirectory("privet-server-bench-");
    try (Ledger ledger = Ledger.open(ws);
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = DatasetSpec.builder().name("adult").source(adult.toString())
          .csv(new CsvOptions(false, ", ", COLUMNS, "?")).privacyUnit(PrivacyUnit.row())
          .budget(new ApproxDp(1_000_000, 1e-6)).build();
      ledger.register(spec, org.privet.curator.LedgerCatalog.inferred(spec, backend));
      for (int i = 0; i < analysts; i++) {
        keys.add(ledger.addAnalyst("client" + i, Role.ANALYST).apiKey());
        ledger.grant("adult", "client" + i, new PureDp(10_000));
      }
    }
    return ws;
  }

  /**
   * The baseline: the CLI's release path in this JVM, one backend per client thread. With
   * {@code storeAnswer}, also the server's ledger work (the release record with the charge, then
   * the answer committed), so that the difference to the server is HTTP, authentication and the
   * worker hand-off.
   */
  private static Stats inProcess(Path adult, int clients, int requests, boolean storeAnswer) throws Exception {
    Path ws = workspace(adult, clients, new ArrayList<>());
    try (Ledger ledger = Ledger.open(ws)) {
      List<DuckDbBackend> backends = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        backends.add(DuckDbBackend.inMemory());
      }
      PrintWriter progress = new PrintWriter(new StringWriter());
      try {
        return measure(clients, requests, client -> {
          QueryExecution ex = new QueryExecution(ledger, backends.get(client));
          if (!storeAnswer) {
            ex.run(ex.parse(SQL), "client" + client, progress);
            return true;
          }
          var st = ex.parse(SQL);
          var charger = LedgerBudgetCharger.forRelease(ledger, ex.datasetOf(st), "client" + client, SQL,
              new Release.Claim(Optional.empty(), "bench"));
          QueryExecution.Outcome o = ex.run(st, charger);
          ledger.storeAnswer(o.charge().id(), LedgerJson.write(ReleaseJson.of(o)));
          return true;
        });
      } finally {
        backends.forEach(DuckDbBackend::close);
      }
    }
  }

  /** The server on loopback, one key per client, over real HTTP. */
  private static Stats server(Path adult, int clients, int requests) throws Exception {
    List<String> keys = new ArrayList<>();
    Path ws = workspace(adult, clients, keys);
    HttpClient http = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
    String body = "{\"sql\": \"" + SQL + "\"}";
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      URI uri = URI.create(server.url() + "/v1/query");
      return measure(clients, requests, client -> {
        HttpRequest r = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
            .header("Authorization", "Bearer " + keys.get(client))
            .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.send(r, HttpResponse.BodyHandlers.ofString()).statusCode() == 200;
      });
    }
  }

  private static Stats measure(int clients, int requests, Call call) throws Exception {
    // Warm up: a few calls per client, not measured.
    for (int c = 0; c < clients; c++) {
      for (int i = 0; i < 3; i++) {
        call.run(c);
      }
    }
    int perClient = Math.max(1, requests / clients);
    double[] latencies = new double[perClient * clients];
    AtomicInteger lost = new AtomicInteger();
    CyclicBarrier start = new CyclicBarrier(clients + 1);
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      int client = c;
      Thread t = new Thread(() -> {
        try {
          start.await();
          for (int i = 0; i < perClient; i++) {
            long t0 = System.nanoTime();
            boolean ok;
            try {
              ok = call.run(client);
            } catch (Exception e) {
              ok = false;
            }
            latencies[client * perClient + i] = (System.nanoTime() - t0) / 1e6;
            if (!ok) {
              lost.incrementAndGet();
            }
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      t.start();
      threads.add(t);
    }
    start.await();
    long t0 = System.nanoTime();
    for (Thread t : threads) {
      t.join();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    Arrays.sort(latencies);
    return new Stats(clients, latencies.length, lost.get(), seconds, quantile(latencies, 0.5), quantile(latencies, 0.99));
  }

  private static double quantile(double[] sorted, double q) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
  }
}
