package org.privet.cli.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.privet.cli.PrivetCommand;

/**
 * Training on {@code privet serve --demo} end to end (issue 26): the demo analyst's grant is pure
 * ε = 1, so an (ε, δ) training is refused by the grant and charges nothing, while objective
 * perturbation's pure-ε variant ({@code "delta": 0}) trains on the bundled Adult data through
 * {@code POST /v1/train} and serves a model whose statement says pure ε.
 */
class DemoTrainTest {
  static final String BODY = "{\"dataset\": \"adult\", \"model\": \"logistic-regression\", \"label\": \"income\","
      + " \"positive\": \">50K\", \"negative\": \"<=50K\", \"features\": [\"age\", \"education_num\","
      + " \"hours_per_week\", \"sex\"], \"featureBounds\": {\"age\": [17, 90], \"education_num\": [1, 16],"
      + " \"hours_per_week\": [1, 99]}, \"epsilon\": 0.5, \"delta\": DELTA}";

  static HttpResponse<String> send(HttpClient http, String url, String key, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + path)).header("Authorization", "Bearer " + key)
        .timeout(java.time.Duration.ofSeconds(60));
    b = body == null ? b.GET() : b.method(method, HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/json");
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void demo_pureEpsilonGrant_objectivePerturbationDeltaZeroTrains_approximateRefused() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    Process serve = new ProcessBuilder(java, "-Xmx512m", "-XX:+UseSerialGC", "-cp", cp, PrivetCommand.class.getName(),
        "serve", "--demo", "--port", "0").start();
    try {
      BlockingQueue<String> out = lines(serve.getInputStream());
      BlockingQueue<String> err = lines(serve.getErrorStream());
      String key = out.poll(120, TimeUnit.SECONDS);
      String url = null;
      for (String line = err.poll(120, TimeUnit.SECONDS); line != null; line = err.poll(120, TimeUnit.SECONDS)) {
        if (line.startsWith("privet: serving on ")) {
          url = line.substring("privet: serving on ".length());
          break;
        }
      }
      assertTrue(key != null && url != null, "privet serve --demo printed a key and its URL");
      HttpClient http = HttpClient.newHttpClient();
      ObjectMapper json = new ObjectMapper();
      HttpResponse<String> approx = send(http, url, key, "POST", "/v1/train", BODY.replace("DELTA", "1e-6"));
      assertTrue(approx.statusCode() >= 400, approx.body());
      HttpResponse<String> started = send(http, url, key, "POST", "/v1/train", BODY.replace("DELTA", "0"));
      assertEquals(202, started.statusCode(), started.body());
      String job = json.readTree(started.body()).get("job").asText();
      String status = "running";
      for (int i = 0; i < 480 && status.equals("running"); i++) {
        status = json.readTree(send(http, url, key, "GET", "/v1/train/" + job, null).body()).get("status").asText();
        if (status.equals("running")) {
          Thread.sleep(250);
        }
      }
      assertEquals("done", status);
      HttpResponse<String> model = send(http, url, key, "GET", "/v1/train/" + job + "/model", null);
      assertEquals(200, model.statusCode(), model.body());
      JsonNode privacy = json.readTree(model.body()).get("privacy");
      assertEquals(0.0, privacy.get("delta").asDouble());
      assertTrue(privacy.get("mechanism").asText().contains("pure epsilon"), privacy.toString());
      assertTrue(privacy.get("epsilon_certified").asDouble() <= 0.5);
      assertEquals(6, json.readTree(model.body()).get("coefficients").size(), "intercept, 3 numbers, sex one-hot");
    } finally {
      serve.destroy();
      if (!serve.waitFor(30, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
    }
  }

  private static BlockingQueue<String> lines(java.io.InputStream in) {
    BlockingQueue<String> q = new LinkedBlockingQueue<>();
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          q.add(line);
        }
      } catch (java.io.IOException e) {
        // the process ended
      }
    }, "serve-output");
    t.setDaemon(true);
    t.start();
    return q;
  }
}
