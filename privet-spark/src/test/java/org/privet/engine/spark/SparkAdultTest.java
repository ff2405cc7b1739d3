package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.testing.SeededRandomSource;

/**
 * End to end on Spark: engine queries over UCI Adult (data/adult-raw/adult.data; Kohavi 1996; UCI
 * ML Repository, CC BY 4.0), each row a person, read by Spark from CSV, Parquet and a registered
 * DataFrame. Released values must lie within their intervals of the exact values computed here
 * independently (plain Java parsing). Intervals at level 0.9999 over at most 24 checked values:
 * false-failure probability ≤ 2.4e-3 per seed (the seeds are fixed).
 */
class SparkAdultTest {
  private static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");

  private static SparkBackend backend;

  @BeforeAll
  static void open() {
    backend = SparkBackend.on(LocalSpark.session());
  }

  @AfterAll
  static void close() {
    backend.close();
  }

  private static Path adult() {
    return LocalSpark.repoRoot().resolve("data/adult-raw/adult.data");
  }

  private static Source.CsvFile source() {
    return Source.csv(adult()).withoutHeader(COLUMNS).withDelimiter(", ").withNullString("?");
  }

  private static Session session(long seed) {
    return SparkBackend.session(LocalSpark.session()).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).confidenceLevel(0.9999).build();
  }

  @Test
  void run_adultBySexOnSpark_answersWithinIntervalsOfExactValues() throws IOException {
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
    Query q = Query.from(source()).eachRowIsAUnit().groupBy("sex")
        .publicGroups("Male", "Female").count("n").mean("mean_age", "age", 0, 100)
        .sum("hours", "hours_per_week", 0, 100).variance("var_age", "age", 0, 100)
        .epsilon(1.0).build();
    Result r = session(48842).run(q);
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

  @Test
  void run_adultByEducationPrivateGroupsOnSpark_releasesLargeGroupsAccurately()
      throws IOException {
    Map<String, Integer> exact = new HashMap<>();
    for (String line : Files.readAllLines(adult())) {
      if (!line.isBlank()) {
        exact.merge(line.split(", ")[3], 1, Integer::sum);
      }
    }
    Query q = Query.from(source()).eachRowIsAUnit().groupBy("education").count("n")
        .quantiles("median_age", "age", 0, 100, 0.5).epsilonDelta(1.0, 1e-6).build();
    Result r = session(7).run(q);
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

  @Test
  void aggregate_csvParquetAndRegisteredDataFrame_giveTheSameExactAggregates(@TempDir Path dir) {
    Path parquet = dir.resolve("adult.parquet");
    var df = backend.trustedSession().sql("SELECT * FROM " + viewOf(source()));
    df.write().parquet(parquet.toString());
    backend.registerDataFrame("adult_df", df);
    Map<List<Object>, GroupAggregate> csv = exact(source());
    Map<List<Object>, GroupAggregate> pq = exact(Source.parquet(parquet));
    Map<List<Object>, GroupAggregate> view = exact(Source.table("adult_df"));
    assertEquals(2, csv.size());
    assertEquals(32_561, csv.values().stream().mapToLong(GroupAggregate::rows).sum());
    for (List<Object> key : csv.keySet()) {
      for (Map<List<Object>, GroupAggregate> other : List.of(pq, view)) {
        assertEquals(csv.get(key).rows(), other.get(key).rows());
        assertArrayEquals(csv.get(key).sums(), other.get(key).sums());
        assertArrayEquals(csv.get(key).counts(), other.get(key).counts());
      }
    }
  }

  /** The temporary view the backend reads a file source through (registered on first use). */
  private static String viewOf(Source source) {
    backend.describe(source);
    String plan = backend.physicalPlan(spec(source));
    return plan.substring(3, plan.indexOf(" = "));
  }

  private static BoundedAggregation spec(Source source) {
    return new BoundedAggregation(source, Optional.empty(), Optional.empty(),
        List.of("sex"), Optional.empty(), 1, 1, 3,
        List.of(new Measure.FixedPointSum("age", 0, 100, 0, 0, false)));
  }

  private static Map<List<Object>, GroupAggregate> exact(Source source) {
    Map<List<Object>, GroupAggregate> out = new HashMap<>();
    backend.aggregate(spec(source), g -> out.put(g.key(), g));
    return out;
  }
}
