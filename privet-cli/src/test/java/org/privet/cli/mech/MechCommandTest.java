package org.privet.cli.mech;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.privet.cli.ExitCodes;

class MechCommandTest {

  /** Runs privet with the arguments; returns {exit code, stdout, stderr}. */
  static String[] run(String... args) {
    org.privet.cli.CliRun r = org.privet.cli.CliRun.of(args);
    return new String[] {Integer.toString(r.code()), r.out(), r.err()};
  }

  @Test
  void geometric_plainSamples_printsOneIntegerPerLine() {
    String[] r = run("mech", "geometric", "--epsilon", "1", "--value", "42", "--samples", "5");
    assertEquals("0", r[0], r[2]);
    String[] lines = r[1].strip().split("\\R");
    assertEquals(5, lines.length);
    for (String line : lines) {
      Long.parseLong(line); // an integer, nothing else on the line
    }
  }

  @Test
  void discreteGaussian_json_hasZcdpCostAndIntervals() throws Exception {
    String[] r = run("mech", "discrete-gaussian", "--rho", "0.5", "--value", "10", "--samples", "3", "--json");
    assertEquals("0", r[0], r[2]);
    JsonNode doc = new ObjectMapper().readTree(r[1]);
    assertEquals("discrete-gaussian", doc.get("mechanism").asText());
    assertEquals(3, doc.get("releases").size());
    JsonNode first = doc.get("releases").get(0);
    JsonNode ci = first.get("confidenceInterval");
    assertTrue(ci.get("lower").asDouble() <= first.get("value").asDouble());
    assertTrue(ci.get("upper").asDouble() >= first.get("value").asDouble());
    assertEquals(0.95, ci.get("level").asDouble(), 1e-12);
    assertEquals("zCDP", doc.get("privacyLoss").get("perRelease").get("measure").asText());
    assertEquals(0.5, doc.get("privacyLoss").get("perRelease").get("rho").asDouble(), 0);
    assertEquals(1.5, doc.get("privacyLoss").get("total").get("rho").asDouble(), 1e-12);
  }

  @Test
  void geometric_negativeEpsilon_exitsUsageNamingEpsilon() {
    String[] r = run("mech", "geometric", "--epsilon", "-1", "--value", "3");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("epsilon"), r[2]);
  }

  @Test
  void discreteGaussian_bothRhoAndSigma_exitsUsage() {
    String[] r = run("mech", "discrete-gaussian", "--rho", "1", "--sigma", "2", "--value", "3");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("--rho"), r[2]);
  }

  @Test
  void geometric_zeroSamples_exitsUsageNamingSamples() {
    String[] r = run("mech", "geometric", "--epsilon", "1", "--value", "3", "--samples", "0");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("--samples"), r[2]);
  }

  @Test
  void laplace_issueExample_printsFiveNumbers() {
    String[] r = run("mech", "laplace", "--epsilon", "1", "--sensitivity", "1", "--value", "42", "--samples", "5");
    assertEquals("0", r[0], r[2]);
    String[] lines = r[1].strip().split("\\R");
    assertEquals(5, lines.length);
    for (String line : lines) {
      double v = Double.parseDouble(line);
      assertTrue(Math.abs(v - 42) < 60, line); // P[|Laplace(1)| > 60] = e^-60
    }
  }

  @Test
  void gaussian_issueExampleJson_hasApproxDpCostAndInterval() throws Exception {
    String[] r = run("mech", "gaussian", "--epsilon", "0.5", "--delta", "1e-6", "--sensitivity", "1", "--value", "0", "--json");
    assertEquals("0", r[0], r[2]);
    JsonNode doc = new ObjectMapper().readTree(r[1]);
    assertEquals("gaussian", doc.get("mechanism").asText());
    assertEquals(1, doc.get("releases").size());
    JsonNode loss = doc.get("privacyLoss").get("perRelease");
    assertEquals("approximate", loss.get("measure").asText());
    assertEquals(0.5, loss.get("epsilon").asDouble(), 0);
    assertEquals(1e-6, loss.get("delta").asDouble(), 0);
    assertTrue(doc.get("releases").get(0).has("confidenceInterval"));
  }

  @Test
  void gaussian_classicWithLargeEpsilon_exitsUsageSuggestingAnalytic() {
    String[] r = run("mech", "gaussian", "--epsilon", "2", "--delta", "1e-6", "--value", "0", "--calibration", "CLASSIC");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("ANALYTIC"), r[2]);
  }
}
