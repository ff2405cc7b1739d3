package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.ledger.Ledger;
import org.privet.ledger.Role;

/**
 * The whole SQL attack corpus of privet-sql ({@code src/test/resources/corpus/invalid}) over HTTP,
 * by an analyst granted both datasets: every query is refused (422 with the corpus' line and
 * column, or 404 for an unknown dataset, or 400 for an empty one), nothing is charged, and no
 * response contains a value of the table that the query text does not contain itself.
 */
class AttackCorpusOverHttpTest {
  @TempDir static Path dir;
  static PrivetServer server;
  static Api api;
  static String key;
  static Set<String> dataValues;

  record Attack(String name, Map<String, String> expect, String sql) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Attack> corpus() throws IOException {
    Path invalid = Fixture.repoRoot().resolve("privet-sql/src/test/resources/corpus/invalid");
    List<Attack> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(invalid)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".sql")).sorted().toList()) {
        List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
        Map<String, String> expect = new java.util.LinkedHashMap<>();
        int i = 0;
        while (i < lines.size() && lines.get(i).startsWith("-- ")) {
          String line = lines.get(i++).substring(3);
          int colon = line.indexOf(':');
          if (colon > 0 && line.substring(0, colon).matches("[a-z_]+")) {
            expect.put(line.substring(0, colon), line.substring(colon + 1).trim());
          }
        }
        out.add(new Attack(p.getFileName().toString(), expect, String.join("\n", lines.subList(i, lines.size()))));
      }
    }
    assertTrue(out.size() >= 50, "the corpus is there");
    return out.stream();
  }

  @BeforeAll
  static void start() throws IOException {
    Path ws = dir.resolve("ws");
    try (Ledger ledger = Ledger.open(ws)) {
      Fixture.registerAdult(ledger, "adult", new ApproxDp(1, 1e-6));
      Fixture.registerAdultRows(ledger, "adult_rows", new ApproxDp(1, 1e-6));
      key = ledger.addAnalyst("mallory", Role.ANALYST).apiKey();
      ledger.grant("adult", "mallory", new ApproxDp(1, 1e-6));
      ledger.grant("adult_rows", "mallory", new ApproxDp(1, 1e-6));
    }
    dataValues = new TreeSet<>();
    for (String line : Files.readAllLines(Fixture.rawAdult(), StandardCharsets.UTF_8)) {
      for (String v : line.split(", ")) {
        if (!v.isBlank() && !v.chars().allMatch(Character::isDigit) && !v.equals("?")) {
          dataValues.add(v.trim());
        }
      }
    }
    server = PrivetServer.start(ServerOptions.builder(ws).port(0).build());
    api = new Api(server.url());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static int charges() {
    return Fixture.charges(dir.resolve("ws"), "adult", "adult_rows");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void attack_overHttp_refusedNothingChargedNoDataValue(Attack attack) {
    int before = charges();
    for (String route : List.of("/v1/query", "/v1/explain")) {
      Api.Response r = api.post(route, key, Api.JSON.createObjectNode().put("sql", attack.sql()).toString());
      assertTrue(r.status() == 422 || r.status() == 404 || r.status() == 400, route + ": " + r.text());
      assertEquals(List.of("error"), names(r), r.text());
      String error = attack.expect().get("error");
      if (r.status() == 422 && error != null) {
        String[] lc = error.split(":");
        assertEquals(Integer.parseInt(lc[0]), r.json().path("error").path("line").asInt(), r.text());
        assertEquals(Integer.parseInt(lc[1]), r.json().path("error").path("column").asInt(), r.text());
      }
      for (String value : dataValues) {
        if (!attack.sql().contains(value)) {
          assertFalse(r.text().contains(value), "the answer echoes a table value: " + value);
        }
      }
    }
    assertEquals(before, charges(), "a refused query charges nothing");
  }

  private static List<String> names(Api.Response r) {
    List<String> out = new ArrayList<>();
    r.json().fieldNames().forEachRemaining(out::add);
    return out;
  }
}
