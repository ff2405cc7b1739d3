package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import org.privet.ledger.LedgerJson;

/** Writes JSON answers (the project's one Jackson configuration, {@link LedgerJson}). */
final class Responses {
  private Responses() {}

  static void json(Context ctx, int status, JsonNode body) {
    ctx.status(status).contentType("application/json").result(LedgerJson.write(body));
  }
}
