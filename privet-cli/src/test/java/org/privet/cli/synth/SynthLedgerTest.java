package org.privet.cli.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.cli.CliRun;
import org.privet.cli.ExitCodes;
import org.privet.ledger.Ledger;

/** {@code privet synth --dataset NAME}: one durable ledger charge per synthesis, before release. */
class SynthLedgerTest {
  @TempDir Path dir;
  private Path ws;
  private Path data;
  private Path domain;

  @BeforeEach
  void setUp() throws Exception {
    ws = dir.resolve("ws");
    domain = dir.resolve("domain.json");
    Files.writeString(domain, "{\"a\": 3, \"b\": 2, \"c\": 4}");
    StringBuilder sb = new StringBuilder("a,b,c\n");
    for (int i = 0; i < 400; i++) {
      sb.append(i % 3).append(',').append(i % 2).append(',').append((i / 7) % 4).append('\n');
    }
    data = dir.resolve("tiny.csv");
    Files.writeString(data, sb);
    CliRun r = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "tiny",
        "--source", data.toString(), "--row-privacy", "--epsilon", "1.5");
    assertEquals(ExitCodes.OK, r.code(), r.err());
  }

  private CliRun synth(String epsilon, Path out) {
    return CliRun.of("synth", "--workspace", ws.toString(), "--dataset", "tiny", "--domain", domain.toString(),
        "--epsilon", epsilon, "--method", "mwem", "--workload", "all-2way", "--out", out.toString());
  }

  @Test
  void synth_registeredDataset_chargesLedgerOnceBeforeWriting() throws Exception {
    Path out = dir.resolve("syn.csv");
    CliRun r = synth("1", out);
    assertEquals(ExitCodes.OK, r.code(), r.err());
    assertTrue(r.err().contains("ledger charge #"), r.err());
    // The synthetic row count is itself a noisy (random, unseeded) estimate: check the header only.
    assertEquals("a,b,c", Files.readAllLines(out).get(0));
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("tiny").size());
      assertEquals(java.util.List.of(new PureDp(1.0)), ledger.history("tiny").get(0).cost());
    }
  }

  /**
   * RAP with a query file against the ledger: one pure-DP charge of the request, the receipt lists
   * every measurement; a malformed query file is refused before any charge (it is public input).
   */
  @Test
  void synth_rapQueryFileOnRegisteredDataset_chargesOnceAndWritesReceipt() throws Exception {
    Path queries = dir.resolve("queries.txt");
    Files.writeString(queries, "count a=1 b=0\nmean c | a=2\n");
    Path bad = dir.resolve("bad.txt");
    Files.writeString(bad, "mean c | a=9\n");
    Path out = dir.resolve("syn.csv");
    Path receipt = dir.resolve("receipt.txt");
    CliRun refused = CliRun.of("synth", "--workspace", ws.toString(), "--dataset", "tiny", "--domain", domain.toString(),
        "--epsilon", "1", "--method", "rap", "--noise", "laplace", "--workload", bad.toString(), "--out", out.toString());
    assertEquals(ExitCodes.USAGE, refused.code(), refused.err());
    assertTrue(refused.err().contains("workload file line 1"), refused.err());
    CliRun r = CliRun.of("synth", "--workspace", ws.toString(), "--dataset", "tiny", "--domain", domain.toString(),
        "--epsilon", "1", "--method", "rap", "--noise", "laplace", "--workload", queries.toString(),
        "--receipt", receipt.toString(), "--out", out.toString());
    assertEquals(ExitCodes.OK, r.code(), r.err());
    assertEquals("a,b,c", Files.readAllLines(out).get(0));
    var lines = Files.readAllLines(receipt);
    assertTrue(lines.stream().anyMatch(l -> l.startsWith("measure sum c | a=2")), lines.toString());
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("tiny").size());
      assertEquals(java.util.List.of(new PureDp(1.0)), ledger.history("tiny").get(0).cost());
    }
  }

  @Test
  void synth_budgetExhausted_refusedWithoutChargeOrOutput() throws Exception {
    assertEquals(ExitCodes.OK, synth("1", dir.resolve("first.csv")).code());
    Path out = dir.resolve("second.csv");
    CliRun r = synth("1", out);
    assertEquals(ExitCodes.BUDGET_EXCEEDED, r.code(), r.err());
    assertFalse(Files.exists(out), "nothing released after a refused charge");
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("tiny").size());
    }
  }

  @Test
  void synth_unknownDatasetOrBothSources_refusedWithoutCharge() throws Exception {
    Path out = dir.resolve("syn.csv");
    CliRun unknown = CliRun.of("synth", "--workspace", ws.toString(), "--dataset", "nope", "--domain",
        domain.toString(), "--epsilon", "1", "--method", "mwem", "--out", out.toString());
    assertEquals(ExitCodes.NOT_FOUND, unknown.code(), unknown.err());
    CliRun both = CliRun.of("synth", "--workspace", ws.toString(), "--dataset", "tiny", "--data", data.toString(),
        "--domain", domain.toString(), "--epsilon", "1", "--out", out.toString());
    assertEquals(ExitCodes.USAGE, both.code(), both.err());
    assertTrue(both.err().contains("--dataset"), both.err());
    assertFalse(Files.exists(out));
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(0, ledger.history("tiny").size());
    }
  }
}
