package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.ledger.Ledger;
import org.privet.ledger.Role;

/**
 * Issue 23, item 3: an analyst sees only their own share, spending and charges. Two worlds over
 * real HTTP on loopback: in one, another analyst (eve) has been charged on the same dataset, in the
 * other she has not; everything alice observes (answers' charges, history, budget, the dataset
 * list, EXPLAIN of a max_error query, refusals) must be the same in both, apart from the noisy
 * values and the times. The curator still sees everything.
 */
class AnalystIsolationTest {
  private static final String COUNT =
      "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = %s) COUNT(*) AS n FROM adult";

  @TempDir Path dir;

  /** A workspace with adult (total ε = 2), alice and eve each granted ε = 2; eve spent {@code eve}. */
  private Keys world(String name, double... eve) {
    Path ws = dir.resolve(name);
    try (Ledger ledger = Ledger.open(ws)) {
      Fixture.registerAdult(ledger, "adult", new PureDp(2), 500);
      String boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      String alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
      ledger.addAnalyst("eve", Role.ANALYST);
      ledger.grant("adult", "alice", new PureDp(2));
      ledger.grant("adult", "eve", new PureDp(2));
      for (double e : eve) {
        ledger.charge("adult", "eve", "eve's query", List.of(new PureDp(e)));
      }
      return new Keys(ws, boss, alice);
    }
  }

  private record Keys(Path ws, String boss, String alice) {}

  /** What alice observes in a world, with noisy values and times removed. */
  private static List<String> observe(Keys k) {
    List<String> seen = new ArrayList<>();
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(k.ws()).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      String explainBody = Api.JSON.createObjectNode().put("sql", ConsoleBrowserTest.MAX_ERROR).toString();
      Api.Response explain = api.post("/v1/explain", k.alice(), explainBody);
      assertEquals(200, explain.status(), explain.text());
      seen.add(explain.text());
      for (int i = 0; i < 2; i++) {
        Api.Response q = api.query(k.alice(), String.format(COUNT, "0.25"), null);
        assertEquals(200, q.status(), q.text());
        seen.add(status(q) + " " + scrub(q.json()));
      }
      seen.add(scrub(api.get("/v1/history?dataset=adult", k.alice()).json()));
      seen.add(api.get("/v1/budget?dataset=adult", k.alice()).text());
      seen.add(api.get("/v1/datasets", k.alice()).text());
      seen.add(api.post("/v1/explain", k.alice(), explainBody).text());
    }
    return seen;
  }

  private static String status(Api.Response r) {
    return Integer.toString(r.status());
  }

  /** The JSON without noisy values and times. */
  private static String scrub(JsonNode n) {
    JsonNode copy = n.deepCopy();
    scrubInPlace(copy);
    return copy.toString();
  }

  private static void scrubInPlace(JsonNode n) {
    if (n instanceof ObjectNode o) {
      o.remove(List.of("rows", "time", "max_rows_per_group_estimate")); // noisy DP outputs, like rows
      for (Iterator<JsonNode> it = o.elements(); it.hasNext(); ) {
        scrubInPlace(it.next());
      }
    } else if (n instanceof ArrayNode a) {
      a.forEach(AnalystIsolationTest::scrubInPlace);
    }
  }

  @Test
  void analystView_otherAnalystsCharges_changeNothingSheObserves() {
    List<String> quiet = observe(world("quiet"));
    List<String> busy = observe(world("busy", 0.5, 0.25, 0.125));
    for (int i = 0; i < quiet.size(); i++) {
      assertEquals(quiet.get(i), busy.get(i), "observation " + i + " depends on eve's activity");
    }
    // Her charges are numbered as her own (1, 2), and no dataset-wide spend is shown.
    assertTrue(quiet.get(1).contains("\"id\":1"), quiet.get(1));
    assertTrue(quiet.get(2).contains("\"id\":2"), quiet.get(2));
    for (String s : busy) {
      assertFalse(s.contains("\"spent\":{") && s.contains("\"analystSpent\""), "dataset spend shown: " + s);
    }
  }

  @Test
  void explain_showsNoServerFilePath() {
    Keys k = world("paths");
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(k.ws()).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      for (String sql : new String[] {String.format(COUNT, "0.25"), ConsoleBrowserTest.MAX_ERROR}) {
        String text = api.post("/v1/explain", k.alice(),
            Api.JSON.createObjectNode().put("sql", sql).toString()).text();
        assertFalse(text.contains(Fixture.repoRoot().toString()), text);
        assertFalse(text.contains("adult-with-id"), text);
        assertFalse(text.contains(k.ws().toString()), text);
      }
    }
  }

  @Test
  void datasetTotalRefusal_quotesNoDatasetSpend_sameWhateverOthersSpent() {
    List<String> texts = new ArrayList<>();
    for (double eve : new double[] {1.75, 1.875}) {
      Keys k = world("total-" + eve, eve);
      try (PrivetServer server = PrivetServer.start(ServerOptions.builder(k.ws()).port(0).workers(1).build())) {
        Api api = new Api(server.url());
        Api.Response r = api.query(k.alice(), String.format(COUNT, "0.5"), null);
        assertEquals(409, r.status(), r.text());
        assertEquals("budget_exceeded", r.errorCode());
        texts.add(r.text());
        // The curator still reads the dataset's spend (her budget view is everything).
        JsonNode all = api.get("/v1/budget?dataset=adult", k.boss()).json();
        assertEquals(eve, all.path("spent").path("epsilon").asDouble(), 1e-9);
        JsonNode history = api.get("/v1/history?dataset=adult", k.boss()).json();
        assertTrue(history.get(0).has("spent"), history.toString());
      }
    }
    assertEquals(texts.get(0), texts.get(1));
    assertFalse(texts.get(0).contains("1.75") || texts.get(0).contains("2.25"), texts.get(0));
  }
}
