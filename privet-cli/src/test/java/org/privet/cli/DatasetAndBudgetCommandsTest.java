package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.Budget;
import org.privet.accounting.PureDp;
import org.privet.ledger.Ledger;

class DatasetAndBudgetCommandsTest {
  @TempDir Path dir;
  Path ws;
  Path csv;

  @BeforeEach
  void data() throws Exception {
    ws = dir.resolve("ws");
    csv = dir.resolve("people.csv");
    Files.writeString(csv, "id,age\n1,30\n2,40\n");
  }

  private CliRun register(String... extra) {
    List<String> args = new java.util.ArrayList<>(List.of("dataset", "register", "--workspace", ws.toString(),
        "--name", "people", "--source", csv.toString(), "--privacy-unit", "id", "--epsilon", "1"));
    args.addAll(List.of(extra));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void datasetRegister_validForm_registersAndShows() {
    CliRun r = register("--delta", "1e-6", "--bounds", "age=0:120", "--public-keys", "age=30,40");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.out().contains("registered dataset 'people'"), r.out());
    CliRun show = CliRun.of("dataset", "show", "--workspace", ws.toString(), "--name", "people");
    assertEquals(ExitCodes.OK, show.code(), show.toString());
    assertTrue(show.out().contains("column id"), show.out());
    assertTrue(show.out().contains("epsilon=1, delta=1e-6"), show.out());
    assertTrue(show.out().contains("[0.0, 120.0]"), show.out());
    CliRun list = CliRun.of("dataset", "list", "--workspace", ws.toString(), "--format", "csv");
    assertEquals(ExitCodes.OK, list.code(), list.toString());
    assertTrue(list.out().startsWith("name,privacy unit,budget,accountant,source\npeople,column id,"), list.out());
  }

  @Test
  void datasetRegister_nameEqualIgnoringCase_exitsUsage() {
    assertEquals(ExitCodes.OK, register().code());
    List<String> args = List.of("dataset", "register", "--workspace", ws.toString(), "--name", "PEOPLE",
        "--source", csv.toString(), "--privacy-unit", "id", "--epsilon", "1");
    CliRun again = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.USAGE, again.code(), again.toString());
    assertTrue(again.err().contains("must differ ignoring case"), again.err());
  }

  @Test
  void datasetRename_newName_queriesAndHistoryFollow() {
    assertEquals(ExitCodes.OK, register().code());
    CliRun r = CliRun.of("dataset", "rename", "--workspace", ws.toString(), "--name", "people", "--to", "staff");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.out().contains("now named 'staff'"), r.out());
    CliRun old = CliRun.of("dataset", "show", "--workspace", ws.toString(), "--name", "people");
    assertEquals(ExitCodes.NOT_FOUND, old.code(), old.toString());
    CliRun taken = CliRun.of("dataset", "rename", "--workspace", ws.toString(), "--name", "staff", "--to", "People");
    assertEquals(ExitCodes.USAGE, taken.code(), taken.toString());
    CliRun show = CliRun.of("dataset", "show", "--workspace", ws.toString(), "--name", "STAFF");
    assertEquals(ExitCodes.OK, show.code(), show.toString());
  }

  @Test
  void datasetRegister_duplicate_exitsUsage() {
    assertEquals(ExitCodes.OK, register().code());
    CliRun again = register();
    assertEquals(ExitCodes.USAGE, again.code(), again.toString());
    assertTrue(again.err().contains("already registered"), again.err());
  }

  @Test
  void datasetRegister_badInput_exitsWithFixedCodes() {
    assertEquals(ExitCodes.USAGE, register("--epsilon", "-1").code());
    assertEquals(ExitCodes.USAGE, CliRun.of("dataset", "register", "--workspace", ws.toString(),
        "--name", "people", "--source", csv.toString(), "--epsilon", "1").code(), "privacy unit missing");
    assertEquals(ExitCodes.USAGE, register("--row-privacy").code(), "two privacy units");
    assertEquals(ExitCodes.USAGE, register("--accountant", "zcdp").code(), "zcdp needs delta");
    assertEquals(ExitCodes.USAGE, register("--relation", "replace").code());
    assertEquals(ExitCodes.USAGE, register("--bounds", "age=3").code());
    CliRun missing = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "x",
        "--source", dir.resolve("nope.csv").toString(), "--row-privacy", "--epsilon", "1");
    assertEquals(ExitCodes.NOT_FOUND, missing.code(), missing.toString());
    assertEquals(ExitCodes.NOT_FOUND,
        CliRun.of("dataset", "show", "--workspace", ws.toString(), "--name", "nope").code());
    assertEquals(ExitCodes.USAGE, CliRun.of("dataset", "frobnicate").code());
  }

  @Test
  void budgetShowAndHistory_afterCharges_reportSpendAsJson() throws Exception {
    assertEquals(ExitCodes.OK, register().code());
    try (Ledger ledger = Ledger.open(ws)) {
      ledger.charge("people", "ann", "SELECT 1", List.of(new PureDp(0.25)));
      ledger.charge("people", "bob", "SELECT 2", List.of(new PureDp(0.5)));
    }
    CliRun show = CliRun.of("budget", "show", "--workspace", ws.toString(), "--dataset", "people", "--format", "json");
    assertEquals(ExitCodes.OK, show.code(), show.toString());
    JsonNode s = new ObjectMapper().readTree(show.out());
    assertEquals(0.75, s.get("spent").get("epsilon").asDouble());
    assertEquals(0.25, s.get("remaining").get("epsilon").asDouble());
    assertEquals(2, s.get("charges").asInt());

    CliRun history = CliRun.of("budget", "history", "--workspace", ws.toString(), "--dataset", "people", "--format", "json");
    assertEquals(ExitCodes.OK, history.code(), history.toString());
    JsonNode h = new ObjectMapper().readTree(history.out());
    assertTrue(h.isArray());
    assertEquals(2, h.size());
    assertEquals("ann", h.get(0).get("analyst").asText());
    assertEquals("SELECT 2", h.get(1).get("query").asText());
    assertEquals(0.5, h.get(1).get("cost").get(0).get("epsilon").asDouble());

    CliRun table = CliRun.of("budget", "history", "--workspace", ws.toString(), "--dataset", "people");
    assertTrue(table.out().contains("SELECT 2"), table.out());
  }

  @Test
  void budgetGrant_share_capsTheAnalyst() throws Exception {
    assertEquals(ExitCodes.OK, register().code());
    CliRun g = CliRun.of("budget", "grant", "--workspace", ws.toString(), "--dataset", "people",
        "--analyst", "ann", "--epsilon", "0.25");
    assertEquals(ExitCodes.OK, g.code(), g.toString());
    CliRun show = CliRun.of("budget", "show", "--workspace", ws.toString(), "--dataset", "people",
        "--analyst", "ann", "--format", "json");
    JsonNode s = new ObjectMapper().readTree(show.out());
    assertEquals(0.25, s.get("total").get("epsilon").asDouble());
    assertEquals(ExitCodes.USAGE, CliRun.of("budget", "grant", "--workspace", ws.toString(),
        "--dataset", "people", "--analyst", "ann", "--epsilon", "5").code(), "share above the total");
  }

  @Test
  void workspace_precedence_flagThenEnvironmentThenHome() {
    assertEquals(Path.of("/a").toAbsolutePath(),
        WorkspaceOption.resolve(Path.of("/a"), Map.of("PRIVET_HOME", "/b"), "/home/u"));
    assertEquals(Path.of("/b"), WorkspaceOption.resolve(null, Map.of("PRIVET_HOME", "/b"), "/home/u"));
    assertEquals(Path.of("/home/u/.privet"), WorkspaceOption.resolve(null, Map.of(), "/home/u"));
  }

  @Test
  void ledgerUrl_passwordFromEnvironmentOrFile_neverFromTheUrlNorShown() throws Exception {
    assertTrue(WorkspaceOption.server(null, null, null, null, Map.of()).isEmpty(), "SQLite by default");
    String url = "jdbc:postgresql://db.example:5432/privet";
    org.privet.ledger.PostgresLedger fromEnv = WorkspaceOption.server(null, null, null, null,
        Map.of("PRIVET_LEDGER_URL", url, "PRIVET_LEDGER_USER", "curator", "PRIVET_LEDGER_PASSWORD", "s3cret")).get();
    assertEquals(url, fromEnv.url());
    assertEquals(java.util.Optional.of("curator"), fromEnv.user());
    assertEquals("s3cret", new String(fromEnv.password().get()));
    assertTrue(!fromEnv.toString().contains("s3cret"), fromEnv.toString());
    assertEquals("other", new String(WorkspaceOption.server(url, "u", "DB_PASS", null,
        Map.of("DB_PASS", "other", "PRIVET_LEDGER_PASSWORD", "s3cret")).get().password().get()));
    Path file = ws.resolveSibling("pgpass");
    Files.writeString(file, "from-file\n");
    assertEquals("from-file", new String(WorkspaceOption.server(url, null, null, file, Map.of()).get()
        .password().get()));
    IllegalArgumentException inUrl = assertThrows(IllegalArgumentException.class,
        () -> WorkspaceOption.server(url + "?password=s3cret", null, null, null, Map.of()));
    assertTrue(inUrl.getMessage().contains("url") && !inUrl.getMessage().contains("s3cret"), inUrl.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> WorkspaceOption.server(url, null, "UNSET_VARIABLE", null, Map.of()));
    assertThrows(IllegalArgumentException.class,
        () -> WorkspaceOption.server(null, null, "DB_PASS", null, Map.of("DB_PASS", "x")));
    assertThrows(IllegalArgumentException.class,
        () -> WorkspaceOption.server("jdbc:sqlite:/tmp/x.db", null, null, null, Map.of()));
    CliRun refused = CliRun.of("dataset", "list", "--ledger-url", url + "?password=s3cret");
    assertEquals(ExitCodes.USAGE, refused.code(), refused.toString());
    assertTrue(!refused.err().contains("s3cret"), refused.err());
  }

  @Test
  void lossText_fourDigits_roundedInTheSafeDirection() {
    assertEquals("epsilon=2", Budget.describe(new PureDp(1.9999999999980005), RoundingMode.CEILING));
    assertEquals("epsilon=1.999", Budget.describe(new PureDp(1.9999999999980005), RoundingMode.FLOOR));
    assertEquals("epsilon=0.3334, delta=1e-6", Budget.describe(new org.privet.accounting.ApproxDp(1.0 / 3, 9.99999999999E-7), RoundingMode.CEILING));
    assertEquals("rho=1.234e-7", Budget.describe(new org.privet.accounting.Zcdp(1.234567e-7), RoundingMode.FLOOR));
  }

  @Test
  void textTable_csvQuoting_followsRfc4180() {
    assertEquals("a,\"b,c\",\"say \"\"hi\"\"\"", TextTable.csvLine(List.of("a", "b,c", "say \"hi\"")));
  }
}
