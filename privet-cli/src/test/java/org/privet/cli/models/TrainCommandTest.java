package org.privet.cli.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;
import org.privet.cli.ExitCodes;
import org.privet.ledger.Ledger;
import org.privet.models.DpSgd;

/**
 * {@code privet train} and {@code privet predict} end to end, and as a hostile analyst: on
 * neighbouring registered tables (the empty table and one row; 40 rows and 41, the extra row
 * carrying values outside every public bound and key) every refusal is identical (exit code and
 * message) and charges nothing, and a good request charges exactly once with identical stdout,
 * stderr and model shape; only the noisy numbers differ.
 */
class TrainCommandTest {
  @TempDir Path dir;

  static String rows(int n) {
    StringBuilder sb = new StringBuilder("age,sex,hours,income,user\n");
    for (int i = 0; i < n; i++) {
      sb.append(20 + (i * 7) % 50).append(',').append(i % 3 == 0 ? "F" : "M").append(',')
          .append(10 + (i * 11) % 60).append(',').append(i % 4 == 0 ? "high" : "low").append(",u").append(i % 7)
          .append('\n');
    }
    return sb.toString();
  }

  private Path register(String name, String csv, String... extra) throws Exception {
    Path run = Files.createDirectories(dir.resolve(name));
    Path data = run.resolve("data.csv");
    Files.writeString(data, csv);
    Path ws = run.resolve("ws");
    List<String> reg = new ArrayList<>(List.of("dataset", "register", "--workspace", ws.toString(), "--name", "t",
        "--source", data.toString(), "--epsilon", "3", "--delta", "1e-5",
        "--schema", "age:integer,sex:string,hours:integer,income:string,user:string"));
    reg.addAll(List.of(extra));
    if (!reg.contains("--privacy-unit")) {
      reg.add("--row-privacy");
    }
    CliRun r = CliRun.of(reg.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return ws;
  }

  static CliRun train(Path ws, Path out, String... options) {
    List<String> a = new ArrayList<>(List.of("train", "--workspace", ws.toString(), "--dataset", "t",
        "--out", out.toString()));
    a.addAll(List.of(options));
    return CliRun.of(a.toArray(String[]::new));
  }

  static final String[] GOOD = {"--model", "logistic-regression", "--label", "income", "--positive", "high",
      "--features", "age,sex,hours", "--feature-bounds", "age=17:90,hours=1:99", "--feature-keys", "sex=F,M",
      "--epsilon", "1", "--delta", "1e-6"};

  static final List<String[]> BAD = List.of(
      new String[] {"--label", "income", "--positive", "high", "--features", "sex", "--feature-bounds",
          "sex=AUTO", "--epsilon", "1", "--delta", "1e-6"},
      new String[] {"--label", "income", "--positive", "high", "--features", "age,nope", "--feature-bounds",
          "age=17:90", "--epsilon", "1", "--delta", "1e-6"},
      new String[] {"--label", "income", "--positive", "high", "--features", "age,sex", "--feature-bounds",
          "age=17:90", "--epsilon", "1", "--delta", "1e-6"},
      new String[] {"--label", "income", "--features", "age", "--feature-bounds", "age=17:90", "--epsilon", "1",
          "--delta", "1e-6"},
      new String[] {"--label", "income", "--positive", "high", "--features", "age", "--feature-bounds",
          "age=90:17", "--epsilon", "1", "--delta", "1e-6"},
      new String[] {"--method", "dp-sgd", "--label", "income", "--positive", "high", "--features", "age",
          "--feature-bounds", "age=17:90", "--epsilon", "1", "--delta", "0"},
      new String[] {"--label", "income", "--positive", "high", "--features", "age", "--feature-bounds",
          "age=17:90", "--epsilon", "5", "--delta", "1e-6"},
      new String[] {"--label", "income", "--positive", "high", "--features", "income", "--feature-keys",
          "income=high,low", "--epsilon", "1", "--delta", "1e-6"},
      new String[] {"--model", "linear-regression", "--label", "hours", "--features", "age", "--feature-bounds",
          "age=17:90", "--epsilon", "1", "--delta", "1e-6"},
      new String[] {"--label", "income", "--positive", "high", "--features", "age", "--feature-bounds",
          "age=17:90", "--max-rows-per-unit", "3", "--epsilon", "1", "--delta", "1e-6"});

  private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE]-?\\d+)?");

  @Test
  void train_neighbouringTables_identicalRefusalsAndOneCharge() throws Exception {
    String hostile = "150,X,-5,maybe,u9\n";
    List<Path[]> pairs = List.of(
        new Path[] {register("empty", rows(0)), register("one", rows(0) + hostile)},
        new Path[] {register("forty", rows(40)), register("forty-one", rows(40) + hostile)});
    for (Path[] pair : pairs) {
      for (String[] bad : BAD) {
        CliRun a = train(pair[0], pair[0].resolveSibling("bad.json"), bad);
        CliRun b = train(pair[1], pair[1].resolveSibling("bad.json"), bad);
        assertNotEquals(ExitCodes.OK, a.code(), a.toString());
        assertEquals(a.code(), b.code());
        assertEquals(a.err(), b.err());
        assertEquals(a.out(), b.out());
        assertTrue(Files.notExists(pair[0].resolveSibling("bad.json")));
        assertTrue(Files.notExists(pair[1].resolveSibling("bad.json")));
      }
      List<String> shapes = new ArrayList<>();
      for (Path ws : pair) {
        try (Ledger l = Ledger.open(ws)) {
          assertEquals(0, l.history("t").size(), "refusals charge nothing");
        }
        Path out = ws.resolveSibling("model.json");
        CliRun r = train(ws, out, GOOD);
        assertEquals(ExitCodes.OK, r.code(), r.toString());
        try (Ledger l = Ledger.open(ws)) {
          assertEquals(1, l.history("t").size(), "one charge");
        }
        shapes.add(r.code() + "|" + mask(r.out().replace(out.toString(), "OUT")) + "|" + mask(r.err()) + "|"
            + shape(new ObjectMapper().readTree(out.toFile())));
      }
      assertEquals(shapes.get(0), shapes.get(1));
    }
  }

  static String mask(String s) {
    return NUMBER.matcher(s).replaceAll("#");
  }

  /** The JSON's keys and value kinds, without the numbers. */
  static String shape(JsonNode n) {
    if (n.isObject()) {
      StringBuilder sb = new StringBuilder("{");
      for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
        String k = it.next();
        sb.append(k).append(':').append(shape(n.get(k))).append(',');
      }
      return sb.append('}').toString();
    }
    if (n.isArray()) {
      StringBuilder sb = new StringBuilder("[");
      n.forEach(e -> sb.append(shape(e)).append(','));
      return sb.append(']').toString();
    }
    return n.isNumber() ? "#" : n.asText();
  }

  @Test
  void predict_everyInputRow_getsPredictionAndProbability() throws Exception {
    Path ws = register("p", rows(60));
    Path model = dir.resolve("m.json");
    assertEquals(ExitCodes.OK, train(ws, model, GOOD).code());
    Path people = dir.resolve("people.csv");
    Files.writeString(people, "name,age,sex,hours\nann,30,F,40\n\"b, c\",,M,\nzed,200,Q,-1\n");
    CliRun r = CliRun.of("predict", "--model", model.toString(), "--source", people.toString(), "--format", "csv");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    List<String> lines = r.out().lines().toList();
    assertEquals("name,age,sex,hours,prediction,probability", lines.get(0));
    assertEquals(4, lines.size());
    assertTrue(lines.get(1).startsWith("ann,30,F,40,"), lines.get(1));
    assertTrue(lines.get(2).startsWith("\"b, c\",,M,,"), lines.get(2));
    for (String line : lines.subList(1, 4)) {
      String[] f = line.split(",");
      assertTrue(f[f.length - 2].equals("high") || f[f.length - 2].equals("not high"), line);
      double p = Double.parseDouble(f[f.length - 1]);
      assertTrue(p >= 0 && p <= 1 && (p >= 0.5) == f[f.length - 2].equals("high"), line);
    }
    CliRun json = CliRun.of("predict", "--model", model.toString(), "--source", people.toString(), "--format", "json");
    assertEquals(3, new ObjectMapper().readTree(json.out()).size());
  }

  @Test
  void train_unitDataset_boundsRowsPerUnitAndWritesStatement() throws Exception {
    Path ws = register("units", rows(70), "--privacy-unit", "user");
    Path model = dir.resolve("units.json");
    List<String> a = new ArrayList<>(List.of(GOOD));
    a.addAll(List.of("--max-rows-per-unit", "5"));
    CliRun r = train(ws, model, a.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    JsonNode privacy = new ObjectMapper().readTree(model.toFile()).get("privacy");
    assertEquals(5, privacy.get("max_rows_per_unit").asInt());
    assertEquals("column user", privacy.get("privacy_unit").asText());
    assertTrue(privacy.get("epsilon_certified").asDouble() <= 1.0);
  }

  /** The README's section runs as written (data/ and docs/ paths from the repository, files in a temp folder). */
  @Test
  void readme_trainSection_runs() throws Exception {
    Path root = org.privet.testing.Repository.root();
    String readme = Files.readString(root.resolve("README.md"));
    int from = readme.indexOf("## DP machine learning");
    String section = readme.substring(from, readme.indexOf("\n## ", from + 5));
    Path ws = dir.resolve("readme-ws");
    int ran = 0;
    String lastOut = "";
    for (List<String> args : org.privet.cli.ReadmeCommandsTestAccess.privetCommands(section)) {
      List<String> resolved = new ArrayList<>();
      for (String a : args) {
        resolved.add(a.startsWith("data/") || a.startsWith("docs/") ? root.resolve(a).toString()
            : a.equals("model.json") ? dir.resolve("model.json").toString() : a);
      }
      resolved.addAll(List.of("--workspace", ws.toString()));
      if (args.get(0).equals("predict")) {
        resolved.removeAll(List.of("--workspace", ws.toString()));
      }
      CliRun r = CliRun.of(resolved.toArray(String[]::new));
      assertEquals(ExitCodes.OK, r.code(), String.join(" ", args) + "\n" + r);
      lastOut = r.out();
      ran++;
    }
    assertEquals(3, ran);
    assertEquals(5, lastOut.lines().count(), lastOut);
    assertTrue(lastOut.lines().findFirst().orElseThrow().endsWith(",prediction,probability"));
  }

  /** The DP-SGD accountant's ε equals what {@code privet account} prints for the same events. */
  @Test
  void dpSgd_accountant_equalsPrivetAccount() {
    DpSgd sgd = DpSgd.builder().epsilon(1).delta(1e-6).samplingRate(0.02).steps(50).dimension(8)
        .pldInterval(1e-3).build();
    CliRun r = CliRun.of("account", "--mechanism", "gaussian", "--noise-multiplier",
        Double.toString(sgd.noiseMultiplier()), "--sampling-rate", Double.toString(sgd.samplingRate()),
        "--steps", Integer.toString(sgd.steps()), "--delta", Double.toString(sgd.accountantDelta()),
        "--accountant", "pld", "--value-discretization-interval", "1e-3");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    String last = r.out().lines().reduce((x, y) -> y).orElseThrow();
    assertEquals("epsilon=" + sgd.accountantEpsilon(), last);
    assertTrue(sgd.accountantEpsilon() <= 1 && sgd.accountantEpsilon() > 0.95, last);
  }
}
