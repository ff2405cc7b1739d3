package org.privet.cli.synth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;
import org.privet.cli.ExitCodes;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.Ledger;

/**
 * Issue 10 item 4, as a hostile analyst: {@code privet synth --dataset} run on neighbouring
 * registered tables (one row added or removed, including the empty and the one-row table, and a
 * row whose values lie outside the analyst's domain) must be indistinguishable apart from the paid
 * noisy release. Compared: exit code, stderr and stdout with their noisy parts masked (numbers and
 * the marginals the generator selected), the files written and their shape (header, field count,
 * every value in the domain), and the ledger (exactly one charge, before any row is read).
 *
 * <p>Before the fix each pair was told apart for free: the out-of-domain row was refused before the
 * charge with its line and column named; the empty table failed after the charge; the registered
 * delimiter, null string and Parquet format were ignored.
 */
class SynthDatasetNeighboursTest {
  @TempDir Path dir;

  private static final String DOMAIN = """
      {"header": false, "fileColumns": ["age", "sex", "job"], "attributes": [
        {"name": "age", "type": "numeric", "lower": 0, "upper": 100, "bins": 5},
        {"name": "sex", "type": "categorical", "values": ["F", "M"]},
        {"name": "job", "type": "categorical", "values": ["clerk", "VP", "other"], "other": "other"}]}
      """;
  private static final List<Set<String>> VALUES = List.of(
      Set.of("10.0", "30.0", "50.0", "70.0", "90.0"), Set.of("F", "M"), Set.of("clerk", "VP", "other"));

  private static String base(String sep) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      sb.append(18 + (i * 7) % 60).append(sep).append(i % 3 == 0 ? "F" : "M").append(sep)
          .append(i % 5 == 0 ? "VP" : "clerk").append('\n');
    }
    return sb.toString();
  }

  /** The observable outcome of one run, noisy values masked. */
  record Outcome(int code, String err, String out, List<String> fileHeaders, boolean wellFormed, int charges) {}

  private Outcome run(String name, String method, String csvText, String... registerOptions) throws Exception {
    Path runDir = Files.createDirectories(dir.resolve(name));
    Path ws = runDir.resolve("ws");
    Path data = runDir.resolve("data.csv");
    Files.writeString(data, csvText);
    Path domain = runDir.resolve("domain.json");
    Files.writeString(domain, DOMAIN);
    List<String> reg = new ArrayList<>(List.of("dataset", "register", "--workspace", ws.toString(), "--name", "t",
        "--source", data.toString(), "--row-privacy", "--epsilon", "10", "--delta", "1e-6"));
    reg.addAll(List.of(registerOptions));
    CliRun r = CliRun.of(reg.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return synth(runDir, ws, domain, method);
  }

  private Outcome runParquet(String name, String csvText) throws Exception {
    Path runDir = Files.createDirectories(dir.resolve(name));
    Path csv = runDir.resolve("rows.csv");
    Files.writeString(csv, "age,sex,job\n" + csvText);
    Path parquet = runDir.resolve("data.parquet");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT * FROM read_csv('" + csv + "', header = true, all_varchar = true)) TO '"
          + parquet + "' (FORMAT PARQUET)");
    }
    Path ws = runDir.resolve("ws");
    Path domain = runDir.resolve("domain.json");
    Files.writeString(domain, DOMAIN);
    CliRun r = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "t",
        "--source", parquet.toString(), "--row-privacy", "--epsilon", "10");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return synth(runDir, ws, domain, "mwem");
  }

  private Outcome synth(Path runDir, Path ws, Path domain, String method) throws Exception {
    Path out = runDir.resolve("syn.csv");
    CliRun r = CliRun.of("synth", "--workspace", ws.toString(), "--dataset", "t", "--domain", domain.toString(),
        "--epsilon", "1", "--method", method, "--workload", "all-2way", "--out", out.toString());
    List<String> headers = new ArrayList<>();
    boolean wellFormed = true;
    try (var files = Files.list(runDir)) {
      for (Path f : files.sorted().toList()) {
        if (f.getFileName().toString().startsWith("syn")) {
          List<String> lines = Files.readAllLines(f);
          headers.add(f.getFileName() + ":" + lines.get(0));
          for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            wellFormed &= cells.length == 3;
            for (int a = 0; a < Math.min(3, cells.length); a++) {
              wellFormed &= VALUES.get(a).contains(cells[a]);
            }
          }
        }
      }
    }
    int charges;
    try (Ledger ledger = Ledger.open(ws)) {
      charges = ledger.history("t").size();
    }
    String err = mask(r.err(), runDir);
    String outText = mask(r.out(), runDir);
    if (method.equals("aim")) {
      // AIM's number of rounds is itself a noisy output (annealing reacts to noisy measurements):
      // compare the set of masked lines.
      err = String.join("\n", new TreeSet<>(List.of(err.split("\n"))));
    }
    return new Outcome(r.code(), err, outText, headers, wellFormed, charges);
  }

  private static final Pattern SELECTED = Pattern.compile("(selected|measured|last) [^(\\n)]+");

  private static String mask(String text, Path runDir) {
    String s = text.replace(runDir.toString(), "<dir>");
    s = SELECTED.matcher(s).replaceAll("selected <marginal> ");
    return s.replaceAll("[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?", "#");
  }

  private void assertIndistinguishable(Outcome a, Outcome b) {
    assertEquals(ExitCodes.OK, a.code(), a.toString());
    assertEquals(a, b);
    assertTrue(a.wellFormed() && a.charges() == 1, a.toString());
  }

  @Test
  void synth_emptyVersusOneRow_sameObservableOutcome() throws Exception {
    String[] opts = {"--no-header", "--columns", "age,sex,job", "--delimiter", "; ", "--null-string", "NA"};
    assertIndistinguishable(run("empty", "mwem", "", opts), run("one", "mwem", "37; F; VP\n", opts));
  }

  @Test
  void synth_emptyVersusOneRowWithAim_sameObservableOutcome() throws Exception {
    String[] opts = {"--no-header", "--columns", "age,sex,job"};
    assertIndistinguishable(run("empty", "aim", "", opts), run("one", "aim", "37,F,VP\n", opts));
  }

  @Test
  void synth_emptyVersusOneRowWithMstAndRap_sameObservableOutcome() throws Exception {
    String[] opts = {"--no-header", "--columns", "age,sex,job"};
    assertIndistinguishable(run("empty-mst", "mst", "", opts), run("one-mst", "mst", "37,F,VP\n", opts));
    assertIndistinguishable(run("empty-rap", "rap", "", opts), run("one-rap", "rap", "37,F,VP\n", opts));
  }

  @Test
  void synth_rowOutsideDomainAdded_sameObservableOutcome() throws Exception {
    String[] opts = {"--no-header", "--columns", "age,sex,job", "--delimiter", "; ", "--null-string", "NA"};
    String base = base("; ");
    Outcome without = run("without", "mwem", base, opts);
    // Before the fix: "line 31: column 'age' holds a value outside the declared domain", for free.
    assertIndistinguishable(without, run("age", "mwem", base + "200; F; VP\n", opts));
    assertIndistinguishable(without, run("unknown", "mwem", base + "-3; X; CEO\n", opts));
    assertIndistinguishable(without, run("null", "mwem", base + "NA; NA; NA\n", opts));
    assertIndistinguishable(without, run("garbage", "mwem", base + "abc; F\n", opts));
    assertIndistinguishable(without, run("wide", "mwem", base + "1; F; VP; extra; fields\n", opts));
  }

  @Test
  void synth_headerCsvRowAddedOrRemoved_sameObservableOutcome() throws Exception {
    String header = "sex,job,age\n";
    String rows = base(",").lines().map(l -> {
      String[] c = l.split(",");
      return c[1] + "," + c[2] + "," + c[0];
    }).reduce("", (x, y) -> x + y + "\n");
    assertIndistinguishable(run("without", "mwem", header), run("one", "mwem", header + "M,VP,1e9\n"));
    assertIndistinguishable(run("base", "mwem", header + rows), run("plus", "mwem", header + rows + "M,clerk,NaN\n"));
  }

  @Test
  void synth_parquetEmptyVersusOneRow_sameObservableOutcome() throws Exception {
    assertIndistinguishable(runParquet("empty", ""), runParquet("one", "999,F,VP\n"));
  }

  @Test
  void synth_domainAttributeNotInDataset_refusedBeforeChargeOnPublicSchemaOnly() throws Exception {
    Path runDir = Files.createDirectories(dir.resolve("missing"));
    Path ws = runDir.resolve("ws");
    Path data = runDir.resolve("data.csv");
    Files.writeString(data, base(","));
    assertEquals(ExitCodes.OK, CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "t",
        "--source", data.toString(), "--row-privacy", "--epsilon", "10", "--no-header", "--columns", "age,sex,work")
        .code());
    Path domain = runDir.resolve("domain.json");
    Files.writeString(domain, DOMAIN);
    Outcome o = synth(runDir, ws, domain, "mwem");
    assertEquals(ExitCodes.USAGE, o.code());
    assertTrue(o.err().contains("attribute 'job' is not a column of dataset 't'"), o.err());
    assertEquals(List.of(), o.fileHeaders());
    assertEquals(0, o.charges());
  }
}
