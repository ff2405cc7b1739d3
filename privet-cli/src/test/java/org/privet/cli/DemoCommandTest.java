package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DemoCommandTest {
  @Test
  void demo_freshRun_printsResultsIntervalsRefusalAndRemainingBudget() {
    CliRun r = CliRun.of("demo");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    String out = r.out();
    assertTrue(out.contains("Kohavi") && out.contains("CC BY 4.0"), "attribution: " + out);
    assertTrue(out.contains("people") && out.contains("Bachelors"), out);
    assertTrue(out.contains("mean_hours") && out.contains("Female") && out.contains("Male"), out);
    assertTrue(out.contains("median_age"), out);
    assertTrue(out.contains("95% CI") && out.contains("["), out);
    assertTrue(out.contains("refused"), out);
    assertTrue(out.contains("epsilon=3, delta=1e-5") && out.contains("remaining"), out);
    assertTrue(r.err().contains("privet demo"), "progress goes to stderr: " + r.err());
  }

  @Test
  void demo_bundledData_foundFromTheJarLocation() throws Exception {
    Path adult = DemoCommand.locateBundledAdult();
    assertTrue(Files.isRegularFile(adult));
    assertEquals(ReadmeCommandsTest.repoRoot().resolve("data/adult-raw/adult.data").toRealPath(), adult.toRealPath());
  }

  @Test
  void demo_missingDataFolder_exitsNotFound() {
    CliRun r = CliRun.of("demo", "--data", "/nonexistent-privet-data");
    assertEquals(ExitCodes.NOT_FOUND, r.code(), r.toString());
  }
}
