package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import org.privet.accounting.ApproxDp;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;
import org.privet.ledger.PostgresLedger;
import org.privet.testing.SeededRandomSource;
import org.privet.testing.TestPostgres;

/**
 * Separate {@code privet query} processes on one workspace: together they never exceed the budget,
 * and killing them with SIGKILL at random points never leaves a released answer without its charge.
 * Run with the workspace's SQLite ledger, and with a ledger shared through a real PostgreSQL server
 * ({@code --ledger-url}, {@code PRIVET_LEDGER_URL}).
 */
@ParameterizedClass
@ValueSource(strings = {"sqlite", "postgres"})
class QueryProcessesTest {
  @Parameter String store;
  @TempDir Path dir;
  Path ws;
  /** The PostgreSQL ledger's URL, or null for the workspace's SQLite file. */
  String ledgerUrl;

  static final String SQL = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
      + " group_selection_strategy = PUBLIC_GROUPS) city, COUNT(*) AS n FROM visits GROUP BY city";

  @BeforeEach
  void dataset() throws Exception {
    ws = dir.resolve("ws");
    ledgerUrl = store.equals("postgres") ? TestPostgres.server().newDatabase() : null;
    Path csv = dir.resolve("visits.csv");
    StringBuilder rows = new StringBuilder("user_id,city\n");
    for (int i = 0; i < 100; i++) {
      rows.append(i).append(',').append(i % 2 == 0 ? "Oslo" : "Lima").append('\n');
    }
    Files.writeString(csv, rows);
  }

  private void register(double epsilon) {
    List<String> args = new ArrayList<>(List.of("dataset", "register", "--workspace", ws.toString(),
        "--name", "visits", "--source", dir.resolve("visits.csv").toString(), "--privacy-unit", "user_id",
        "--epsilon", Double.toString(epsilon), "--public-keys", "city=Lima,Oslo"));
    if (ledgerUrl != null) {
      args.addAll(List.of("--ledger-url", ledgerUrl));
    }
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.code(), r.toString());
  }

  private Ledger openLedger() {
    return ledgerUrl == null ? Ledger.open(ws)
        : Ledger.open(new PostgresLedger(ledgerUrl, Optional.empty(), Optional.empty()));
  }

  /**
   * A {@code privet query} JVM; the workspace comes from {@code PRIVET_HOME} and the shared ledger
   * from {@code PRIVET_LEDGER_URL}, as scripts set them.
   */
  private Process start(String analyst, Path out) throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    ProcessBuilder pb = new ProcessBuilder(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", cp, PrivetCommand.class.getName(),
        "query", "--analyst", analyst, "--format", "json", SQL);
    pb.environment().put("PRIVET_HOME", ws.toString());
    if (ledgerUrl != null) {
      pb.environment().put("PRIVET_LEDGER_URL", ledgerUrl);
    }
    return pb
        .redirectOutput(out.toFile())
        .redirectError(out.resolveSibling(out.getFileName() + ".err").toFile())
        .start();
  }

  @Test
  void query_fourConcurrentProcesses_onlyTheBudgetsWorthSucceeds() throws Exception {
    register(2.5); // two queries of epsilon 1 fit
    List<Process> ps = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ps.add(start("p" + i, dir.resolve("out-" + i)));
    }
    int ok = 0;
    int exceeded = 0;
    for (int i = 0; i < ps.size(); i++) {
      Process p = ps.get(i);
      assertTrue(p.waitFor(120, TimeUnit.SECONDS), "a query process hung");
      if (p.exitValue() == ExitCodes.OK) {
        ok++;
        assertTrue(Files.readString(dir.resolve("out-" + i)).contains("\"rows\""));
      } else {
        assertEquals(ExitCodes.BUDGET_EXCEEDED, p.exitValue(),
            Files.readString(dir.resolve("out-" + i + ".err")));
        assertEquals("", Files.readString(dir.resolve("out-" + i)), "a refused process released nothing");
        exceeded++;
      }
    }
    assertEquals(2, ok);
    assertEquals(2, exceeded);
    try (Ledger ledger = openLedger()) {
      assertEquals(2, ledger.history("visits").size());
      assertTrue(((ApproxDp) ledger.status("visits").spent()).epsilon() <= 2.5);
    }
  }

  @Test
  void query_processesKilledAtRandomPoints_everyReleasedAnswerHasItsCharge() throws Exception {
    register(1_000.0);
    SeededRandomSource random = new SeededRandomSource(5L);
    List<Path> outputs = new ArrayList<>();
    for (int round = 0; round < 2; round++) {
      List<Process> ps = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Path out = dir.resolve("kill-" + round + "-" + i);
        outputs.add(out);
        ps.add(start("r" + round + "p" + i, out));
      }
      for (int i = 0; i < ps.size(); i++) {
        // Wait until the process is about to charge (it says so on stderr), then kill it 0 to
        // 400 ms later: before the commit, between commit and release, or after the release.
        Path err = dir.resolve("kill-" + round + "-" + i + ".err");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (ps.get(i).isAlive() && System.nanoTime() < deadline
            && !(Files.exists(err) && Files.readString(err).contains("running on dataset"))) {
          Thread.sleep(10);
        }
        Thread.sleep(random.nextLong(400));
        ps.get(i).destroyForcibly(); // SIGKILL on Unix
      }
      for (Process p : ps) {
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      }
    }
    try (Ledger ledger = openLedger()) {
      Map<Long, Charge> byId = new HashMap<>();
      ledger.history("visits").forEach(c -> byId.put(c.id(), c));
      int released = 0;
      for (Path out : outputs) {
        String text = Files.readString(out);
        JsonNode answer;
        try {
          answer = new ObjectMapper().readTree(text);
        } catch (IOException torn) {
          continue; // killed while printing: a partial answer still had its charge committed first
        }
        if (answer == null || answer.get("charge") == null) {
          continue;
        }
        released++;
        Charge c = byId.get(answer.get("charge").get("id").asLong());
        assertTrue(c != null, "released answer without a committed charge: " + out);
        assertEquals(SQL, c.query());
      }
      int n = byId.size();
      for (long id = 1; id <= n; id++) {
        assertTrue(byId.containsKey(id), "gap in the charge sequence at " + id);
      }
      assertTrue(n >= released, n + " charges, " + released + " released");
      assertTrue(n >= 1, "no process got as far as its charge; the test showed nothing");
    }
  }
}
