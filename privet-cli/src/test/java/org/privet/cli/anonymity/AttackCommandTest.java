package org.privet.cli.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;

/** The quick attacks end to end on the bundled Adult: summary on stdout, a self-contained report. */
class AttackCommandTest {

  private static void assertSelfContained(Path html) throws IOException {
    String page = Files.readString(html);
    assertTrue(page.startsWith("<!DOCTYPE html>") && page.contains("<svg"), "an HTML page with inline SVG");
    assertFalse(page.contains("<script") || page.contains("src=\"http") || page.contains("href=\"http"),
        "no script and nothing fetched from the network");
  }

  @Test
  void reconstruction_exactRecoversTheColumn(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("r.html");
    CliRun r = CliRun.of("attack", "reconstruction", "--out", out.toString());
    assertEquals(0, r.code(), r.toString());
    // The last row (m = 1024 = 4n): exact answers recover all 256 bits.
    assertTrue(r.out().matches("(?s).*\\n\\s+1024\\s+100\\.0%\\s+100\\.0%.*"), r.out());
    assertSelfContained(out);
  }

  @Test
  void differencing_exactIsExactAndTheLedgerRefuses(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("d.html");
    CliRun r = CliRun.of("attack", "differencing", "--trials", "20", "--out", out.toString());
    assertEquals(0, r.code(), r.toString());
    assertTrue(r.out().contains("within +-1 of the value: exact 100.0%"), r.out());
    assertTrue(r.out().contains("query 3 refused by the ledger after 2 charges"), r.out());
    assertSelfContained(out);
  }

  @Test
  void membership_badPool_isAUsageError() {
    CliRun r = CliRun.of("attack", "membership", "--pool", "1");
    assertEquals(2, r.code(), r.toString());
    assertTrue(r.err().contains("--pool"), r.err());
  }
}
