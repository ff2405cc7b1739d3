package org.privet.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  /** A count planned by weight: no max_error, no budget; min_count gives its public magnitude. */
  private static String weighted(double weight, long minCount) {
    return "-- weight: " + weight + "\n"
        + "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (min_count = " + minCount + ","
        + " max_groups_contributed = 1, group_selection_strategy = PUBLIC_GROUPS) city,"
        + " COUNT(*) AS n FROM visits GROUP BY city;\n";
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

  private CliRun plan(String workloadText, String... budget) throws Exception {
    Files.writeString(workload, workloadText);
    List<String> args = new ArrayList<>(List.of("plan", "--workspace", ws.toString(),
        "--dataset", "visits", "--workload", workload.toString()));
    args.addAll(List.of(budget));
    return CliRun.of(args.toArray(String[]::new));
  }

  /** The cost column of the plan's per-query table. */
  private static double[] costs(String out) {
    Matcher m = Pattern.compile("(?m)^(\\d+)\\s{2,}(\\S+)\\s{2,}").matcher(out);
    List<Double> c = new ArrayList<>();
    while (m.find()) {
      c.add(Double.parseDouble(m.group(2)));
    }
    return c.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /**
   * Issue 22 item 4: statements with a weight and no max_error were refused ("the epsilon option is
   * required"); now they are planned, by the weighted sum of squared relative errors.
   */
  @Test
  void plan_weightedStatementsWithoutMaxError_planned() throws Exception {
    CliRun r = plan(weighted(1, 1000) + weighted(2, 4000), "--budget-epsilon", "1");
    assertEquals(0, r.code(), r.toString());
    assertTrue(!r.toString().contains("epsilon option is required"), r.toString());
    assertTrue(r.out().contains("objective sum-squared"), r.out());
    assertTrue(r.out().contains("planned weighted sum of squared relative errors"), r.out());
    assertEquals(2, costs(r.out()).length, r.out());
    assertEquals(0, charges());
  }

  /**
   * The split against an independently computed optimum: with variance ∝ 1/ε² (geometric noise,
   * p = 1) or ∝ 1/ρ (discrete Gaussian, p = 2), statement i's relative error is c / (xᵢ^(1/p) Nᵢ)
   * for the same c (both are counts of sensitivity 1, Nᵢ its public magnitude min_count), so the
   * optimum of Σ Wᵢ rᵢ² is found here by brute force over a grid of splits; the plan's printed
   * shares (4 significant digits) must match it. Raising a weight moves budget toward it.
   */
  @Test
  void plan_weightedSplit_matchesBruteForceOptimumAndFollowsTheWeights() throws Exception {
    double[] n = {1000, 4000};
    for (String[] budget : List.of(new String[] {"--budget-epsilon", "1"},
        new String[] {"--budget-rho", "0.5"})) {
      double p = budget[0].equals("--budget-rho") ? 2 : 1;
      double previousShare = 0;
      for (double w2 : new double[] {1, 8, 64}) {
        double[] w = {1, w2};
        CliRun r = plan(weighted(w[0], (long) n[0]) + weighted(w[1], (long) n[1]), budget);
        assertEquals(0, r.code(), r.toString());
        double[] x = costs(r.out());
        double total = Double.parseDouble(budget[1]);
        assertEquals(total, x[0] + x[1], total * 1e-3, r.out());
        double bestShare = 0;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int k = 1; k < 10000; k++) {
          double a = k / 10000.0;
          double v = w[0] / Math.pow(Math.pow(a, 1 / p) * n[0], 2)
              + w[1] / Math.pow(Math.pow(1 - a, 1 / p) * n[1], 2);
          if (v < bestValue) {
            bestValue = v;
            bestShare = 1 - a;
          }
        }
        double share = x[1] / (x[0] + x[1]);
        assertEquals(bestShare, share, 0.01, "p=" + p + " W2=" + w2 + "\n" + r.out());
        assertTrue(share > previousShare, "a larger weight must get a larger share: " + r.out());
        previousShare = share;
      }
    }
  }

  /**
   * A mixed workload is planned targets first: the max_error query gets the budget that just
   * meets its target, the weighted one the rest; if the target alone needs the whole total, it is
   * refused, charging nothing.
   */
  @Test
  void plan_mixedWorkload_targetsMetFirstThenWeightsShareTheRest() throws Exception {
    CliRun r = plan(count(10) + ";\n" + weighted(1, 1000), "--budget-epsilon", "1");
    assertEquals(0, r.code(), r.toString());
    double[] x = costs(r.out());
    assertEquals(1.0, x[0] + x[1], 1e-3, r.out());
    Matcher m = Pattern.compile("(?m)^1\\s+\\S+\\s+(\\S+)\\s+yes").matcher(r.out());
    assertTrue(m.find(), r.out());
    double ratio = Double.parseDouble(m.group(1));
    assertTrue(ratio <= 1 && ratio > 0.9, "the target is met, not over-served: " + r.out());
    CliRun solo = plan(count(10) + ";\n", "--budget-epsilon", "1");
    assertTrue(solo.out().contains("laplace+basic"), solo.out());
    CliRun tight = plan(count(1) + ";\n" + weighted(1, 1000), "--budget-epsilon", "0.5");
    assertNotEquals(0, tight.code(), tight.toString());
    assertTrue(tight.err().contains("max_error queries alone need epsilon="), tight.toString());
    assertEquals(0, charges());
  }

  /** Planned by weight, without min_count: refused naming min_count, charging nothing. */
  @Test
  void plan_weightedWithoutMinCount_refusedNamingMinCount() throws Exception {
    CliRun r = plan("-- weight: 2\nSELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_groups_contributed"
        + " = 1, group_selection_strategy = PUBLIC_GROUPS) city, COUNT(*) AS n FROM visits GROUP"
        + " BY city;", "--budget-epsilon", "1", "--run");
    assertNotEquals(0, r.code(), r.toString());
    assertTrue(r.err().contains("workload query 1") && r.err().contains("min_count"),
        r.toString());
    assertTrue(!r.err().contains("epsilon option is required"), r.toString());
    assertEquals(0, charges());
  }

  /** --run on a workload planned by weight charges once and answers every query. */
  @Test
  void plan_runWeighted_chargesOnceAndAnswers() throws Exception {
    CliRun r = plan(weighted(1, 1000) + weighted(3, 100), "--budget-epsilon", "1", "--run",
        "--analyst", "ann");
    assertEquals(0, r.code(), r.toString());
    assertEquals(1, charges());
    assertTrue(r.out().contains("query 1:") && r.out().contains("query 2:"), r.out());
  }

  /** The README's weighted workload example plans on Adult (registered as in the README). */
  @Test
  void plan_readmeWeightedWorkloadExample_plansOnAdult() {
    Path root = org.privet.testing.Repository.root();
    CliRun reg = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "adult",
        "--source", root.resolve("data/adult-raw/adult.data").toString(), "--no-header",
        "--columns", "age,workclass,fnlwgt,education,education_num,marital_status,occupation,"
            + "relationship,race,sex,capital_gain,capital_loss,hours_per_week,native_country,income",
        "--delimiter", ", ", "--null-string", "?", "--row-privacy", "--epsilon", "2", "--delta",
        "1e-6", "--public-keys", "sex=Female,Male");
    assertEquals(0, reg.code(), reg.toString());
    CliRun r = CliRun.of("plan", "--workspace", ws.toString(), "--dataset", "adult", "--workload",
        root.resolve("docs/examples/adult-weighted-workload.sql").toString(),
        "--budget-epsilon", "1");
    assertEquals(0, r.code(), r.toString());
    assertEquals(4, costs(r.out()).length, r.out());
    assertTrue(r.out().contains("objective sum-squared"), r.out());
  }
}
