package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.ledger.Ledger;

/**
 * Exactly-once releases: a retry with the same Idempotency-Key returns the stored answer (same
 * noisy values, same charge, nothing charged or drawn); after a SIGKILL between the charge and the
 * response, the restarted server answers the retry under the existing charge.
 */
class ExactlyOnceReleaseTest {
  @TempDir Path dir;

  private String setUp(Path ws) {
    return Fixture.adultWithAlice(ws);
  }

  private static int charges(Path ws) {
    return Fixture.charges(ws, "adult");
  }

  /** The request whose server is killed under it fails; that is the point. */
  static void ignoreFailure(Runnable request) {
    try {
      request.run();
    } catch (RuntimeException expected) {
      // connection reset by the SIGKILL
    }
  }

  static JsonNode withoutReplayFlag(JsonNode answer) {
    com.fasterxml.jackson.databind.node.ObjectNode copy = answer.deepCopy();
    copy.remove("replay");
    return copy;
  }

  @Test
  void retry_sameKey_identicalAnswerOneCharge_differentBodyRefused() {
    Path ws = dir.resolve("ws");
    String key = setUp(ws);
    String sql = String.format(ServerApiTest.SEX, "adult");
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      Api api = new Api(server.url());
      Api.Response first = api.query(key, sql, "retry-1");
      assertEquals(200, first.status(), first.text());
      assertFalse(first.json().get("replay").asBoolean());
      for (int i = 0; i < 3; i++) {
        Api.Response again = api.query(key, sql, "retry-1");
        assertEquals(200, again.status());
        assertTrue(again.json().get("replay").asBoolean());
        assertEquals(List.of("true"), again.headers().get("idempotent-replayed"));
        assertEquals(withoutReplayFlag(first.json()), withoutReplayFlag(again.json()));
      }
      assertEquals(1, charges(ws));
      Api.Response other = api.query(key, sql + " ", "retry-1");
      assertEquals(422, other.status(), other.text());
      assertEquals("refused", other.errorCode());
      assertEquals(1, charges(ws), "the refused retry charged nothing");
      // Without a key every request is a new release; a new key is a new release.
      assertEquals(200, api.query(key, sql, null).status());
      assertEquals(200, api.query(key, sql, "retry-2").status());
      assertEquals(3, charges(ws));
    }
  }

  /**
   * Issue 23, item 4: the key covers the whole request body, not only its SQL. The same SQL with
   * an extra member, or another value of a member, is refused like any other different request.
   */
  @Test
  void retry_sameKeySameSqlOtherBody_refusedNothingCharged() {
    Path ws = dir.resolve("ws-body");
    String key = setUp(ws);
    String sql = String.format(ServerApiTest.SEX, "adult");
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).build())) {
      Api api = new Api(server.url());
      java.util.Map<String, String> idem = java.util.Map.of("Idempotency-Key", "body-1");
      String body = Api.JSON.createObjectNode().put("sql", sql).toString();
      Api.Response first = api.send("POST", "/v1/query", key, body, idem);
      assertEquals(200, first.status(), first.text());
      for (String other : new String[] {
          Api.JSON.createObjectNode().put("sql", sql).put("note", "x").toString(),
          Api.JSON.createObjectNode().put("sql", sql).put("format", "csv").toString()}) {
        Api.Response r = api.send("POST", "/v1/query", key, other, idem);
        assertEquals(422, r.status(), r.text());
        assertEquals("refused", r.errorCode());
        assertTrue(r.text().contains("different request"), r.text());
      }
      // The same body (whitespace between JSON tokens aside) is the same request: replayed.
      Api.Response same = api.send("POST", "/v1/query", key, "{ \"sql\" : " + Api.JSON.valueToTree(sql) + " }", idem);
      assertEquals(200, same.status(), same.text());
      assertTrue(same.json().get("replay").asBoolean());
      assertEquals(1, charges(ws));
    }
  }

  @Test
  void sigkillAfterChargeBeforeStore_restartAndRetry_answersOnceUnderTheExistingCharge() throws Exception {
    Path ws = dir.resolve("ws");
    String key = setUp(ws);
    String sql = String.format(ServerApiTest.SEX, "adult");
    long charge;
    try (ServerChild child = ServerChild.start(ws, "pause-after-compute")) {
      Api api = new Api(child.url());
      Thread request = new Thread(() -> ignoreFailure(() -> api.query(key, sql, "crash-1")));
      request.setDaemon(true);
      request.start();
      String paused = child.await("privet-test: paused #", 120);
      charge = Long.parseLong(paused.substring(paused.indexOf('#') + 1));
      child.kill();
    }
    assertEquals(1, charges(ws), "the charge survived the SIGKILL");
    try (ServerChild child = ServerChild.start(ws)) {
      Api api = new Api(child.url());
      Api.Response retry = api.query(key, sql, "crash-1");
      assertEquals(200, retry.status(), retry.text());
      assertEquals(charge, retry.json().path("charge").path("id").asLong());
      Api.Response again = api.query(key, sql, "crash-1");
      assertEquals(withoutReplayFlag(retry.json()), withoutReplayFlag(again.json()));
    }
    assertEquals(1, charges(ws), "one charge in the history");
  }

  @Test
  void sigkillAfterStoreBeforeResponse_restartAndRetry_returnsTheStoredValues() throws Exception {
    Path ws = dir.resolve("ws");
    String key = setUp(ws);
    String sql = String.format(ServerApiTest.SEX, "adult");
    long charge;
    try (ServerChild child = ServerChild.start(ws, "pause-after-store")) {
      Api api = new Api(child.url());
      Thread request = new Thread(() -> ignoreFailure(() -> api.query(key, sql, "crash-2")));
      request.setDaemon(true);
      request.start();
      String paused = child.await("privet-test: paused #", 120);
      charge = Long.parseLong(paused.substring(paused.indexOf('#') + 1));
      child.kill();
    }
    String stored;
    try (Ledger ledger = Ledger.open(ws)) {
      stored = ledger.releaseOfCharge(charge).orElseThrow().answer().orElseThrow();
    }
    try (ServerChild child = ServerChild.start(ws)) {
      Api.Response retry = new Api(child.url()).query(key, sql, "crash-2");
      assertEquals(200, retry.status(), retry.text());
      assertEquals(Api.JSON.readTree(stored), withoutReplayFlag(retry.json()), "the values drawn before the crash");
    }
    assertEquals(1, charges(ws));
  }
}
