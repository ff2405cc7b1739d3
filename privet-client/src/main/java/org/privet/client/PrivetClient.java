package org.privet.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A client of {@code privet serve}'s {@code /v1} API on {@code java.net.http}. Answers are the
 * server's JSON; errors are {@link PrivetApiException}s with the server's status, code and message.
 * Thread-safe.
 *
 * <pre>{@code
 * PrivetClient client = PrivetClient.connect("http://127.0.0.1:8080", System.getenv("PRIVET_API_KEY"));
 * JsonNode answer = client.query("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5) COUNT(*) AS n FROM adult",
 *     Optional.of(UUID.randomUUID().toString()));
 * }</pre>
 *
 * <p>Retries: pass the same idempotency key when retrying a query, so that the server returns the
 * stored answer instead of a fresh noisy draw (which it would charge again).
 */
public final class PrivetClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI base;
  private final String apiKey;
  private final HttpClient http;
  private final Duration timeout;

  private PrivetClient(URI base, String apiKey, HttpClient http, Duration timeout) {
    this.base = base;
    this.apiKey = apiKey;
    this.http = http;
    this.timeout = timeout;
  }

  /**
   * A client of the server at {@code baseUrl} (e.g. {@code http://127.0.0.1:8080}) with an API key.
   *
   * @throws IllegalArgumentException if the URL is not http(s) or the key is empty
   */
  public static PrivetClient connect(String baseUrl, String apiKey) {
    Objects.requireNonNull(baseUrl, "baseUrl");
    URI uri;
    try {
      uri = URI.create(baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("server: not a URL: " + baseUrl);
    }
    if (uri.getScheme() == null || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException("server: an http:// or https:// URL is required, was " + baseUrl);
    }
    if (apiKey == null || apiKey.isBlank()) {
      throw new IllegalArgumentException("an API key is required (set PRIVET_API_KEY)");
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    return new PrivetClient(uri, apiKey.trim(), http, Duration.ofMinutes(5));
  }

  /** {@code GET /v1/health} (no key needed). */
  public JsonNode health() {
    return send("GET", "/v1/health", null, Optional.empty());
  }

  /** {@code GET /v1/datasets}: the datasets the caller may see, with their budget view. */
  public JsonNode datasets() {
    return send("GET", "/v1/datasets", null, Optional.empty());
  }

  /**
   * {@code POST /v1/query}: a DP SQL release, charged before it is computed.
   *
   * @param idempotencyKey reuse it when retrying, to receive the stored answer
   */
  public JsonNode query(String sql, Optional<String> idempotencyKey) {
    return send("POST", "/v1/query", sqlBody(sql), idempotencyKey);
  }

  /** {@code POST /v1/explain}: the plan and its cost; charges nothing. */
  public JsonNode explain(String sql) {
    return send("POST", "/v1/explain", sqlBody(sql), Optional.empty());
  }

  /** {@code GET /v1/budget}: the caller's budget view of a dataset. */
  public JsonNode budget(String dataset) {
    return send("GET", "/v1/budget?dataset=" + encode(dataset), null, Optional.empty());
  }

  /** {@code GET /v1/history}: the caller's charges (all charges for a curator). */
  public JsonNode history(String dataset) {
    return send("GET", "/v1/history?dataset=" + encode(dataset), null, Optional.empty());
  }

  private static String encode(String s) {
    return URLEncoder.encode(Objects.requireNonNull(s, "dataset"), StandardCharsets.UTF_8);
  }

  private static String sqlBody(String sql) {
    ObjectNode n = JSON.createObjectNode();
    n.put("sql", Objects.requireNonNull(sql, "sql"));
    return n.toString();
  }

  private JsonNode send(String method, String path, String body, Optional<String> idempotencyKey) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout)
        .header("Authorization", "Bearer " + apiKey)
        .header("Accept", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    idempotencyKey.ifPresent(k -> b.header("Idempotency-Key", k));
    HttpResponse<String> r;
    try {
      r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reach the server at " + base + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the server", e);
    }
    JsonNode n;
    try {
      n = JSON.readTree(r.body());
    } catch (IOException e) {
      throw new PrivetApiException(r.statusCode(), "internal", "the server answered HTTP " + r.statusCode()
          + " without JSON", OptionalInt.empty(), OptionalInt.empty());
    }
    if (r.statusCode() >= 400) {
      JsonNode e = n.path("error");
      throw new PrivetApiException(r.statusCode(), e.path("code").asText("internal"),
          e.path("message").asText("HTTP " + r.statusCode()),
          e.has("line") ? OptionalInt.of(e.get("line").asInt()) : OptionalInt.empty(),
          e.has("column") ? OptionalInt.of(e.get("column").asInt()) : OptionalInt.empty());
    }
    return n;
  }
}
