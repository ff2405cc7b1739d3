package org.privet.cli.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;
import org.privet.cli.ExitCodes;
import org.privet.ledger.Ledger;
import org.privet.testing.TestPostgres;

/**
 * {@code privet train} on a dataset kept in PostgreSQL (a real server, {@link TestPostgres}): the
 * training runs there ({@code org.privet.models.BackendTraining}), and as a hostile analyst on
 * neighbouring tables (empty and one row; 40 rows and 41, the extra row outside every public bound
 * and key, in a unit of its own) every refusal is identical and charges nothing, and each method
 * (AUTO feature bounds and pure ε included) charges once with identical output and model shape.
 */
class TrainPostgresTest {
  @TempDir Path dir;

  /** TrainCommandTest's rows as SQL values. */
  static List<String> values(int n) {
    List<String> out = new ArrayList<>();
    for (String line : TrainCommandTest.rows(n).lines().skip(1).toList()) {
      String[] f = line.split(",");
      out.add("(" + f[0] + ", '" + f[1] + "', " + f[2] + ", '" + f[3] + "', '" + f[4] + "')");
    }
    return out;
  }

  private Path register(String name, List<String> values) throws Exception {
    String full = TestPostgres.server().newDatabase();
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE people (age integer, sex text, hours integer, income text, \"user\" text)");
      if (!values.isEmpty()) {
        s.execute("INSERT INTO people VALUES " + String.join(", ", values));
      }
    }
    Path run = Files.createDirectories(dir.resolve(name));
    Files.writeString(run.resolve("pw"), "unused\n");
    Path ws = run.resolve("ws");
    CliRun r = CliRun.of("dataset", "register", "--workspace", ws.toString(), "--name", "t", "--jdbc-url",
        full.substring(0, full.indexOf('?')), "--table", "people", "--db-user", "postgres", "--db-password-file",
        run.resolve("pw").toString(), "--epsilon", "4.9", "--delta", "1e-5", "--privacy-unit", "user");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return ws;
  }

  static final String[][] METHODS = {
    TrainCommandTest.GOOD,
    {"--model", "linear-regression", "--label", "hours", "--label-bounds", "0:100", "--features", "age,sex",
        "--feature-bounds", "age=17:90", "--feature-keys", "sex=F,M", "--epsilon", "0.5", "--delta", "1e-6",
        "--max-rows-per-unit", "4"},
    {"--model", "gaussian-naive-bayes", "--label", "income", "--positive", "high", "--features", "age,hours,sex",
        "--feature-bounds", "age=17:90,hours=1:99", "--feature-keys", "sex=F,M", "--epsilon", "0.5", "--delta",
        "1e-6"},
    {"--method", "dp-sgd", "--label", "income", "--positive", "high", "--features", "age,sex", "--feature-bounds",
        "age=17:90", "--feature-keys", "sex=F,M", "--epsilon", "1", "--delta", "1e-6", "--steps", "20",
        "--sampling-rate", "0.2", "--max-rows-per-unit", "3"},
    // AUTO bounds (age named, hours without bounds: a number column) under pure ε (δ = 0)
    {"--label", "income", "--positive", "high", "--features", "age,hours,sex", "--feature-bounds", "age=AUTO",
        "--feature-keys", "sex=F,M", "--epsilon", "0.5", "--delta", "0", "--max-rows-per-unit", "2"}};

  @Test
  void train_postgresNeighbouringTables_identicalRefusalsAndOneChargePerMethod() throws Exception {
    String hostile = "(150, 'X', -5, 'maybe', 'u9')";
    List<String> forty = values(40);
    List<String> fortyOne = new ArrayList<>(forty);
    fortyOne.add(hostile);
    List<Path[]> pairs = List.of(
        new Path[] {register("empty", List.of()), register("one", List.of(hostile))},
        new Path[] {register("forty", forty), register("forty-one", fortyOne)});
    // TrainCommandTest's refusals (one asks a row-level dataset for rows per unit: this one has units)
    List<String[]> bad = new ArrayList<>(TrainCommandTest.BAD.stream()
        .filter(b -> !List.of(b).contains("--max-rows-per-unit")).toList());
    bad.add(new String[] {"--label", "income", "--positive", "high", "--features", "age", "--feature-keys",
        "age=17,18", "--max-rows-per-unit", "21", "--epsilon", "1", "--delta", "1e-6"});
    bad.add(new String[] {"--label", "income", "--positive", "high", "--features", "sex", "--feature-bounds",
        "sex=0:1", "--epsilon", "1", "--delta", "1e-6"});
    for (Path[] pair : pairs) {
      for (String[] b : bad) {
        CliRun x = TrainCommandTest.train(pair[0], pair[0].resolveSibling("bad.json"), b);
        CliRun y = TrainCommandTest.train(pair[1], pair[1].resolveSibling("bad.json"), b);
        assertNotEquals(ExitCodes.OK, x.code(), x.toString());
        assertEquals(x.code(), y.code());
        assertEquals(x.err(), y.err());
        assertEquals(x.out(), y.out());
      }
      List<String> shapes = new ArrayList<>();
      for (Path ws : pair) {
        try (Ledger l = Ledger.open(ws)) {
          assertEquals(0, l.history("t").size(), "refusals charge nothing");
        }
        StringBuilder shape = new StringBuilder();
        for (String[] method : METHODS) {
          Path out = ws.resolveSibling("model.json");
          CliRun r = TrainCommandTest.train(ws, out, method);
          assertEquals(ExitCodes.OK, r.code(), r.toString());
          shape.append(r.code()).append('|').append(TrainCommandTest.mask(r.out().replace(out.toString(), "OUT")))
              .append('|').append(TrainCommandTest.mask(r.err())).append('|')
              .append(TrainCommandTest.shape(new ObjectMapper().readTree(out.toFile()))).append('\n');
        }
        try (Ledger l = Ledger.open(ws)) {
          assertEquals(METHODS.length, l.history("t").size(), "one charge per training");
        }
        shapes.add(shape.toString());
      }
      assertEquals(shapes.get(0), shapes.get(1));
      assertTrue(shapes.get(0).contains("adassp") && shapes.get(0).contains("dp-sgd")
          && shapes.get(0).contains("auto_bounds:{age:[#,#,],hours:[#,#,],}"), shapes.get(0));
    }
  }
}
