package org.privet.cli.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;

/**
 * {@code privet attack netflix} end to end: the JSON shape, the sweep table and its report, and
 * usage errors. The figures themselves are held to the paper in privet-anonymity's
 * NetflixAttackTest (seeded); here the CLI runs on the CSPRNG, so only shapes and ranges are
 * checked.
 */
class NetflixAttackCommandTest {

  @Test
  void json_printsAnonymizedAndDpSharesForTheKGiven() throws IOException {
    CliRun r =
        CliRun.of(
            "attack",
            "netflix",
            "--users",
            "2000",
            "--known",
            "6",
            "--wrong",
            "1",
            "--days",
            "7",
            "--format",
            "json");
    assertEquals(0, r.code(), r.toString());
    JsonNode j = new ObjectMapper().readTree(r.out());
    List<String> top = new java.util.ArrayList<>();
    j.fieldNames().forEachRemaining(top::add);
    assertEquals(List.of("anonymized", "dp"), top);
    for (String release : top) {
      JsonNode s = j.get(release);
      assertEquals(6, s.get("known").asInt());
      assertEquals(1, s.get("wrongRatings").asInt());
      double sum =
          s.get("reidentified").asDouble()
              + s.get("wrong").asDouble()
              + s.get("abstained").asDouble();
      assertEquals(1, sum, 1e-9, release + " shares add up to one");
    }
    assertTrue(j.get("dp").has("chance") && !j.get("anonymized").has("chance"), r.out());
    assertEquals(1, j.get("dp").get("epsilon").asDouble(), 0);
    // The DP release holds no one's record: naming a record within similarity 1/2 of a target with
    // at
    // least 10 ratings needs a synthetic record matching 5 of them on item, stars and date
    // (negligible).
    assertEquals(0, j.get("dp").get("reidentified").asDouble(), 0, r.out());
    assertTrue(j.get("anonymized").get("reidentified").asDouble() > 0.5, r.out());
  }

  @Test
  void table_sweepsKFromTwoToEight_andWritesTheReport(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("n.html");
    CliRun r = CliRun.of("attack", "netflix", "--users", "2000", "--out", out.toString());
    assertEquals(0, r.code(), r.toString());
    for (int k = 2; k <= 8; k++) {
      assertTrue(
          r.out().matches("(?s).*\\n\\s+" + k + "\\s+" + (k * 2 / 8) + " \\|.*"),
          "row K = " + k + "\n" + r.out());
    }
    assertTrue(r.out().contains("chance"), r.out());
    String page = Files.readString(out);
    assertTrue(
        page.contains("Attack 6: the Netflix Prize") && page.contains("<svg"), "section and chart");
    assertFalse(page.contains("<script"), "self-contained");
  }

  @Test
  void wrongNotBelowKnown_isAUsageErrorNamingTheOption() {
    CliRun r = CliRun.of("attack", "netflix", "--known", "3", "--wrong", "3");
    assertEquals(2, r.code(), r.toString());
    assertTrue(r.err().contains("--wrong"), r.err());
  }
}
