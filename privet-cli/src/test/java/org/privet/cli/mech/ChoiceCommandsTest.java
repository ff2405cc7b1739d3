package org.privet.cli.mech;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privet.cli.mech.MechCommandTest.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.privet.cli.ExitCodes;

/** Output formats of the choice subcommands of {@code privet mech}. */
class ChoiceCommandsTest {

  private static String[] lines(String out) {
    return out.strip().split("\\R");
  }

  @Test
  void randomizedResponse_binary_printsTrueOrFalsePerLine() {
    String[] r = run("mech", "randomized-response", "--epsilon", "1.0986", "--value", "true",
        "--samples", "1000");
    assertEquals("0", r[0], r[2]);
    String[] lines = lines(r[1]);
    assertEquals(1000, lines.length);
    long trues = 0;
    for (String line : lines) {
      assertTrue(line.equals("true") || line.equals("false"), line);
      trues += line.equals("true") ? 1 : 0;
    }
    // p = 3/4: Binomial(1000, 0.75) lies in (650, 850) except with probability < 1e-12.
    assertTrue(trues > 650 && trues < 850, "trues " + trues);
  }

  @Test
  void randomizedResponse_categories_printsCategoryPerLine() {
    String[] r = run("mech", "randomized-response", "--epsilon", "1", "--categories", "a,b,c",
        "--value", "b", "--samples", "50");
    assertEquals("0", r[0], r[2]);
    for (String line : lines(r[1])) {
      assertTrue(Set.of("a", "b", "c").contains(line), line);
    }
    assertEquals(50, lines(r[1]).length);
  }

  @Test
  void randomizedResponse_twoCoinJson_hasLn3AndEstimate() throws Exception {
    String[] r = run("mech", "randomized-response", "--two-coin", "--value", "false",
        "--samples", "400", "--json");
    assertEquals("0", r[0], r[2]);
    JsonNode doc = new ObjectMapper().readTree(r[1]);
    assertEquals("randomized-response", doc.get("mechanism").asText());
    assertEquals("two-coin", doc.get("parameters").get("variant").asText());
    JsonNode per = doc.get("privacyLoss").get("perRelease");
    assertEquals("pure", per.get("measure").asText());
    assertEquals(Math.log(3), per.get("epsilon").asDouble(), 1e-12);
    JsonNode acc = doc.get("parameters").get("accuracy");
    assertEquals("false", acc.get("category").asText());
    // Every respondent is "false": the Hoeffding interval (fails w.p. <= 5%) should contain 1.
    assertTrue(acc.get("upper").asDouble() >= acc.get("lower").asDouble());
    assertEquals(400, doc.get("releases").size());
  }

  @Test
  void randomizedResponse_valueNotACategory_exitsUsage() {
    String[] r = run("mech", "randomized-response", "--epsilon", "1", "--categories", "a,b",
        "--value", "z");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("--value"), r[2]);
  }

  @Test
  void exponential_plain_printsIndicesInRange() {
    String[] r = run("mech", "exponential", "--epsilon", "1", "--sensitivity", "1",
        "--utilities", "3,1,2", "--samples", "30");
    assertEquals("0", r[0], r[2]);
    String[] lines = lines(r[1]);
    assertEquals(30, lines.length);
    for (String line : lines) {
      int i = Integer.parseInt(line);
      assertTrue(i >= 0 && i < 3);
    }
  }

  @Test
  void exponential_jsonMonotone_hasCostAndUtilityBound() throws Exception {
    String[] r = run("mech", "exponential", "--epsilon", "2", "--utilities", "3,1,2",
        "--monotone", "--samples", "4", "--json");
    assertEquals("0", r[0], r[2]);
    JsonNode doc = new ObjectMapper().readTree(r[1]);
    assertEquals("exponential", doc.get("mechanism").asText());
    assertTrue(doc.get("parameters").get("monotone").asBoolean());
    assertEquals(2.0, doc.get("privacyLoss").get("perRelease").get("epsilon").asDouble(), 0);
    assertEquals(8.0, doc.get("privacyLoss").get("total").get("epsilon").asDouble(), 0);
    double bound = doc.get("parameters").get("accuracy").get("utilityErrorBound").asDouble();
    // Monotone bound (Δ/ε)·ln(k/β) = 0.5·ln(3/0.05), plus one grid step.
    assertEquals(0.5 * Math.log(3 / 0.05), bound, 0.01);
    assertEquals(4, doc.get("releases").size());
    assertTrue(doc.get("releases").get(0).get("value").isInt());
  }

  @Test
  void exponential_emptyUtilities_exitsUsage() {
    String[] r = run("mech", "exponential", "--epsilon", "1", "--utilities", "");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
  }

  @Test
  void noisyMax_laplaceAndGumbel_printIndices() {
    for (String noise : new String[] {"laplace", "gumbel"}) {
      String[] r = run("mech", "noisy-max", "--epsilon", "1", "--counts", "30,12,29",
          "--noise", noise, "--samples", "20");
      assertEquals("0", r[0], r[2]);
      for (String line : lines(r[1])) {
        int i = Integer.parseInt(line);
        assertTrue(i == 0 || i == 1 || i == 2);
      }
    }
  }

  @Test
  void noisyMax_unknownNoise_exitsUsageNamingNoise() {
    String[] r = run("mech", "noisy-max", "--epsilon", "1", "--counts", "1,2", "--noise", "cauchy");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("--noise"), r[2]);
  }

  @Test
  void noisyMax_zeroEpsilon_exitsUsageNamingEpsilon() {
    String[] r = run("mech", "noisy-max", "--epsilon", "0", "--counts", "1,2");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("epsilon"), r[2]);
  }

  @Test
  void permuteAndFlip_json_hasAccuracy() throws Exception {
    String[] r = run("mech", "permute-and-flip", "--epsilon", "1", "--utilities", "10,0,5",
        "--json");
    assertEquals("0", r[0], r[2]);
    JsonNode doc = new ObjectMapper().readTree(r[1]);
    assertEquals("permute-and-flip", doc.get("mechanism").asText());
    assertTrue(doc.get("parameters").get("accuracy").get("statement").asText()
        .contains("with probability at least"));
  }

  @Test
  void sparseVector_plain_printsBitsUntilHalting() {
    String[] r = run("mech", "sparse-vector", "--epsilon", "20", "--threshold", "10",
        "--answers", "-1000,1000,-1000,1000,1000", "--max-positives", "2", "--samples", "3");
    assertEquals("0", r[0], r[2]);
    String[] lines = lines(r[1]);
    assertEquals(3, lines.length);
    for (String line : lines) {
      // Noise scales are ~0.1 and ~0.5 against gaps of 1000: the pattern is certain.
      assertEquals("false,true,false,true", line);
    }
  }

  @Test
  void sparseVector_json_hasCost() throws Exception {
    String[] r = run("mech", "sparse-vector", "--epsilon", "1", "--threshold", "0",
        "--answers", "1,2,3", "--json");
    assertEquals("0", r[0], r[2]);
    JsonNode doc = new ObjectMapper().readTree(r[1]);
    assertEquals("sparse-vector", doc.get("mechanism").asText());
    assertEquals(1.0, doc.get("privacyLoss").get("perRelease").get("epsilon").asDouble(), 0);
  }

  @Test
  void sparseVector_zeroSensitivity_exitsUsageNamingSensitivity() {
    String[] r = run("mech", "sparse-vector", "--epsilon", "1", "--threshold", "0",
        "--answers", "1", "--sensitivity", "0");
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("sensitivity"), r[2]);
  }
}
