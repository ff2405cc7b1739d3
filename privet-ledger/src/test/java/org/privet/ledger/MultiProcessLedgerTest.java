package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import org.privet.accounting.ApproxDp;
import org.privet.testing.SeededRandomSource;

/**
 * Several JVMs charging one workspace at once, and JVMs killed with SIGKILL at random points:
 * the total never exceeds the budget, and every released answer has its committed charge. Run
 * against each store: one SQLite workspace file, and one database on a real PostgreSQL server.
 */
@ParameterizedClass
@EnumSource(TestLedger.Kind.class)
class MultiProcessLedgerTest {
  @Parameter TestLedger.Kind kind;
  @TempDir Path dir;

  private static void register(TestLedger workspace, double epsilon) {
    try (Ledger ledger = workspace.open()) {
      ledger.register(DatasetSpec.builder().name("tiny").source("/data/tiny.csv")
          .privacyUnit(PrivacyUnit.column("id")).budget(new ApproxDp(epsilon, 0)).build());
    }
  }

  private Process start(TestLedger workspace, String analyst, double epsilon, int max, Path released)
      throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return new ProcessBuilder(java, "-Xmx64m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", cp, ChargingProcess.class.getName(),
        workspace.address(), "tiny", analyst, Double.toString(epsilon), Integer.toString(max),
        released.toString())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve(analyst + ".log").toFile())
        .start();
  }

  /** Complete lines "id analyst n" of the released files, keyed by charge id. */
  private static Map<Long, String> released(List<Path> files) throws IOException {
    Map<Long, String> out = new HashMap<>();
    for (Path f : files) {
      if (!Files.exists(f)) {
        continue;
      }
      String text = Files.readString(f, StandardCharsets.UTF_8);
      int end = text.lastIndexOf('\n');
      if (end < 0) {
        continue;
      }
      for (String line : text.substring(0, end).split("\n")) {
        String[] parts = line.split(" ");
        String previous = out.put(Long.parseLong(parts[0]), parts[1] + " #" + parts[2]);
        assertEquals(null, previous, "charge id released twice: " + line);
      }
    }
    return out;
  }

  @Test
  void charge_eightProcessesOnATinyBudget_neverJointlyExceedIt() throws Exception {
    TestLedger workspace = TestLedger.fresh(kind, dir.resolve("ws"));
    register(workspace, 1.0);
    List<Process> processes = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Path f = dir.resolve("released-" + i);
      files.add(f);
      // 8 processes x 6 attempts of 1/16 = 3 times the budget (exactly 16 charges fit).
      processes.add(start(workspace, "analyst" + i, 0.0625, 6, f));
    }
    for (Process p : processes) {
      assertTrue(p.waitFor(90, TimeUnit.SECONDS), "a charging process hung");
      assertEquals(0, p.exitValue(), "a charging process failed");
    }
    try (Ledger ledger = workspace.open()) {
      List<Charge> history = ledger.history("tiny");
      assertEquals(16, history.size(), "exactly the budget's worth of charges commits");
      ApproxDp spent = (ApproxDp) ledger.status("tiny").spent();
      assertTrue(spent.epsilon() <= 1.0, "spent " + spent);
      Map<Long, String> released = released(files);
      assertEquals(16, released.size());
      for (Charge c : history) {
        assertEquals(c.analyst() + " #" + c.query().substring(c.query().indexOf('#') + 1),
            released.get(c.id()), "charge " + c.id() + " has no matching release");
      }
    }
  }

  @Test
  void charge_processesKilledAtRandomPoints_leaveAConsistentLedger() throws Exception {
    TestLedger workspace = TestLedger.fresh(kind, dir.resolve("ws"));
    register(workspace, 1_000_000.0);
    SeededRandomSource random = new SeededRandomSource(20261125L);
    List<Path> files = new ArrayList<>();
    int round = 0;
    for (; round < 3; round++) {
      List<Process> processes = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        Path f = dir.resolve("released-" + round + "-" + i);
        files.add(f);
        processes.add(start(workspace, "r" + round + "p" + i, 0.0625, 1_000_000, f));
      }
      for (int i = 0; i < processes.size(); i++) {
        // Wait until the process has opened the ledger, then SIGKILL it 0 to 1.5 s into its
        // charging loop (each charge takes a few milliseconds to tens of them: the kill lands
        // before, inside and after charge transactions and between commit and release).
        Path log = dir.resolve("r" + round + "p" + i + ".log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (processes.get(i).isAlive() && System.nanoTime() < deadline
            && !(Files.exists(log) && Files.readString(log).contains("ready"))) {
          Thread.sleep(5);
        }
        Thread.sleep(random.nextLong(1500));
        processes.get(i).destroyForcibly(); // SIGKILL on Unix
      }
      for (Process p : processes) {
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      }
    }
    try (JdbcLedgerStore store = workspace.store();
        Ledger ledger = Ledger.using(store)) {
      if (kind == TestLedger.Kind.SQLITE) {
        assertEquals("ok", store.scalar("PRAGMA integrity_check"));
      }
      List<Charge> history = ledger.history("tiny");
      Map<Long, String> released = released(files);
      assertTrue(released.size() > 0, "no process got to release anything; the test shows nothing");
      Map<Long, Charge> byId = new HashMap<>();
      history.forEach(c -> byId.put(c.id(), c));
      for (Map.Entry<Long, String> r : released.entrySet()) {
        Charge c = byId.get(r.getKey());
        assertTrue(c != null, "released answer without a committed charge: " + r.getValue());
        assertEquals(r.getValue(), c.analyst() + " #" + c.query().substring(c.query().indexOf('#') + 1));
      }
      // No committed charge is lost or rolled back: ids are dense and the stored running spend
      // agrees with a fresh composition of the history.
      for (int i = 0; i < history.size(); i++) {
        assertEquals(i + 1, history.get(i).id(), "gap in the charge sequence");
      }
      assertTrue(history.size() >= released.size());
      assertTrue(history.size() - released.size() <= 3 * 3,
          "at most one unreleased (killed after commit) charge per process");
      System.out.println("kill test: " + history.size() + " charges, " + released.size() + " released");
      assertEquals(history.get(history.size() - 1).spent(), ledger.status("tiny").spent());
    }
  }
}
