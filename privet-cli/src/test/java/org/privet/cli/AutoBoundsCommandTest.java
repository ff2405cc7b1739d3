package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code contribution_bounds_per_row => AUTO} from the command line on Adult: the README's explain
 * command runs and shows the share, and a run releases the estimated bounds in JSON and after
 * the table, with one charge.
 */
class AutoBoundsCommandTest {
  @TempDir Path workspace;

  private CliRun run(List<String> args) {
    List<String> a = new ArrayList<>(args);
    a.addAll(List.of("--workspace", workspace.toString()));
    return CliRun.of(a.toArray(String[]::new));
  }

  private void registerAdult() {
    Path root = ReadmeCommandsTest.repoRoot();
    CliRun r = run(List.of("dataset", "register", "--name", "adult", "--source",
        root.resolve("data/adult-raw/adult.data").toString(), "--no-header", "--columns",
        String.join(",", List.of("age", "workclass", "fnlwgt", "education", "education_num",
            "marital_status", "occupation", "relationship", "race", "sex", "capital_gain",
            "capital_loss", "hours_per_week", "native_country", "income")),
        "--delimiter", ", ", "--null-string", "?", "--row-privacy", "--epsilon", "2", "--delta",
        "1e-6"));
    assertEquals(ExitCodes.OK, r.code(), r.toString());
  }

  @Test
  void readmeExplain_showsTheAutoBoundsShare() throws Exception {
    registerAdult();
    List<String> explain = ReadmeCommandsTest.privetCommands(ReadmeCommandsTest.readme()).stream()
        .filter(c -> String.join(" ", c).contains("=> AUTO")).findFirst().orElseThrow();
    CliRun r = run(explain);
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.out().contains("AUTO bounds: 20.00% of the budget"), r.out());
  }

  @Test
  void query_json_releasesTheEstimatedBoundsWithOneCharge() throws Exception {
    registerAdult();
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5) AVG(hours_per_week,"
        + " contribution_bounds_per_row => AUTO) AS hours FROM adult";
    CliRun json = run(List.of("query", "--format", "json", sql));
    assertEquals(ExitCodes.OK, json.code(), json.toString());
    JsonNode b = new ObjectMapper().readTree(json.out()).path("auto_bounds").path("hours");
    assertEquals("hours_per_week", b.path("column").asText(), json.out());
    assertTrue(b.path("lower").asDouble() < b.path("upper").asDouble(), json.out());
    CliRun table = run(List.of("query", sql));
    assertEquals(ExitCodes.OK, table.code(), table.toString());
    assertTrue(table.out().contains("# AUTO bounds of hours (hours_per_week"), table.out());
    CliRun history = run(List.of("budget", "history", "--dataset", "adult", "--format", "json"));
    assertEquals(2, new ObjectMapper().readTree(history.out()).size(), "one charge per query");
  }
}
