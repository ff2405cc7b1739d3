package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.release.QuantileTree;
import org.privet.testing.SeededRandomSource;

/**
 * Real data: UCI Adult (data/adult-raw/adult.data; Kohavi 1996; UCI ML Repository, CC BY 4.0), each
 * row a person. Released values must lie within their intervals of the exact values computed here
 * independently (plain Java parsing). Intervals at level 0.9999 over at most 24 checked values:
 * false-failure probability ≤ 2.4e-3.
 */
class AdultTest {
  private static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");

  private static Path adult() {
    return TestTables.repoRoot().resolve("data/adult-raw/adult.data");
  }

  private static Source source() {
    return Source.csv(adult()).withoutHeader(COLUMNS).withDelimiter(", ").withNullString("?");
  }

  @Test
  void run_adultBySex_answersWithinIntervalsOfExactValues() throws IOException {
    Map<String, double[]> exact = new HashMap<>(); // count, Σage, Σhours, Σage²
    for (String line : Files.readAllLines(adult())) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(", ");
      double[] e = exact.computeIfAbsent(f[9], k -> new double[4]);
      double age = Double.parseDouble(f[0]);
      e[0] += 1;
      e[1] += age;
      e[2] += Double.parseDouble(f[12]);
      e[3] += age * age;
    }
    assertEquals(32_561, exact.values().stream().mapToDouble(e -> e[0]).sum());
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(48842)).confidenceLevel(0.9999).build();
      Query q = Query.from(source()).eachRowIsAUnit().groupBy("sex")
          .publicGroups("Male", "Female").count("n").mean("mean_age", "age", 0, 100)
          .sum("hours", "hours_per_week", 0, 100).variance("var_age", "age", 0, 100)
          .epsilon(1.0).build();
      Result r = s.run(q);
      assertEquals(2, r.rows().size());
      for (ResultRow row : r.rows()) {
        double[] e = exact.get((String) row.key().get(0));
        double mean = e[1] / e[0];
        double[] truth = {e[0], mean, e[2], e[3] / e[0] - mean * mean};
        String[] names = {"n", "mean_age", "hours", "var_age"};
        for (int i = 0; i < names.length; i++) {
          Estimate est = row.get(names[i]);
          assertTrue(est.lower() <= truth[i] && truth[i] <= est.upper(),
              row.key() + " " + names[i] + ": exact " + truth[i] + " not in " + est);
        }
      }
    }
  }

  @Test
  void run_adultByEducationPrivateGroups_releasesLargeGroupsAccurately() throws IOException {
    Map<String, Integer> exact = new HashMap<>();
    for (String line : Files.readAllLines(adult())) {
      if (!line.isBlank()) {
        exact.merge(line.split(", ")[3], 1, Integer::sum);
      }
    }
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(7)).confidenceLevel(0.9999).build();
      Query q = Query.from(source()).eachRowIsAUnit().groupBy("education").count("n")
          .quantiles("median_age", "age", 0, 100, 0.5).epsilonDelta(1.0, 1e-6).build();
      Result r = s.run(q);
      assertTrue(r.rows().stream().anyMatch(row -> row.key().equals(List.of("HS-grad"))));
      assertTrue(r.rows().size() >= 14, "large education groups are released: " + r.rows().size());
      for (ResultRow row : r.rows()) {
        Estimate n = row.get("n");
        int truth = exact.get((String) row.key().get(0));
        assertTrue(n.lower() <= truth && truth <= n.upper(), row.key() + ": " + truth + " " + n);
        double median = row.get("median_age").value();
        assertTrue(median >= 17 && median <= 90, "median age in the data range: " + median);
      }
    }
  }

  /**
   * Tree quantiles of age and hours per week by sex (public groups) at ε = 1: each interval must
   * contain the exact k-th smallest value, k = ⌈r·n⌉. Intervals hold simultaneously over the ranks
   * of one aggregation at level 0.9999: 2 aggregations × 2 groups, false failure ≤ 4e-4.
   */
  @Test
  void run_adultTreeQuantiles_exactQuantilesWithinIntervals() throws IOException {
    Map<String, List<Double>> ages = new HashMap<>();
    Map<String, List<Double>> hours = new HashMap<>();
    for (String line : Files.readAllLines(adult())) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(", ");
      ages.computeIfAbsent(f[9], k -> new java.util.ArrayList<>()).add(Double.parseDouble(f[0]));
      hours.computeIfAbsent(f[9], k -> new java.util.ArrayList<>())
          .add(Double.parseDouble(f[12]));
    }
    double[] ranks = {0, 0.1, 0.25, 0.5, 0.75, 0.9, 1};
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(1996)).confidenceLevel(0.9999).build();
      Query q = Query.from(source()).eachRowIsAUnit().groupBy("sex")
          .publicGroups("Male", "Female").quantiles("age_q", "age", 0, 100, ranks)
          .quantiles("hours_q", "hours_per_week", 0, 100, ranks).epsilon(1.0).build();
      Result r = s.run(q);
      assertEquals(2, r.receipt().charge().mechanisms().size(), "one tree per column");
      for (ResultRow row : r.rows()) {
        String sex = (String) row.key().get(0);
        check(row, "age_q", ages.get(sex), ranks);
        check(row, "hours_q", hours.get(sex), ranks);
      }
    }
  }

  private static void check(ResultRow row, String name, List<Double> values, double[] ranks) {
    values.sort(null);
    double previous = Double.NEGATIVE_INFINITY;
    for (double rank : ranks) {
      Estimate e = row.get(name + "[" + rank + "]");
      double exact = values.get((int) QuantileTree.targetRank(rank, values.size()) - 1);
      assertTrue(e.lower() <= exact && exact <= e.upper(),
          row.key() + " " + name + "[" + rank + "]: exact " + exact + " not in " + e);
      if (rank >= 0.1 && rank <= 0.9) { // the extremes sit in sparse tails: wide by nature
        assertTrue(e.upper() - e.lower() <= 10, "informative interval: " + e);
      }
      assertTrue(e.value() >= previous);
      previous = e.value();
    }
  }
}
