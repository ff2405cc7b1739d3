package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.ledger.Ledger;
import org.privet.testing.LongTails;

/**
 * Numbers people read (issue 22, item 5): after realistic spends (ε = 0.1 three times, then 0.2),
 * no text the CLI prints (receipts, budget show, history,
 * dataset list and show, explain, a solved max_error explain, budget-exceeded refusals) carries a
 * long float tail, while JSON keeps the exact values.
 */
class HumanNumbersTest {
  @TempDir Path dir;

  private static String count(String options) {
    return "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (" + options + ", max_groups_contributed = 1,"
        + " group_selection_strategy = PUBLIC_GROUPS) city, COUNT(*) AS n FROM visits GROUP BY city";
  }

  @Test
  void realisticSpends_textHasNoLongTails_jsonKeepsExactValues() throws Exception {
    Path ws = dir.resolve("ws");
    String w = ws.toString();
    Path csv = VisitsCsv.write(dir.resolve("visits.csv"));
    List<CliRun> runs = new ArrayList<>();
    runs.add(CliRun.of("dataset", "register", "--workspace", w, "--name", "visits", "--source",
        csv.toString(), "--privacy-unit", "user_id", "--epsilon", "1", "--delta", "1e-6",
        "--public-keys", "city=Lima,Oslo"));
    for (String e : new String[] {"0.1", "0.1", "0.1", "0.2"}) {
      CliRun q = CliRun.of("query", "--workspace", w, count("epsilon = " + e));
      assertEquals(0, q.code(), q.toString());
      runs.add(q);
    }
    runs.add(CliRun.of("budget", "show", "--workspace", w, "--dataset", "visits"));
    runs.add(CliRun.of("budget", "history", "--workspace", w, "--dataset", "visits"));
    runs.add(CliRun.of("dataset", "list", "--workspace", w));
    runs.add(CliRun.of("dataset", "show", "--workspace", w, "--name", "visits"));
    runs.add(CliRun.of("query", "--workspace", w, "--explain", count("epsilon = 0.1")));
    runs.add(CliRun.of("query", "--workspace", w, "--explain", count("max_error = (n => 7)")));
    CliRun refused = CliRun.of("query", "--workspace", w, count("epsilon = 0.6"));
    assertEquals(ExitCodes.BUDGET_EXCEEDED, refused.code(), refused.toString());
    runs.add(refused);
    CliRun refusedSolved = CliRun.of("query", "--workspace", w, count("max_error = (n => 1)"));
    assertNotEquals(0, refusedSolved.code(), refusedSolved.toString());
    runs.add(refusedSolved);
    for (CliRun r : runs) {
      assertTrue(LongTails.in(r.out() + r.err()).isEmpty(),
          LongTails.in(r.out() + r.err()) + " in\n" + r);
    }
    // Each charge is just under its ε (the engine's split rounds down), so the spend is
    // 0.4999999999995 and the remainder 0.5000000000005: both read 0.5 (spend up, remainder down).
    assertTrue(runs.get(5).out().contains("epsilon=0.5, delta=0  epsilon=0.5, delta=1e-6"),
        runs.get(5).out());

    // JSON keeps the exact spend, which as plain text would be a long tail (the scanner's power).
    CliRun json = CliRun.of("budget", "show", "--workspace", w, "--dataset", "visits", "--format",
        "json");
    JsonNode spent = new ObjectMapper().readTree(json.out()).path("spent");
    double exact;
    try (Ledger ledger = Ledger.open(ws)) {
      exact = ((ApproxDp) ledger.status("visits").spent()).epsilon();
    }
    assertEquals(exact, spent.path("epsilon").asDouble(), 0.0, json.out());
    assertFalse(LongTails.in("epsilon=" + exact).isEmpty(), "the scanner flags " + exact);
  }
}
