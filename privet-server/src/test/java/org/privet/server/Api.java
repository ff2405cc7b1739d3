package org.privet.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** Raw HTTP against a running server (the JDK client; no Privet code between test and server). */
final class Api {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient CLIENT = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).proxy(HttpClient.Builder.NO_PROXY).build();

  private final String base;

  Api(String base) {
    this.base = base;
  }

  record Response(int status, String text, Map<String, java.util.List<String>> headers) {
    JsonNode json() {
      try {
        return JSON.readTree(text);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + text, e);
      }
    }

    String errorCode() {
      return json().path("error").path("code").asText();
    }

    /**
     * A grouped answer's released values, rounded, by group: per row, the key of column
     * {@code group} (a public group's key is an object with its "value") and the estimate of
     * column {@code value}.
     */
    Map<String, Long> roundedByGroup(String group, String value) {
      Map<String, Long> released = new java.util.TreeMap<>();
      for (JsonNode row : json().get("rows")) {
        JsonNode k = row.get(group);
        released.put(k.isObject() ? k.get("value").asText() : k.asText(), Math.round(row.get(value).get("value").asDouble()));
      }
      return released;
    }
  }

  Response get(String path, String key) {
    return send("GET", path, key, null, Map.of());
  }

  Response post(String path, String key, String body) {
    return send("POST", path, key, body, Map.of());
  }

  Response query(String key, String sql, String idempotencyKey) {
    String body = JSON.createObjectNode().put("sql", sql).toString();
    return send("POST", "/v1/query", key, body,
        idempotencyKey == null ? Map.of() : Map.of("Idempotency-Key", idempotencyKey));
  }

  Response send(String method, String path, String key, String body, Map<String, String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    headers.forEach(b::header);
    try {
      HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body(), r.headers().map());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
