package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.privet.accounting.ApproxDp;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.PublicSchema;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.RegisteredSchema;
import org.privet.ledger.Role;

/**
 * Issue 23: the hostile suite runs over HTTP too. Issue 10's neighbouring tables (privet-hostile-
 * tests' base table against base plus the victim, user 17, with extreme values of every type; the
 * empty table against the victim alone) are registered as datasets of a real server on loopback,
 * and each DP SQL case of {@code privet-hostile-tests/src/test/resources/hostile/sql-cases.txt}
 * (the same file the in-process suites read) goes through {@code POST /v1/explain} and {@code POST
 * /v1/query}; synthesis requests go through {@code POST /v1/synth} and its status. On each pair
 * the status, the error code and the message text must be the same (EXPLAIN's whole answer too,
 * and a release's columns and charge), and the case refused or released as the file says.
 */
class HostileCorpusOverHttpTest {
  /** The tables' public schema, declared at registration (as the suite's tables fix theirs). */
  static final String SCHEMA = "uid:integer,g:string,k:integer,x:double,m:double,d:date,ts:timestamp,b:boolean";
  /**
   * Neighbouring datasets: base against base plus the victim, the empty table against the victim
   * alone. Names of one length, so that SQL positions in messages agree.
   */
  static final String[][] PAIRS = {{"base", "plus"}, {"none", "solo"}};

  @TempDir static Path dir;
  static PrivetServer server;
  static Api api;
  static String mallory;

  record Case(String expect, String name, String sql) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() throws IOException {
    Path file = Fixture.repoRoot().resolve("privet-hostile-tests/src/test/resources/hostile/sql-cases.txt");
    List<Case> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank() && !line.startsWith("#")) {
        String[] f = line.split(" \\| ", 3);
        out.add(new Case(f[0], f[1], f[2]));
      }
    }
    assertTrue(out.size() >= 20, "the corpus is there");
    return out.stream();
  }

  /** privet-hostile-tests' Cases.base(): 8 units, 1 to 4 rows each, ordinary values and NULLs. */
  static List<String> base() {
    List<String> rows = new ArrayList<>();
    String[] groups = {"a", "b", "zz", null};
    for (long u = 1; u <= 8; u++) {
      for (int r = 0; r < 1 + u % 4; r++) {
        rows.add(csv(u, groups[(int) ((u + r) % 4)], u * 3 - r, r == 2 ? null : (u - 4) * 1.25,
            (u * 100 + r) / 100.0, LocalDate.of(2020, 1, 1).plusDays(u * 7).toString(),
            LocalDateTime.of(2020, 1, 1, 10, 0).plusHours(u * r).toString().replace('T', ' '),
            u % 3 == 0 ? null : u % 2 == 0));
      }
    }
    return rows;
  }

  /** Cases.victim(): user 17, two rows with extreme values of every type. */
  static List<String> victim() {
    return List.of(
        csv(17L, "it's", Short.MAX_VALUE, Double.POSITIVE_INFINITY, 9999.99, "9999-12-31",
            "2021-06-01 00:00:00", true),
        csv(17L, "a", Short.MIN_VALUE, Double.NaN, -9999.99, "0001-01-01", "1970-01-01 00:00:00.000001",
            false));
  }

  private static String csv(long uid, String g, long k, Double x, double m, String d, String ts, Boolean b) {
    return uid + "," + (g == null ? "" : g) + "," + k + "," + (x == null ? "" : x.toString()) + "," + m + ","
        + d + "," + ts + "," + (b == null ? "" : b.toString());
  }

  @BeforeAll
  static void start() throws IOException {
    Path ws = dir.resolve("ws");
    List<String> base = base();
    List<String> plus = new ArrayList<>(base);
    plus.addAll(victim());
    Map<String, List<String>> tables = Map.of("base", base, "plus", plus, "none", List.<String>of(), "solo", victim());
    RegisteredSchema schema = LedgerCatalog.registered(PublicSchema.parse(SCHEMA), RegisteredSchema.Origin.DECLARED);
    try (Ledger ledger = Ledger.open(ws)) {
      mallory = ledger.addAnalyst("mallory", Role.ANALYST).apiKey();
      for (Map.Entry<String, List<String>> t : tables.entrySet()) {
        Path file = dir.resolve(t.getKey() + ".csv");
        Files.writeString(file, "uid,g,k,x,m,d,ts,b\n" + String.join("\n", t.getValue())
            + (t.getValue().isEmpty() ? "" : "\n"));
        for (boolean rows : new boolean[] {false, true}) {
          String name = t.getKey() + (rows ? "_rows" : "");
          DatasetSpec spec = DatasetSpec.builder().name(name).source(file.toString())
              .csv(new CsvOptions(true, ",", List.of(), ""))
              .privacyUnit(rows ? PrivacyUnit.row() : PrivacyUnit.column("uid"))
              .budget(new ApproxDp(1000, 1e-2)).build();
          ledger.register(spec, schema);
          ledger.grant(name, "mallory", new ApproxDp(1000, 1e-2));
        }
      }
    }
    server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build());
    api = new Api(server.url());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** Everything an analyst observes of one request but a release's noisy values. */
  static String observe(String route, String sql, String dataset) {
    Api.Response r = api.post(route, mallory, Api.JSON.createObjectNode()
        .put("sql", sql.replace("{t}", dataset)).toString());
    String text = r.text().replace(dataset, "{t}");
    if (r.status() != 200) {
      return r.status() + " " + text;
    }
    if (route.equals("/v1/explain")) {
      return r.status() + " " + text; // EXPLAIN reads no row: all of it must agree
    }
    JsonNode j = r.json();
    ObjectNode charge = (ObjectNode) j.path("charge").deepCopy();
    charge.remove(List.of("time", "id", "analystSpent"));
    return r.status() + " columns=" + j.path("columns") + " charge=" + charge.toString().replace(dataset, "{t}");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void hostileCase_overHttp_observedAlikeOnNeighbours(Case c) {
    for (String[] pair : PAIRS) {
      for (String route : List.of("/v1/explain", "/v1/query")) {
        String a = observe(route, c.sql(), pair[0]);
        String b = observe(route, c.sql(), pair[1]);
        assertEquals(a, b, c + " on " + route + ": " + pair[0] + " vs " + pair[1]);
        assertTrue(c.expect().equals("RELEASED") ? b.startsWith("200 ") : b.startsWith("4"),
            c + " on " + route + " should be " + c.expect() + ": " + b);
      }
    }
  }

  /** Synthesis requests, each with whether it must be accepted (202 and done) on both neighbours. */
  static Stream<String[]> synthCases() {
    String cat = "{\"name\": \"g\", \"type\": \"categorical\", \"values\": [\"a\", \"b\", \"zz\", \"it's\"]}";
    String num = "{\"name\": \"x\", \"type\": \"numeric\", \"lower\": -10, \"upper\": 10, \"bins\": 4}";
    String bool = "{\"name\": \"b\", \"type\": \"categorical\", \"values\": [\"true\", \"false\"]}";
    String date = "{\"name\": \"k\", \"type\": \"numeric\", \"lower\": -40000, \"upper\": 40000, \"bins\": 8}";
    return Stream.of(
        new String[] {"categorical, numeric with infinities and NaN, boolean", "accepted",
            "{\"dataset\": \"{t}_rows\", \"domain\": {\"attributes\": [" + cat + ", " + num + ", " + bool
                + "]}, \"epsilon\": 1, \"method\": \"mwem\"}"},
        new String[] {"extreme integers, AIM", "accepted",
            "{\"dataset\": \"{t}_rows\", \"domain\": {\"attributes\": [" + date + ", " + cat
                + "]}, \"epsilon\": 1, \"method\": \"aim\"}"},
        new String[] {"unknown attribute", "refused",
            "{\"dataset\": \"{t}_rows\", \"domain\": {\"nope\": 2}, \"epsilon\": 1, \"method\": \"mwem\"}"},
        new String[] {"a dataset with a privacy-unit column", "refused",
            "{\"dataset\": \"{t}\", \"domain\": {\"attributes\": [" + cat + "]}, \"epsilon\": 1, \"method\": \"mwem\"}"},
        new String[] {"epsilon too small", "refused",
            "{\"dataset\": \"{t}_rows\", \"domain\": {\"attributes\": [" + cat + "]}, \"epsilon\": 1e-9}"});
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("synthCases")
  void synth_overHttp_observedAlikeOnNeighbours(String name, String expect, String body) throws Exception {
    for (String[] pair : PAIRS) {
      String a = observeSynth(body, pair[0]);
      String b = observeSynth(body, pair[1]);
      assertEquals(a, b, name + ": " + pair[0] + " vs " + pair[1]);
      // Accepted: the job ran to its CSV on both. Refused: a client error on both (4xx, before any
      // charge), never an internal error.
      assertTrue(expect.equals("accepted") ? b.startsWith("202 done 200 ") : b.startsWith("4"), name + ": " + b);
    }
  }

  /** A synthesis job's start, final status and CSV header (not its noisy rows). */
  static String observeSynth(String body, String dataset) throws InterruptedException {
    Api.Response r = api.send("POST", "/v1/synth", mallory, body.replace("{t}", dataset), Map.of());
    if (r.status() != 202) {
      return r.status() + " " + r.text().replace(dataset, "{t}");
    }
    String job = r.json().path("job").asText();
    String status = "running";
    for (int i = 0; i < 600 && status.equals("running"); i++) {
      Thread.sleep(100);
      status = api.get("/v1/synth/" + job, mallory).json().path("status").asText();
    }
    Api.Response data = api.get("/v1/synth/" + job + "/data", mallory);
    return "202 " + status + " " + data.status() + " " + data.text().lines().findFirst().orElse("");
  }
}
