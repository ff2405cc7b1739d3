package org.privet.cli.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.ExitCodes;

/** {@code privet synth} and {@code privet synth evaluate} on a small coded table. */
class SynthCommandTest {
  @TempDir Path dir;

  private static String[] run(String... args) {
    org.privet.cli.CliRun r = org.privet.cli.CliRun.of(args);
    return new String[] {Integer.toString(r.code()), r.out(), r.err()};
  }

  private Path[] smallTable() throws Exception {
    Path domain = dir.resolve("domain.json");
    Files.writeString(domain, "{\"a\": 3, \"b\": 2, \"c\": 4}");
    StringBuilder sb = new StringBuilder("a,b,c\n");
    for (int i = 0; i < 600; i++) {
      sb.append(i % 3).append(',').append(i % 2).append(',').append((i / 7) % 4).append('\n');
    }
    Path data = dir.resolve("data.csv");
    Files.writeString(data, sb);
    return new Path[] {data, domain};
  }

  @Test
  void synth_aimThenEvaluate_writesTableAndReport() throws Exception {
    Path[] in = smallTable();
    Path out = dir.resolve("syn.csv");
    String[] r = run("synth", "--data", in[0].toString(), "--domain", in[1].toString(), "--epsilon", "2",
        "--method", "aim", "--out", out.toString());
    assertEquals("0", r[0], r[2]);
    assertTrue(r[2].contains("aim: round"), "progress on stderr: " + r[2]);
    assertTrue(Files.readAllLines(out).get(0).equals("a,b,c"));
    assertTrue(Files.readAllLines(out).size() > 400);
    Path report = dir.resolve("report.html");
    String[] e = run("synth", "evaluate", "--real", in[0].toString(), "--synthetic", out.toString(),
        "--domain", in[1].toString(), "--workload", "all-2way", "--report", report.toString());
    assertEquals("0", e[0], e[2]);
    assertTrue(e[1].contains("workload all-2way (3 marginals): error"), e[1]);
    String html = Files.readString(report);
    assertTrue(html.contains("<svg") && html.contains("Workload error"));
  }

  /** Issue 23, item 6: without --workload, all k-way marginals with k = min(3, attributes). */
  @Test
  void synth_twoAttributesDefaultWorkload_runs() throws Exception {
    Path domain = dir.resolve("two.json");
    Files.writeString(domain, "{\"a\": 3, \"b\": 2}");
    StringBuilder sb = new StringBuilder("a,b\n");
    for (int i = 0; i < 300; i++) {
      sb.append(i % 3).append(',').append(i % 2).append('\n');
    }
    Path data = dir.resolve("two.csv");
    Files.writeString(data, sb);
    Path out = dir.resolve("two-syn.csv");
    String[] r = run("synth", "--data", data.toString(), "--domain", domain.toString(), "--epsilon", "1",
        "--method", "mwem", "--out", out.toString());
    assertEquals("0", r[0], r[2]);
    assertEquals("a,b", Files.readAllLines(out).get(0));
  }

  @Test
  void synth_mwemWithoutDomainForEvaluate_works() throws Exception {
    Path[] in = smallTable();
    Path out = dir.resolve("syn.csv");
    String[] r = run("synth", "--data", in[0].toString(), "--domain", in[1].toString(), "--epsilon", "1",
        "--method", "mwem", "--workload", "all-2way", "--out", out.toString());
    assertEquals("0", r[0], r[2]);
    String[] e = run("synth", "evaluate", "--real", in[0].toString(), "--synthetic", out.toString(),
        "--workload", "all-1way");
    assertEquals("0", e[0], e[2]);
  }

  @Test
  void synth_mstAndRapWithBothNoises_writeTablesOnTheDomain() throws Exception {
    Path[] in = smallTable();
    String[][] variants = {{"mst"}, {"rap", "--noise", "gaussian"}, {"rap", "--noise", "laplace"}};
    for (String[] v : variants) {
      Path out = dir.resolve("syn-" + String.join("-", v) + ".csv");
      java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("synth", "--data", in[0].toString(),
          "--domain", in[1].toString(), "--epsilon", "2", "--workload", "all-2way", "--out", out.toString(),
          "--method"));
      args.addAll(java.util.List.of(v));
      String[] r = run(args.toArray(String[]::new));
      assertEquals("0", r[0], String.join(" ", v) + ": " + r[2]);
      assertTrue(r[2].contains(v[0] + ": "), "progress on stderr: " + r[2]);
      assertTrue(r[2].contains(v.length > 1 && v[2].equals("laplace") ? "cost epsilon=" : "cost rho="), r[2]);
      var lines = Files.readAllLines(out);
      assertEquals("a,b,c", lines.get(0));
      assertTrue(lines.size() > 400, "about 600 rows (noisy count): " + lines.size());
    }
    String[] bad = run("synth", "--data", in[0].toString(), "--domain", in[1].toString(), "--epsilon", "1",
        "--method", "rap", "--noise", "cauchy", "--out", dir.resolve("x.csv").toString());
    assertEquals(Integer.toString(ExitCodes.USAGE), bad[0]);
    assertTrue(bad[2].contains("--noise"), bad[2]);
  }

  @Test
  void evaluate_workloadFileWithBaselines_reportsEveryClass() throws Exception {
    Path[] in = smallTable();
    Path queries = dir.resolve("queries.txt");
    Files.writeString(queries, """
        # one query a line
        marginal a,b
        marginal c
        count a=1 b=0
        count c=3
        mean c | a=2
        mean a | b=1 c=0   # conditional average of a coded column
        """);
    // The real table against itself: every error is 0 and the baselines are reported beside it.
    String[] e = run("synth", "evaluate", "--real", in[0].toString(), "--synthetic", in[0].toString(),
        "--domain", in[1].toString(), "--workload", "all-2way", "--workload-file", queries.toString(), "--baselines");
    assertEquals("0", e[0], e[2]);
    assertTrue(e[1].contains("workload file queries.txt (6 queries):"), e[1]);
    assertTrue(e[1].contains("  marginal        2     0.0000     0.0000"), e[1]);
    assertTrue(e[1].contains("  count           2     0.0000     0.0000"), e[1]);
    assertTrue(e[1].contains("  mean            2     0.0000     0.0000"), e[1]);
    assertTrue(e[1].contains("baselines on all-2way: independent 1-ways"), e[1]);
    Files.writeString(queries, "mean b | a=7\n");
    String[] bad = run("synth", "evaluate", "--real", in[0].toString(), "--synthetic", in[0].toString(),
        "--domain", in[1].toString(), "--workload-file", queries.toString());
    assertEquals(Integer.toString(ExitCodes.USAGE), bad[0]);
    assertTrue(bad[2].contains("workload file line 1: value of 'a' is not in its domain"), bad[2]);
  }

  @Test
  void synth_rapWithQueryFileBothNoises_measuresEveryQueryAndWritesTheReceipt() throws Exception {
    Path[] in = smallTable();
    Path queries = dir.resolve("queries.txt");
    Files.writeString(queries, """
        count a=1 b=0
        mean c | a=2
        """);
    for (String noise : new String[] {"gaussian", "laplace"}) {
      Path out = dir.resolve("syn-" + noise + ".csv");
      Path receipt = dir.resolve("receipt-" + noise + ".txt");
      String[] r = run("synth", "--data", in[0].toString(), "--domain", in[1].toString(), "--epsilon", "2",
          "--method", "rap", "--noise", noise, "--workload", queries.toString(), "--receipt", receipt.toString(),
          "--out", out.toString());
      assertEquals("0", r[0], noise + ": " + r[2]);
      var lines = Files.readAllLines(receipt);
      // Header, the row count, the 1-ways of a, b, c, the counts of a=1 b=0 and of a=2, the sum of c
      // over a=2: the pool is measured whole, so no selection events.
      assertEquals(1 + 1 + 3 + 3, lines.size(), String.join("\n", lines));
      assertTrue(lines.get(0).contains(noise.equals("laplace") ? "epsilon=2" : "rho="), lines.get(0));
      assertTrue(lines.stream().anyMatch(l -> l.startsWith("measure count a=1 b=0 (1 cells)")), lines.toString());
      assertTrue(lines.stream().anyMatch(l -> l.startsWith("measure count a=2 (1 cells)")), lines.toString());
      assertTrue(lines.stream().anyMatch(l -> l.startsWith("measure sum c | a=2 (1 cells)")), lines.toString());
      assertTrue(lines.stream().anyMatch(l -> l.startsWith("measure marginal c (4 cells)")), lines.toString());
      assertEquals("a,b,c", Files.readAllLines(out).get(0));
      String[] e = run("synth", "evaluate", "--real", in[0].toString(), "--synthetic", out.toString(),
          "--domain", in[1].toString(), "--workload", queries.toString());
      assertEquals("0", e[0], e[2]);
      assertTrue(e[1].contains("workload file queries.txt (2 queries):"), e[1]);
      assertTrue(e[1].contains("  count           1"), e[1]);
      assertTrue(e[1].contains("  mean            1"), e[1]);
      assertTrue(e[1].contains("independent max/mean   bootstrap max/mean"), "baselines by default: " + e[1]);
    }
    String[] bad = run("synth", "--data", in[0].toString(), "--domain", in[1].toString(), "--epsilon", "1",
        "--method", "rap", "--workload", dir.resolve("missing.txt").toString(), "--out", dir.resolve("x.csv").toString());
    assertEquals(Integer.toString(ExitCodes.USAGE), bad[0]);
    assertTrue(bad[2].contains("--workload"), bad[2]);
  }

  @Test
  void synth_badInput_usageExitWithoutDataValues() throws Exception {
    Path[] in = smallTable();
    Path out = dir.resolve("syn.csv");
    assertEquals(Integer.toString(ExitCodes.USAGE),
        run("synth", "--data", in[0].toString(), "--domain", in[1].toString(), "--out", out.toString())[0]);
    assertEquals(Integer.toString(ExitCodes.USAGE), run("synth", "--data", in[0].toString(), "--domain",
        in[1].toString(), "--epsilon", "1", "--method", "gan", "--out", out.toString())[0]);
    Path bad = dir.resolve("bad.csv");
    Files.writeString(bad, "a,b,c\n0,1,2\n0,1,31337\n");
    String[] r = run("synth", "--data", bad.toString(), "--domain", in[1].toString(), "--epsilon", "1",
        "--out", out.toString());
    assertEquals(Integer.toString(ExitCodes.USAGE), r[0]);
    assertTrue(r[2].contains("'c'") && r[2].contains("outside the declared domain"), r[2]);
    assertFalse(r[2].contains("31337"), r[2]);
  }
}
