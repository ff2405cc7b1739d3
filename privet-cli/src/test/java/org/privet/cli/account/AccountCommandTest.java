package org.privet.cli.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.cli.CliRun;
import org.privet.accounting.MechanismLoss;
import org.privet.accounting.PoissonSubsampled;
import org.privet.accounting.RdpAccountant;

class AccountCommandTest {

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  private static double lastValue(String out, String key) {
    String[] lines = out.strip().split("\n");
    String last = lines[lines.length - 1];
    assertTrue(last.startsWith(key + "="), "last line: " + last);
    return Double.parseDouble(last.substring(key.length() + 1));
  }

  @Test
  void account_dpSgdPld_printsEpsilonBelowRdp() {
    String[] common = {
      "account", "--mechanism", "gaussian", "--noise-multiplier", "1.1", "--sampling-rate", "0.004",
      "--steps", "15000", "--delta", "1e-5"
    };
    CliRun pld = run(concat(common, "--accountant", "pld"));
    CliRun rdp = run(concat(common, "--accountant", "rdp"));
    assertEquals(0, pld.code(), pld.err());
    assertEquals(0, rdp.code(), rdp.err());
    double ePld = lastValue(pld.out(), "epsilon");
    double eRdp = lastValue(rdp.out(), "epsilon");
    assertTrue(ePld > 0.5 && ePld <= eRdp, "pld " + ePld + " rdp " + eRdp);
    // The CLI prints exactly what the library computes.
    double lib =
        new RdpAccountant()
            .compose(
                java.util.Collections.nCopies(
                    15000, new PoissonSubsampled(new MechanismLoss.Gaussian(1.1), 0.004)),
                1e-5)
            .epsilon();
    assertEquals(lib, eRdp, 0.0);
  }

  @Test
  void account_pureBasic_addsEpsilons() {
    CliRun r = run("account", "--mechanism", "pure", "--epsilon", "0.1", "--steps", "10", "--accountant", "basic");
    assertEquals(0, r.code(), r.err());
    assertEquals(1.0, lastValue(r.out(), "epsilon"), 1e-12);
  }

  @Test
  void account_optimalBeatsAdvancedBeatsBasic_forManyPureSteps() {
    double basic = lastValue(run("account", "--mechanism", "randomized-response", "--epsilon", "0.05",
        "--steps", "400", "--accountant", "basic").out(), "epsilon");
    double advanced = lastValue(run("account", "--mechanism", "randomized-response", "--epsilon", "0.05",
        "--steps", "400", "--accountant", "advanced").out(), "epsilon");
    double optimal = lastValue(run("account", "--mechanism", "randomized-response", "--epsilon", "0.05",
        "--steps", "400", "--accountant", "optimal").out(), "epsilon");
    assertTrue(optimal < advanced && advanced < basic, optimal + " " + advanced + " " + basic);
  }

  @Test
  void account_targetEpsilon_solvesNoiseMultiplierThatMeetsIt() {
    CliRun r = run("account", "--mechanism", "gaussian", "--sampling-rate", "0.01", "--steps", "1000",
        "--delta", "1e-5", "--accountant", "rdp", "--target-epsilon", "2.0");
    assertEquals(0, r.code(), r.err());
    double sigma = lastValue(r.out(), "noise_multiplier");
    CliRun check = run("account", "--mechanism", "gaussian", "--noise-multiplier", Double.toString(sigma),
        "--sampling-rate", "0.01", "--steps", "1000", "--delta", "1e-5", "--accountant", "rdp");
    double eps = lastValue(check.out(), "epsilon");
    assertTrue(eps <= 2.0 && eps > 1.99, "eps " + eps);
  }

  @Test
  void account_json_isStructured() throws Exception {
    CliRun r = run("account", "--mechanism", "laplace", "--scale", "10", "--steps", "20", "--accountant", "zcdp", "--json");
    assertEquals(0, r.code(), r.err());
    JsonNode n = new ObjectMapper().readTree(r.out());
    assertEquals("laplace", n.get("mechanism").asText());
    assertTrue(n.get("epsilon").asDouble() > 0);
    assertEquals(1e-5, n.get("delta").asDouble());
  }

  @Test
  void account_missingParameter_exitsWithUsageNamingIt() {
    CliRun r = run("account", "--mechanism", "gaussian", "--steps", "3");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("noise-multiplier"), r.err());
  }

  @Test
  void account_unsupportedCombination_exitsWithUsage() {
    CliRun r = run("account", "--mechanism", "gaussian", "--noise-multiplier", "1", "--accountant", "advanced");
    assertEquals(2, r.code());
    assertTrue(r.err().contains("Advanced"), r.err());
  }

  private static String[] concat(String[] a, String... b) {
    List<String> l = new java.util.ArrayList<>(List.of(a));
    l.addAll(List.of(b));
    return l.toArray(new String[0]);
  }
}
