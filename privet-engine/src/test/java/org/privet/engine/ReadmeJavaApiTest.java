package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * The README's Java example ("Java API (embedded engine)") is the code between the markers below:
 * this test runs it on the bundled UCI Adult data, and checks that the README shows it verbatim.
 */
class ReadmeJavaApiTest {

  @Test
  void readmeExample_runs_releasesRowsWithIntervals() throws Exception {
    Path repo = TestTables.repoRoot();
    List<ResultRow> released = new ArrayList<>();
    // README-BEGIN
    List<String> columns = List.of("age", "workclass", "fnlwgt", "education", "education_num",
        "marital_status", "occupation", "relationship", "race", "sex", "capital_gain",
        "capital_loss", "hours_per_week", "native_country", "income");
    Source adult = Source.csv(repo.resolve("data/adult-raw/adult.data"))
        .withoutHeader(columns).withDelimiter(", ").withNullString("?");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Session session = Session.builder().backend(db)
          .budgetCharger(BudgetCharger.unlimited()) // the CLI charges a durable ledger instead
          .build();
      Query query = Query.from(adult)
          .eachRowIsAUnit() // or .privacyUnit("user_id").maxGroupsContributed(3)
          .groupBy("education") // private groups: released only if they pass a DP threshold
          .count("people")
          .mean("mean_hours", "hours_per_week", 0, 100)
          .quantiles("age", 0, 100, 0.5, 0.9)
          .epsilonDelta(1.0, 1e-6)
          .build();
      System.out.println(session.explain(query).render()); // bounds, split, noise: no charge
      Result result = session.run(query);
      for (ResultRow row : result.rows()) {
        System.out.println(row.key() + " " + row.get("people") + " " + row.get("mean_hours")
            + " " + row.get("quantiles_age[0.5]"));
      }
      released.addAll(result.rows());
    }
    // README-END
    assertFalse(released.isEmpty(), "large education groups pass the threshold");
    for (ResultRow row : released) {
      for (String name : List.of("people", "mean_hours", "quantiles_age[0.5]",
          "quantiles_age[0.9]")) {
        Estimate e = row.get(name);
        assertTrue(e.hasInterval() && e.lower() <= e.value() && e.value() <= e.upper(),
            name + ": " + e);
      }
    }
  }

  @Test
  void readme_showsTheExampleVerbatim() throws IOException {
    Path repo = TestTables.repoRoot();
    String source = Files.readString(repo.resolve(
        "privet-engine/src/test/java/org/privet/engine/ReadmeJavaApiTest.java"));
    String example = source.substring(source.indexOf("// README-BEGIN\n") + 16,
        source.indexOf("    // README-END"));
    String shown = example.replaceAll("(?m)^    ", ""); // the method body's indent
    String readme = Files.readString(repo.resolve("README.md"));
    assertTrue(readme.contains(shown),
        "README.md must show the example of ReadmeJavaApiTest verbatim (indent removed):\n"
            + shown);
    assertEquals(1, readme.split("Java API \\(embedded engine\\)", -1).length - 1,
        "one README section 'Java API (embedded engine)'");
  }
}
