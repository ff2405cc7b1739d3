package org.privet.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;
import org.privet.cli.VisitsCsv;
import org.privet.ledger.Ledger;

/** {@code privet plan} end to end on a small registered dataset (issue 16, item 2). */
class PlanCommandTest {
  @TempDir Path dir;
  Path ws;
  Path workload;

  private static String count(double target) {
    return "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => " + target + "),"
        + " max_groups_contributed = 1, group_selection_strategy = PUBLIC_GROUPS) city,"
        + " COUNT(*) AS n FROM visits GROUP BY city";
  }

  @BeforeEach
  void dataset() throws Exception {
    ws = dir.resolve("ws");
    Path csv = VisitsCsv.write(dir.resolve("visits.csv"));
    CliRun r = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "visits",
        "--source", csv.toString(), "--privacy-unit", "user_id", "--epsilon", "2.5", "--delta",
        "1e-6", "--public-keys", "city=Lima,Oslo");
    assertEquals(0, r.code(), r.toString());
    workload = dir.resolve("w.sql");
    Files.writeString(workload, "-- two counts, the second with twice the target error\n"
        + count(10) + ";\n" + count(20) + ";\n");
  }

  private int charges() {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.history("visits").size();
    }
  }

  @Test
  void plan_twoCounts_reportsTableAndBaselinesWithoutCharging() {
    CliRun r = CliRun.of("plan", "--workspace", ws.toString(), "--dataset", "visits",
        "--workload", workload.toString(), "--budget-epsilon", "1");
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().contains("plan for 2 queries") && r.out().contains("laplace+basic"),
        r.out());
    assertTrue(r.out().contains("equal split, laplace+basic"), r.out());
    assertTrue(r.out().contains("planned max relative error"), r.out());
    assertEquals(0, charges());
  }

  @Test
  void plan_run_chargesTheWholePlanOnceThenAnswersEveryQuery() {
    CliRun r = CliRun.of("plan", "--workspace", ws.toString(), "--dataset", "visits",
        "--workload", workload.toString(), "--budget-epsilon", "1", "--run", "--analyst", "ann");
    assertEquals(0, r.code(), r.toString());
    assertEquals(1, charges());
    assertTrue(r.out().contains("query 1:") && r.out().contains("query 2:"), r.out());
    assertTrue(r.out().contains("Lima") && r.out().contains("Oslo"), r.out());
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(2, ledger.history("visits").get(0).cost().size()); // one geometric per query
    }
  }

  @Test
  void plan_runBeyondRemainingBudget_refusedBeforeAnyCharge() {
    CliRun r = CliRun.of("plan", "--workspace", ws.toString(), "--dataset", "visits",
        "--workload", workload.toString(), "--budget-epsilon", "3", "--run", "--analyst", "ann");
    assertEquals(4, r.code(), r.toString()); // budget_exceeded: the whole plan, as one charge
    assertEquals(0, charges());
  }

  @Test
  void plan_queryWithoutTargets_refusedChargingNothing() throws Exception {
    Files.writeString(workload, count(10) + ";\n" + "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS"
        + " (epsilon = 1, max_groups_contributed = 1, group_selection_strategy = PUBLIC_GROUPS)"
        + " city, COUNT(*) AS n FROM visits GROUP BY city;");
    CliRun r = CliRun.of("plan", "--workspace", ws.toString(), "--dataset", "visits",
        "--workload", workload.toString(), "--budget-epsilon", "1", "--run");
    assertNotEquals(0, r.code(), r.toString());
    assertTrue(r.err().contains("workload query 2: give max_error"), r.toString());
    assertEquals(0, charges());
  }
}
