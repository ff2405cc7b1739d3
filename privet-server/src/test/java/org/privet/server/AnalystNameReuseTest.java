package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.ledger.Ledger;
import org.privet.ledger.Role;

/**
 * Issue 23, suspicion "name reuse", settled over real HTTP. Releases (stored answers under
 * Idempotency-Keys), synthesis jobs and history are keyed by the analyst's name, so an account
 * re-added under a revoked name would inherit the old account's answers, synthetic tables and
 * history. A name is therefore never reused: adding an account under a name any account ever had
 * is refused, and an account that an older version let revive a revoked name authenticates no
 * more (the curator adds it under a new name).
 */
class AnalystNameReuseTest {
  private static final String COUNT =
      "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.125) COUNT(*) AS n FROM adult";

  @TempDir Path dir;

  @Test
  void revokedName_neverRevived_newAccountSeesNothingOfTheOld() throws Exception {
    Path ws = dir.resolve("ws");
    String boss;
    String mallory;
    try (Ledger ledger = Ledger.open(ws)) {
      Fixture.registerAdultRows(ledger, "adult", new PureDp(4)); // synthesis needs one row per unit
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      mallory = ledger.addAnalyst("mallory", Role.ANALYST).apiKey();
      ledger.grant("adult", "mallory", new PureDp(2));
    }
    String job;
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      assertEquals(200, api.query(mallory, COUNT, "k1").status());
      Api.Response started = api.send("POST", "/v1/synth", mallory, "{\"dataset\": \"adult\", \"domain\": {\"attributes\":"
          + " [{\"name\": \"sex\", \"type\": \"categorical\", \"values\": [\"Female\", \"Male\"]}]},"
          + " \"epsilon\": 0.5, \"method\": \"mwem\"}", Map.of("Idempotency-Key", "s1"));
      assertEquals(202, started.status(), started.text());
      job = started.json().get("job").asText();
      assertEquals(200, api.send("DELETE", "/v1/analysts/mallory", boss, null, Map.of()).status());
      // The server's path: POST /v1/analysts under the revoked name is refused.
      Api.Response again = api.post("/v1/analysts", boss, "{\"name\": \"mallory\"}");
      assertEquals(400, again.status(), again.text());
      assertTrue(again.text().contains("never reused"), again.text());
      assertEquals(400, api.post("/v1/analysts", boss, "{\"name\": \"Mallory\"}").status());
    }
    try (Ledger ledger = Ledger.open(ws)) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> ledger.addAnalyst("mallory", Role.ANALYST));
      assertTrue(e.getMessage().contains("never reused"), e.getMessage());
    }

    // A ledger written by an older version, which let the curator re-add the revoked name.
    String revived;
    try (Ledger ledger = Ledger.open(ws)) {
      revived = ledger.addAnalyst("tmp_account", Role.ANALYST).apiKey();
    }
    renameAccountAsAnOlderVersionCould(ws, "tmp_account", "mallory");
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      // Neither the revoked key nor the revived account's key reads anything of the old account.
      for (String key : new String[] {mallory, revived}) {
        assertEquals(401, api.query(key, COUNT, "k1").status());
        assertEquals(401, api.get("/v1/synth/" + job + "/data", key).status());
        assertEquals(401, api.get("/v1/history?dataset=adult", key).status());
      }
    }
  }

  /** Renames an account in the SQLite ledger, past its append-only guard, as no version of Privet does. */
  private static void renameAccountAsAnOlderVersionCould(Path ws, String from, String to) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + ws.resolve(Ledger.DATABASE_FILE));
        Statement s = c.createStatement()) {
      s.executeUpdate("DROP TRIGGER IF EXISTS analysts_revoke_only");
      s.executeUpdate("UPDATE analysts SET name = '" + to + "' WHERE name = '" + from + "'");
    }
  }
}
