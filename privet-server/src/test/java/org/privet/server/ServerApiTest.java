package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.PureDp;
import org.privet.ledger.Ledger;
import org.privet.ledger.Role;

/**
 * The API over real HTTP on loopback against a real server and ledger: authentication,
 * isolation between analysts (the same 404 as a dataset that does not exist), roles, malformed
 * requests and the auth-failure rate limit. Nothing here may charge or leak a data value.
 */
class ServerApiTest {
  static final String COUNT = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.125) COUNT(*) AS n FROM %s";
  static final String SEX = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.125,"
      + " group_selection_strategy = PUBLIC_GROUPS) sex, COUNT(*) AS n FROM %s GROUP BY sex";

  @TempDir static Path dir;
  static PrivetServer server;
  static Api api;
  static String boss;
  static String alice;
  static String bob;
  static String eve;

  @BeforeAll
  static void start() {
    Path ws = dir.resolve("ws");
    try (Ledger ledger = Ledger.open(ws)) {
      Fixture.registerAdult(ledger, "adult", new ApproxDp(4, 1e-6));
      Fixture.registerAdult(ledger, "bobs", new ApproxDp(4, 1e-6));
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      bob = ledger.addAnalyst("bob", Role.ANALYST).apiKey();
      eve = ledger.addAnalyst("eve", Role.ANALYST).apiKey();
      ledger.grant("adult", "alice", new PureDp(2));
      ledger.grant("adult", "eve", new PureDp(1));
      ledger.grant("bobs", "bob", new PureDp(2));
    }
    // A high failure limit here: the rate limit has its own server below.
    server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(2).authFailuresPerMinute(1000).build());
    api = new Api(server.url());
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static int charges() {
    return Fixture.charges(dir.resolve("ws"), "adult", "bobs");
  }

  /** Every authenticated route, as (method, path, body). */
  private static List<String[]> authenticatedRoutes(String dataset) {
    return List.of(
        new String[] {"GET", "/v1/datasets", null},
        new String[] {"POST", "/v1/query", sqlBody(String.format(COUNT, dataset))},
        new String[] {"POST", "/v1/explain", sqlBody(String.format(COUNT, dataset))},
        new String[] {"GET", "/v1/budget?dataset=" + dataset, null},
        new String[] {"GET", "/v1/history?dataset=" + dataset, null});
  }

  private static String sqlBody(String sql) {
    return Api.JSON.createObjectNode().put("sql", sql).toString();
  }

  /** An error answer has exactly the error object: no data, no charge. */
  private static void assertError(Api.Response r, int status, String code) {
    assertEquals(status, r.status(), r.text());
    JsonNode j = r.json();
    assertEquals(List.of("error"), iterator(j.fieldNames()), r.text());
    assertEquals(code, r.errorCode(), r.text());
    assertFalse(r.text().contains("\"value\""), r.text());
    assertFalse(r.text().contains("\"charge\""), r.text());
  }

  private static List<String> iterator(java.util.Iterator<String> it) {
    List<String> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  @Test
  void health_needsNoKey() {
    Api.Response r = api.get("/v1/health", null);
    assertEquals(200, r.status());
    assertEquals("{\"status\":\"ok\"}", r.text());
  }

  @Test
  void everyRoute_missingWrongOrMalformedKey_401WithoutDataOrCharge() {
    int before = charges();
    String wrongSecret = alice.substring(0, alice.length() - 3) + (alice.endsWith("AAA") ? "BBB" : "AAA");
    for (String[] route : authenticatedRoutes("adult")) {
      List<Map<String, String>> headers = List.of(Map.of(), Map.of("Authorization", "Bearer " + wrongSecret),
          Map.of("Authorization", "Bearer not-a-key"), Map.of("Authorization", "Basic " + alice),
          Map.of("Authorization", alice));
      for (Map<String, String> h : headers) {
        Api.Response r = api.send(route[0], route[1], null, route[2], h);
        assertError(r, 401, "unauthorized");
        assertFalse(r.text().contains(alice.substring(4, 20)), "the key is not echoed");
      }
    }
    assertEquals(before, charges());
  }

  @Test
  void revokedKey_failsFromTheNextRequestOn() {
    String key;
    try (Ledger ledger = Ledger.open(dir.resolve("ws"))) {
      key = ledger.addAnalyst("temp", Role.ANALYST).apiKey();
      ledger.grant("adult", "temp", new PureDp(1));
    }
    assertEquals(200, api.get("/v1/budget?dataset=adult", key).status());
    try (Ledger ledger = Ledger.open(dir.resolve("ws"))) {
      ledger.revokeAnalyst("temp");
    }
    int before = charges();
    for (String[] route : authenticatedRoutes("adult")) {
      assertError(api.send(route[0], route[1], key, route[2], Map.of()), 401, "unauthorized");
    }
    assertEquals(before, charges());
  }

  @Test
  void anotherAnalystsDataset_answersExactlyAsANonexistentOne_andChargesNothing() {
    int before = charges();
    for (int i = 0; i < authenticatedRoutes("x").size(); i++) {
      String[] granted = authenticatedRoutes("bobs").get(i);
      String[] missing = authenticatedRoutes("nosuch").get(i);
      Api.Response a = api.send(granted[0], granted[1], alice, granted[2], Map.of());
      Api.Response b = api.send(missing[0], missing[1], alice, missing[2], Map.of());
      if (granted[1].equals("/v1/datasets")) {
        assertEquals(200, a.status());
        List<String> names = new ArrayList<>();
        a.json().forEach(d -> names.add(d.get("name").asText()));
        assertEquals(List.of("adult"), names, "alice lists only what she is granted");
        continue;
      }
      assertError(a, 404, "not_found");
      assertEquals(b.status(), a.status(), granted[1]);
      assertEquals(b.text(), a.text(), granted[1]);
    }
    // Also with an invalid query (a refusal would otherwise be an existence oracle).
    String bad = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM %s WHERE nosuch = 1";
    Api.Response a = api.post("/v1/query", alice, sqlBody(String.format(bad, "bobs")));
    Api.Response b = api.post("/v1/query", alice, sqlBody(String.format(bad, "nosuch")));
    assertEquals(b.text(), a.text());
    assertEquals(404, a.status());
    // Bob, who holds the grant, gets a refusal with its position instead.
    Api.Response c = api.post("/v1/query", bob, sqlBody(String.format(bad, "bobs")));
    assertEquals(422, c.status(), c.text());
    assertEquals(1, c.json().path("error").path("line").asInt());
    assertEquals(String.format(bad, "bobs").indexOf("nosuch") + 1, c.json().path("error").path("column").asInt(), c.text());
    assertEquals(before, charges());
  }

  @Test
  void analystOnCuratorRoutes_403AndNoEffect() {
    int analysts;
    try (Ledger ledger = Ledger.open(dir.resolve("ws"))) {
      analysts = ledger.analysts().size();
    }
    String[][] routes = {
      {"POST", "/v1/datasets", "{}"}, {"POST", "/v1/grants", "{\"dataset\":\"bobs\",\"analyst\":\"alice\",\"epsilon\":1}"},
      {"POST", "/v1/analysts", "{\"name\":\"mallory\",\"role\":\"curator\"}"}, {"GET", "/v1/analysts", null},
      {"DELETE", "/v1/analysts/bob", null},
    };
    for (String[] r : routes) {
      assertError(api.send(r[0], r[1], alice, r[2], Map.of()), 403, "forbidden");
    }
    try (Ledger ledger = Ledger.open(dir.resolve("ws"))) {
      assertEquals(analysts, ledger.analysts().size());
      assertTrue(ledger.grants("bobs").stream().noneMatch(g -> g.analyst().equals("alice")));
    }
  }

  @Test
  void curatorRoutes_addGrantRegisterRevoke() {
    Api.Response added = api.post("/v1/analysts", boss, "{\"name\":\"carol\"}");
    assertEquals(201, added.status(), added.text());
    String carol = added.json().get("apiKey").asText();
    assertEquals(0, api.get("/v1/datasets", carol).json().size(), "no grant, nothing visible");

    Api.Response shown = api.get("/v1/datasets", boss);
    JsonNode registration;
    try (Ledger ledger = Ledger.open(dir.resolve("ws"))) {
      registration = org.privet.ledger.LedgerJson.dataset(ledger.dataset("adult"));
    }
    ((com.fasterxml.jackson.databind.node.ObjectNode) registration).put("name", "adult_copy");
    Api.Response reg = api.post("/v1/datasets", boss, registration.toString());
    assertEquals(201, reg.status(), reg.text());
    assertEquals(400, api.post("/v1/datasets", boss, "{\"name\":\"x\"}").status());
    assertEquals(200, shown.status());

    Api.Response g = api.post("/v1/grants", boss, "{\"dataset\":\"adult_copy\",\"analyst\":\"carol\",\"epsilon\":0.5}");
    assertEquals(201, g.status(), g.text());
    JsonNode list = api.get("/v1/datasets", carol).json();
    assertEquals(1, list.size());
    assertEquals("adult_copy", list.get(0).get("name").asText());
    assertEquals(0.5, list.get(0).path("budget").path("total").path("epsilon").asDouble());
    Api.Response q = api.query(carol, String.format(COUNT, "adult_copy"), null);
    assertEquals(200, q.status(), q.text());
    assertEquals("carol", q.json().path("charge").path("analyst").asText(), "identity is the authenticated name");

    assertEquals(200, api.send("DELETE", "/v1/analysts/carol", boss, null, Map.of()).status());
    assertError(api.get("/v1/datasets", carol), 401, "unauthorized");
    assertError(api.send("DELETE", "/v1/analysts/carol", boss, null, Map.of()), 404, "not_found");
  }

  @Test
  void history_analystSeesOwnCharges_curatorSeesAll() {
    assertEquals(200, api.query(alice, String.format(SEX, "adult"), null).status());
    assertEquals(200, api.query(eve, String.format(COUNT, "adult"), null).status());
    JsonNode mine = api.get("/v1/history?dataset=adult", alice).json();
    assertTrue(mine.size() >= 1);
    mine.forEach(c -> assertEquals("alice", c.get("analyst").asText()));
    JsonNode all = api.get("/v1/history?dataset=adult", boss).json();
    List<String> who = new ArrayList<>();
    all.forEach(c -> who.add(c.get("analyst").asText()));
    assertTrue(who.contains("alice") && who.contains("eve"), who.toString());
    JsonNode budget = api.get("/v1/budget?dataset=adult", eve).json();
    assertEquals("eve", budget.get("analyst").asText());
    assertEquals(1.0, budget.path("total").path("epsilon").asDouble(), "eve's share, not the total");
  }

  @Test
  void malformedRequests_400_413_andNoCharge() {
    int before = charges();
    assertError(api.post("/v1/query", alice, "not json"), 400, "bad_request");
    assertError(api.post("/v1/query", alice, "{\"sq\":1}"), 400, "bad_request");
    assertError(api.post("/v1/query", alice, "[1,2]"), 400, "bad_request");
    assertError(api.get("/v1/budget", alice), 400, "bad_request");
    assertError(api.send("POST", "/v1/query", alice, sqlBody(String.format(COUNT, "adult")),
        Map.of("Idempotency-Key", "x".repeat(300))), 400, "bad_request");
    String huge = sqlBody(String.format(COUNT, "adult") + " " + "-".repeat(200_000));
    Api.Response big = api.post("/v1/query", alice, huge);
    assertEquals(413, big.status(), big.text());
    assertEquals("too_large", big.errorCode());
    assertError(api.get("/v1/nowhere", alice), 404, "not_found");
    assertEquals(before, charges());
  }

  @Test
  void explain_givesPlanAndCostAgainstWhatRemains_andChargesNothing() {
    int before = charges();
    Api.Response r = api.post("/v1/explain", alice, sqlBody(String.format(SEX, "adult")));
    assertEquals(200, r.status(), r.text());
    assertTrue(r.json().get("plan").asText().contains("mechanisms:"));
    JsonNode cost = r.json().get("cost");
    assertEquals(0.125, cost.path("total").path("epsilon").asDouble(), 1e-9);
    assertTrue(cost.path("remaining").has("epsilon"));
    assertEquals(before, charges());
  }

  @Test
  void authFailures_rateLimitedPerAddress_evenForAValidKeyWhileBlocked() throws Exception {
    Path ws = dir.resolve("ws-limit");
    String key;
    try (Ledger ledger = Ledger.open(ws)) {
      Fixture.registerAdult(ledger, "adult", new PureDp(1));
      key = ledger.addAnalyst("ann", Role.ANALYST).apiKey();
      ledger.grant("adult", "ann", new PureDp(1));
    }
    try (PrivetServer limited = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      Api l = new Api(limited.url());
      assertEquals(200, l.get("/v1/budget?dataset=adult", key).status(), "successes are not counted");
      for (int i = 0; i < 10; i++) {
        assertError(l.get("/v1/datasets", "pvk.0000000000000000.wrong"), 401, "unauthorized");
        assertEquals(200, l.get("/v1/budget?dataset=adult", key).status(), "not slowed before the limit");
      }
      Api.Response blocked = l.get("/v1/datasets", "pvk.0000000000000000.wrong");
      assertError(blocked, 429, "rate_limited");
      assertEquals(List.of("60"), blocked.headers().get("retry-after"), "blocked for a minute");
      assertError(l.get("/v1/budget?dataset=adult", key), 429, "rate_limited");
      assertEquals(200, l.get("/v1/health", null).status());
    }
  }
}
