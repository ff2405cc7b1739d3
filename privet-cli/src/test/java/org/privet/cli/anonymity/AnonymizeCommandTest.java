package org.privet.cli.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;

/** {@code privet anonymize} and {@code privet anonymity check}, end to end on small CSVs. */
class AnonymizeCommandTest {

  private static Path people(Path dir) throws IOException {
    StringBuilder csv = new StringBuilder("age,sex,zip,disease\n");
    String[] diseases = {"flu", "hiv", "cancer"};
    for (int i = 0; i < 60; i++) {
      csv.append(20 + (i * 7) % 50).append(',').append(i % 2 == 0 ? "F" : "M").append(',')
          .append("z").append(i % 5).append(',').append(diseases[(i * 5) % 3]).append('\n');
    }
    Path f = dir.resolve("people.csv");
    Files.writeString(f, csv);
    return f;
  }

  @Test
  void anonymize_mondrian_writesAKAnonymousCsvThatCheckReadsBack(@TempDir Path dir) throws IOException {
    Path in = people(dir);
    Path out = dir.resolve("k5.csv");
    CliRun r = CliRun.of("anonymize", "--workspace", dir.resolve("ws").toString(), "--data", in.toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease", "--k", "5", "--l", "2", "--out", out.toString());
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().contains("NOT a differential privacy release"), r.out());
    String written = Files.readString(out);
    assertTrue(written.startsWith("# NOT A DIFFERENTIAL PRIVACY RELEASE."), written);
    assertTrue(written.contains("\nage,sex,zip,disease\n"));
    assertTrue(written.contains("[") && written.contains(".."), "generalized ranges are written");
    assertFalse(Files.exists(dir.resolve("ws").resolve("ledger.db")), "checking the ledger creates none");

    CliRun check = CliRun.of("anonymity", "check", "--workspace", dir.resolve("ws").toString(), "--data", out.toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease", "--original", in.toString());
    assertEquals(0, check.code(), check.toString());
    int k = Integer.parseInt(check.out().replaceAll("(?s).*k-anonymity: k = (\\d+).*", "$1"));
    assertTrue(k >= 5, check.out());
    int l = Integer.parseInt(check.out().replaceAll("(?s).*distinct l-diversity: l = (\\d+).*", "$1"));
    assertTrue(l >= 2, check.out());
    assertTrue(check.out().contains("marginal workload"), check.out());
  }

  @Test
  void check_rawTable_reportsKOne(@TempDir Path dir) throws IOException {
    CliRun check = CliRun.of("anonymity", "check", "--workspace", dir.resolve("ws").toString(), "--data",
        people(dir).toString(), "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease");
    assertEquals(0, check.code(), check.toString());
    assertTrue(check.out().contains("k-anonymity: k = 1 "), check.out());
  }

  @Test
  void anonymize_fullDomainWithHierarchy_usesTheUsersLevels(@TempDir Path dir) throws IOException {
    Path h = dir.resolve("h.txt");
    Files.write(h, List.of("zip;z0;north;*", "zip;z1;north;*", "zip;z2;south;*", "zip;z3;south;*", "zip;z4;south;*"));
    Path out = dir.resolve("fd.csv");
    CliRun r = CliRun.of("anonymize", "--workspace", dir.resolve("ws").toString(), "--data", people(dir).toString(),
        "--quasi-identifiers", "age,zip", "--k", "4", "--method", "full-domain", "--hierarchies", h.toString(),
        "--max-suppression", "0", "--out", out.toString());
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().contains("0 suppressed"), r.out());
    int k = Integer.parseInt(r.out().replaceAll("(?s).*k-anonymity: k = (\\d+).*", "$1"));
    assertTrue(k >= 4, r.out());
  }

  @Test
  void anonymize_registeredDataset_isRefusedWithoutConfirmation(@TempDir Path dir) throws IOException {
    Path in = people(dir);
    String ws = dir.resolve("ws").toString();
    CliRun reg = CliRun.of("dataset", "register", "--workspace", ws, "--name", "people", "--source", in.toString(),
        "--row-privacy", "--epsilon", "1");
    assertEquals(0, reg.code(), reg.toString());
    Path out = dir.resolve("k5.csv");
    String[] args = {"anonymize", "--workspace", ws, "--data", in.toString(), "--quasi-identifiers", "age,sex,zip",
        "--k", "5", "--out", out.toString()};
    CliRun refused = CliRun.of(args);
    assertEquals(2, refused.code(), refused.toString());
    assertTrue(refused.err().contains("--i-understand-this-is-not-dp"), refused.err());
    assertFalse(Files.exists(out), "nothing is written");
    String[] confirmed = java.util.Arrays.copyOf(args, args.length + 1);
    confirmed[args.length] = "--i-understand-this-is-not-dp";
    CliRun ok = CliRun.of(confirmed);
    assertEquals(0, ok.code(), ok.toString());
    try (org.privet.ledger.Ledger ledger = org.privet.ledger.Ledger.open(dir.resolve("ws"))) {
      assertEquals(0, ledger.history("people").size(), "anonymization charges no budget");
    }
  }
}
