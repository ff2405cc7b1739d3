package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.ledger.Ledger;

class QueryCommandTest {
  @TempDir Path dir;
  Path ws;

  static final String COUNT_BY_CITY =
      "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_groups_contributed = 1,"
          + " group_selection_strategy = PUBLIC_GROUPS) city, COUNT(*) AS n FROM visits GROUP BY city";

  @BeforeEach
  void dataset() throws Exception {
    ws = dir.resolve("ws");
    Path csv = VisitsCsv.write(dir.resolve("visits.csv"));
    CliRun r = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "visits",
        "--source", csv.toString(), "--privacy-unit", "user_id", "--epsilon", "2.5", "--delta", "1e-6",
        "--public-keys", "city=Lima,Oslo", "--bounds", "minutes=0:60");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
  }

  private CliRun query(String... args) {
    List<String> a = new ArrayList<>(List.of("query", "--workspace", ws.toString(), "--analyst", "ann"));
    a.addAll(List.of(args));
    return CliRun.of(a.toArray(String[]::new));
  }

  private int charges() {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.history("visits").size();
    }
  }

  @Test
  void query_publicGroups_printsBothGroupsWithIntervalsAndCharges() {
    CliRun r = query(COUNT_BY_CITY);
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.out().contains("Lima") && r.out().contains("Oslo"), r.out());
    assertTrue(r.out().contains("95% CI"), r.out());
    assertTrue(r.err().contains("charged epsilon="), r.err());
    assertEquals(1, charges());
  }

  @Test
  void query_jsonFormat_rowsWithIntervalsAndTheCharge() throws Exception {
    CliRun r = query("--format", "json", COUNT_BY_CITY);
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    JsonNode j = new ObjectMapper().readTree(r.out());
    assertEquals(List.of("city", "n"), List.of(j.get("columns").get(0).asText(), j.get("columns").get(1).asText()));
    assertEquals(2, j.get("rows").size());
    JsonNode n = j.get("rows").get(0).get("n");
    assertTrue(n.get("lower").asDouble() <= n.get("value").asDouble()
        && n.get("value").asDouble() <= n.get("upper").asDouble(), n.toString());
    assertEquals("ann", j.get("charge").get("analyst").asText());
    assertEquals(COUNT_BY_CITY, j.get("charge").get("query").asText());
  }

  @Test
  void query_csvFormat_headerWithIntervalColumns() {
    CliRun r = query("--format", "csv", COUNT_BY_CITY);
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.out().startsWith("city,n,n_lower,n_upper,n_level\n"), r.out());
    assertEquals(3, r.out().strip().split("\n").length, r.out());
  }

  @Test
  void query_explain_showsPlanAndChargesNothing() {
    CliRun r = query("--explain", COUNT_BY_CITY);
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertFalse(r.out().isBlank());
    CliRun sqlExplain = query("EXPLAIN " + COUNT_BY_CITY);
    assertEquals(ExitCodes.OK, sqlExplain.code(), sqlExplain.toString());
    assertEquals(0, charges());
  }

  /** Issue 24: a default that changes the answer relative to BigQuery is named by EXPLAIN. */
  @Test
  void query_explain_namesTheDifferencesFromBigQuery() {
    // Without row bounds L∞ is estimated privately, as ZetaSQL counts every row: no difference,
    // and EXPLAIN shows the estimate's share.
    CliRun r = query("--explain", COUNT_BY_CITY);
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.out().contains("L∞ (max rows per unit per group) estimated privately"), r.out());
    assertFalse(r.out().contains("counts at most 1 row"), r.out());
    // Beside an AVG, L∞ stays 1 (average of per-unit averages): named as a difference.
    CliRun withAvg = query("--explain", COUNT_BY_CITY.replace("COUNT(*) AS n",
        "COUNT(*) AS n, AVG(minutes, contribution_bounds_per_group => (0, 10)) AS a"));
    assertTrue(withAvg.out().contains("difference from BigQuery: n: counts at most 1 row per"
        + " privacy unit per group"), withAvg.out());
    CliRun bounded = query("--explain", COUNT_BY_CITY.replace("COUNT(*)",
        "COUNT(*, contribution_bounds_per_group => (0, 3))"));
    assertFalse(bounded.out().contains("difference from BigQuery"), bounded.out());
    assertEquals(0, charges());
  }

  @Test
  void query_unsafeSql_exitsRefusedWithPositionAndChargesNothing() {
    for (String sql : List.of(
        "SELECT * FROM visits",
        "SELECT user_id FROM visits",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(minutes) AS s FROM (SELECT * FROM visits LIMIT 5)",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, privacy_unit_column = city) COUNT(*) AS n FROM visits",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = -1) COUNT(*) AS n FROM visits")) {
      CliRun r = query(sql);
      assertEquals(ExitCodes.REFUSED, r.code(), sql + "\n" + r);
      assertTrue(r.err().contains("line 1, column"), r.err());
      assertFalse(r.err().contains("Oslo") || r.err().contains("Lima"), "no data values in errors: " + r.err());
    }
    assertEquals(0, charges());
  }

  @Test
  void query_unknownDataset_exitsNotFound() {
    CliRun r = query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM nope");
    assertEquals(ExitCodes.NOT_FOUND, r.code(), r.toString());
  }

  @Test
  void query_overBudget_exitsBudgetExceededAndChargesNothing() {
    assertEquals(ExitCodes.OK, query(COUNT_BY_CITY).code());
    assertEquals(ExitCodes.OK, query(COUNT_BY_CITY).code());
    CliRun third = query(COUNT_BY_CITY);
    assertEquals(ExitCodes.BUDGET_EXCEEDED, third.code(), third.toString());
    assertTrue(third.out().isEmpty(), "nothing released: " + third.out());
    assertEquals(2, charges());
    CliRun small = query(COUNT_BY_CITY.replace("epsilon = 1", "epsilon = 0.5"));
    assertEquals(ExitCodes.OK, small.code(), small.toString());
    assertEquals(3, charges());
  }

  @Test
  void query_analystShare_capsThatAnalyst() {
    assertEquals(ExitCodes.OK, CliRun.of("budget", "grant", "--workspace", ws.toString(),
        "--dataset", "visits", "--analyst", "ann", "--epsilon", "0.5").code());
    CliRun r = query(COUNT_BY_CITY);
    assertEquals(ExitCodes.BUDGET_EXCEEDED, r.code(), r.toString());
    assertTrue(r.err().contains("ann"), r.err());
    assertEquals(0, charges());
  }

  @Test
  void query_rhoBudget_zcdpAccountantAddsRhos() {
    CliRun reg = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "rhos",
        "--source", dir.resolve("visits.csv").toString(), "--privacy-unit", "user_id", "--rho", "0.25",
        "--public-keys", "city=Lima,Oslo");
    assertEquals(ExitCodes.OK, reg.code(), reg.toString());
    assertTrue(reg.out().contains("zcdp accountant"), reg.out());
    String sql = COUNT_BY_CITY.replace("epsilon = 1", "rho = 0.1").replace("FROM visits", "FROM rhos");
    assertEquals(ExitCodes.OK, query(sql).code());
    assertEquals(ExitCodes.OK, query(sql).code());
    CliRun third = query(sql);
    assertEquals(ExitCodes.BUDGET_EXCEEDED, third.code(), third.toString());
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(2, ledger.history("rhos").size());
      assertTrue(((org.privet.accounting.Zcdp) ledger.status("rhos").spent()).rho() <= 0.25);
    }
  }

  @Test
  void query_privateGroupsUnderRhoDeltaDataset_chargedInRhoAndDeltaUntilDeltaRunsOut() {
    CliRun reg = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "rd",
        "--source", dir.resolve("visits.csv").toString(), "--privacy-unit", "user_id", "--rho", "1",
        "--delta", "1.5e-6");
    assertEquals(ExitCodes.OK, reg.code(), reg.toString());
    assertTrue(reg.out().contains("rho=1, delta=1.5e-6") && reg.out().contains("zcdp"), reg.out());
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = 0.1, delta = 1e-6,"
        + " max_groups_contributed = 1) city, COUNT(*) AS n FROM rd GROUP BY city";
    CliRun first = query(sql);
    assertEquals(ExitCodes.OK, first.code(), first.toString());
    assertTrue(first.out().contains("Oslo") && first.out().contains("Lima"), first.out());
    CliRun second = query(sql);
    assertEquals(ExitCodes.BUDGET_EXCEEDED, second.code(), "δ 1.5e-6 pays one selection only");
    CliRun show = CliRun.of("budget", "show", "--workspace", ws.toString(), "--dataset", "rd");
    assertEquals(ExitCodes.OK, show.code(), show.toString());
    assertTrue(show.out().contains("delta="), show.out());
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("rd").size());
      org.privet.accounting.ApproxZcdp spent =
          (org.privet.accounting.ApproxZcdp) ledger.status("rd").spent();
      assertTrue(spent.rho() <= 0.1 && spent.delta() <= 1e-6, spent.toString());
    }
  }

  @Test
  void query_boundsFromRegistration_usedWhenQueryGivesNone() {
    CliRun r = query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5) AVG(minutes) AS m FROM visits");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
  }
}
