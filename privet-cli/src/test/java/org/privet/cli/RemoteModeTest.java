package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.server.PrivetServer;
import org.privet.server.ServerOptions;

/**
 * {@code privet ... --server URL} against a real {@code privet serve} on loopback, with the key in
 * {@code $PRIVET_API_KEY}: the same output formats and exit codes as the local commands.
 */
class RemoteModeTest {
  static final String SQL = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.25,"
      + " group_selection_strategy = PUBLIC_GROUPS) sex, COUNT(*) AS people FROM adult GROUP BY sex";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  static Path ws;
  static PrivetServer server;
  static String aliceKey;

  record Run(int code, String out, String err) {}

  @BeforeAll
  static void start() throws Exception {
    ws = dir.resolve("ws");
    Path repo = Path.of("").toAbsolutePath();
    while (!Files.isDirectory(repo.resolve("data/adult-raw"))) {
      repo = repo.getParent();
    }
    CliRun reg = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "adult",
        "--source", repo.resolve("data/adult-raw/adult.data").toString(), "--no-header", "--columns",
        "age,workclass,fnlwgt,education,education_num,marital_status,occupation,relationship,race,sex,"
            + "capital_gain,capital_loss,hours_per_week,native_country,income",
        "--delimiter", ", ", "--null-string", "?", "--row-privacy", "--epsilon", "2", "--delta", "1e-6",
        "--public-keys", "sex=Female,Male");
    assertEquals(ExitCodes.OK, reg.code(), reg.toString());
    CliRun add = CliRun.of("analyst", "add", "--workspace", ws.toString(), "--name", "alice");
    assertEquals(ExitCodes.OK, add.code(), add.toString());
    aliceKey = add.out().trim();
    assertTrue(add.err().contains("shown only once"));
    assertEquals(ExitCodes.OK, CliRun.of("budget", "grant", "--workspace", ws.toString(), "--dataset", "adult",
        "--analyst", "alice", "--epsilon", "0.8").code()); // three queries of 0.25 fit
    server = PrivetServer.start(ServerOptions.builder(ws).port(0).build());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** A {@code privet} JVM with {@code $PRIVET_API_KEY} set (keys never go on the command line). */
  static Run remote(String key, String... args) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", cp, PrivetCommand.class.getName()));
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("--server", server.url()));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().remove("PRIVET_API_KEY");
    if (key != null) {
      pb.environment().put("PRIVET_API_KEY", key);
    }
    Path out = Files.createTempFile(dir, "out", ".txt");
    Path err = Files.createTempFile(dir, "err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  void remoteMode_sameFormatsAndExitCodesAsLocal() throws Exception {
    // JSON: the same document shape as a local run.
    Run json = remote(aliceKey, "query", "--format", "json", SQL);
    assertEquals(ExitCodes.OK, json.code(), json.err());
    CliRun local = CliRun.of("query", "--workspace", ws.toString(), "--analyst", "curator", "--format", "json", SQL);
    assertEquals(ExitCodes.OK, local.code(), local.toString());
    JsonNode r = JSON.readTree(json.out());
    JsonNode l = JSON.readTree(local.out());
    assertEquals(fieldNames(l), fieldNames(r));
    assertEquals(l.get("columns"), r.get("columns"));
    assertEquals(fieldNames(l.get("rows").get(0).get("people")), fieldNames(r.get("rows").get(0).get("people")));
    assertEquals("alice", r.path("charge").path("analyst").asText(), "the server's identity, not the OS user");
    assertTrue(json.err().contains("ledger charge #"), json.err());

    // Table and CSV: the same header lines.
    Run table = remote(aliceKey, "query", SQL);
    CliRun localTable = CliRun.of("query", "--workspace", ws.toString(), "--analyst", "curator", SQL);
    assertEquals(localTable.out().lines().findFirst(), table.out().lines().findFirst());
    Run csv = remote(aliceKey, "query", "--format", "csv", SQL);
    CliRun localCsv = CliRun.of("query", "--workspace", ws.toString(), "--analyst", "curator", "--format", "csv", SQL);
    assertEquals(localCsv.out().lines().findFirst(), csv.out().lines().findFirst());
    assertEquals(3, csv.out().lines().count());

    // Budget and history: the caller's view, exactly as the local commands print it.
    Run budget = remote(aliceKey, "budget", "show", "--dataset", "adult", "--format", "json");
    CliRun localBudget = CliRun.of("budget", "show", "--workspace", ws.toString(), "--dataset", "adult",
        "--analyst", "alice", "--format", "json");
    assertEquals(localBudget.out(), budget.out());
    Run history = remote(aliceKey, "budget", "history", "--dataset", "adult");
    assertEquals(ExitCodes.OK, history.code(), history.err());
    assertEquals(5, history.out().lines().count(), history.out()); // header, rule, alice's three charges
    Run list = remote(aliceKey, "dataset", "list", "--format", "json");
    assertEquals("adult", JSON.readTree(list.out()).get(0).get("name").asText());

    // Exit codes.
    assertEquals(ExitCodes.REFUSED, remote(aliceKey, "query", SQL.replace("sex, COUNT", "nosuch, COUNT")).code());
    assertEquals(ExitCodes.BUDGET_EXCEEDED, remote(aliceKey, "query", SQL.replace("0.25", "0.5")).code());
    assertEquals(ExitCodes.NOT_FOUND, remote(aliceKey, "query", SQL.replace("FROM adult", "FROM nosuch")).code());
    Run wrongKey = remote("pvk.0000000000000000.AAAA", "budget", "show", "--dataset", "adult");
    assertEquals(ExitCodes.USAGE, wrongKey.code());
    assertTrue(wrongKey.err().contains("unauthorized"), wrongKey.err());
    assertEquals(ExitCodes.USAGE, remote(null, "budget", "show", "--dataset", "adult").code());
    Run explain = remote(aliceKey, "query", "--explain", SQL);
    assertTrue(explain.out().contains("mechanisms:"), explain.out());
  }

  private static List<String> fieldNames(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
