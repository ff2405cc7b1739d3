package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import java.util.Optional;
import org.privet.ledger.Analyst;

/** The HTTP side of each route: read the request, call the service, write JSON. Nothing else. */
final class Controllers {
  static final String CHARGE = "privet.charge";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_IDEMPOTENCY_KEY = 255;

  private final Authenticator auth;
  private final CuratorService service;
  private final SynthJobs synth;

  Controllers(Authenticator auth, CuratorService service, SynthJobs synth) {
    this.auth = auth;
    this.service = service;
    this.synth = synth;
  }

  void health(Context ctx) {
    Responses.json(ctx, 200, JsonNodeFactory.instance.objectNode().put("status", "ok"));
  }

  void datasets(Context ctx) {
    Analyst who = auth.require(ctx);
    Responses.json(ctx, 200, service.datasets(who));
  }

  void budget(Context ctx) {
    Analyst who = auth.require(ctx);
    Responses.json(ctx, 200, service.budget(who, ctx.queryParam("dataset")));
  }

  void history(Context ctx) {
    Analyst who = auth.require(ctx);
    Responses.json(ctx, 200, service.history(who, ctx.queryParam("dataset")));
  }

  void explain(Context ctx) {
    Analyst who = auth.require(ctx);
    Responses.json(ctx, 200, service.explain(who, sql(body(ctx))));
  }

  void query(Context ctx) {
    Analyst who = auth.require(ctx);
    Optional<String> key = idempotencyKey(ctx);
    CuratorService.Answer a = service.query(who, body(ctx), key);
    ctx.attribute(CHARGE, a.chargeId());
    ObjectNode out = a.body().deepCopy();
    out.put("replay", a.replay());
    if (a.replay()) {
      ctx.header("Idempotent-Replayed", "true");
    }
    Responses.json(ctx, 200, out);
  }

  void synthStart(Context ctx) {
    Analyst who = auth.require(ctx);
    Optional<String> key = idempotencyKey(ctx);
    ObjectNode out = synth.start(who, body(ctx), key);
    ctx.attribute(CHARGE, out.path("charge").path("id").asLong());
    if (out.path("replay").asBoolean()) {
      ctx.header("Idempotent-Replayed", "true");
    }
    Responses.json(ctx, 202, out);
  }

  void synthStatus(Context ctx) {
    Analyst who = auth.require(ctx);
    Responses.json(ctx, 200, synth.status(who, ctx.pathParam("id")));
  }

  void synthData(Context ctx) throws java.io.IOException {
    Analyst who = auth.require(ctx);
    String csv = synth.data(who, ctx.pathParam("id"));
    ctx.status(200).contentType("text/csv").result(csv.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  void synthComparison(Context ctx) {
    Analyst who = auth.requireCurator(ctx);
    Responses.json(ctx, 200, synth.comparison(who, ctx.pathParam("id")));
  }

  void registerDataset(Context ctx) {
    auth.requireCurator(ctx);
    JsonNode body = body(ctx);
    Responses.json(ctx, 201, curatorInput(() -> service.register(body)));
  }

  void grant(Context ctx) {
    auth.requireCurator(ctx);
    JsonNode body = body(ctx);
    Responses.json(ctx, 201, curatorInput(() -> service.grant(body)));
  }

  void addAnalyst(Context ctx) {
    auth.requireCurator(ctx);
    JsonNode body = body(ctx);
    Responses.json(ctx, 201, curatorInput(() -> service.addAnalyst(body)));
  }

  /**
   * Runs a curator command whose invalid input is reported as 400 with the validator's message
   * (which names the parameter). Only curator commands: they read no private data, so their
   * messages are safe; on release routes an unexpected IllegalArgumentException stays internal.
   */
  private static <T> T curatorInput(java.util.function.Supplier<T> command) {
    try {
      return command.get();
    } catch (org.privet.ledger.UnknownDatasetException e) {
      throw e;
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest(e.getMessage());
    }
  }

  void listAnalysts(Context ctx) {
    auth.requireCurator(ctx);
    Responses.json(ctx, 200, service.analysts());
  }

  void revokeAnalyst(Context ctx) {
    auth.requireCurator(ctx);
    String name = ctx.pathParam("name");
    service.revoke(name);
    Responses.json(ctx, 200, JsonNodeFactory.instance.objectNode().put("name", name).put("revoked", true));
  }

  // ---- request parsing (400 on anything malformed)

  static JsonNode body(Context ctx) {
    String text = ctx.body();
    try {
      JsonNode n = JSON.readTree(text);
      if (n == null || !n.isObject()) {
        throw ApiException.badRequest("body: a JSON object is required");
      }
      return n;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw ApiException.badRequest("body: malformed JSON");
    }
  }

  static String sql(JsonNode body) {
    JsonNode sql = body.get("sql");
    if (sql == null || !sql.isTextual() || sql.asText().isBlank()) {
      throw ApiException.badRequest("sql: a non-empty string is required");
    }
    return sql.asText();
  }

  static Optional<String> idempotencyKey(Context ctx) {
    String key = ctx.header("Idempotency-Key");
    if (key == null) {
      return Optional.empty();
    }
    if (key.isEmpty() || key.length() > MAX_IDEMPOTENCY_KEY
        || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
      throw ApiException.badRequest("Idempotency-Key: 1 to 255 visible ASCII characters");
    }
    return Optional.of(key);
  }
}
