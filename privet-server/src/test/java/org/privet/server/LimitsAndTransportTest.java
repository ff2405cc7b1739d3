package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.ledger.Ledger;

/** The worker pool's 429 when full, TLS, and a clean stop on SIGTERM. */
class LimitsAndTransportTest {
  @TempDir Path dir;

  private String setUp(Path ws) {
    return Fixture.adultWithAlice(ws);
  }

  @Test
  void fullWorkerPool_answers429BeforeParsingOrCharging() throws Exception {
    Path ws = dir.resolve("ws");
    String key = setUp(ws);
    String sql = String.format(ServerApiTest.SEX, "adult");
    // One worker, no queue; the first release blocks in its worker after its charge.
    try (ServerChild child = ServerChild.start(ws, "pause-after-compute", "1", "0")) {
      Api api = new Api(child.url());
      Thread first = new Thread(() -> ExactlyOnceReleaseTest.ignoreFailure(() -> api.query(key, sql, null)));
      first.setDaemon(true);
      first.start();
      child.await("privet-test: paused #", 120);
      Api.Response busy = api.query(key, sql, null);
      assertEquals(429, busy.status(), busy.text());
      assertEquals("rate_limited", busy.errorCode());
      assertEquals(java.util.List.of("1"), busy.headers().get("retry-after"), "a client may retry in a second");
      assertEquals(200, api.get("/v1/budget?dataset=adult", key).status(), "reads that need no worker still work");
    }
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("adult").size(), "only the blocked release was charged");
    }
  }

  @Test
  void sigterm_stopsCleanly_andCommittedChargesStay() throws Exception {
    Path ws = dir.resolve("ws");
    String key = setUp(ws);
    ServerChild child = ServerChild.start(ws);
    Api api = new Api(child.url());
    assertEquals(200, api.query(key, String.format(ServerApiTest.SEX, "adult"), "t1").status());
    int code = child.terminate(60);
    assertTrue(code >= 0, "stopped on SIGTERM");
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("adult").size());
      assertTrue(ledger.releaseOfCharge(1).orElseThrow().answer().isPresent());
    }
  }

  @Test
  void tls_servesHttpsWithTheKeystore() throws Exception {
    Path ws = dir.resolve("ws");
    setUp(ws);
    Path keystore = dir.resolve("server.p12");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "privet", "-keyalg", "EC", "-groupname",
        "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1", "-validity", "2",
        "-storetype", "PKCS12", "-keystore", keystore.toString(), "-storepass", "changeit", "-keypass", "changeit")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool");
    KeyStore trust = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      trust.load(in, "changeit".toCharArray());
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0)
        .tls(keystore, "changeit".toCharArray()).build())) {
      assertTrue(server.url().startsWith("https://127.0.0.1:"), server.url());
      assertEquals(1, server.connectors(), "no plain HTTP connector beside the TLS one");
      HttpClient https = HttpClient.newBuilder().sslContext(ssl).proxy(HttpClient.Builder.NO_PROXY).build();
      HttpResponse<String> r = https.send(HttpRequest.newBuilder(URI.create(server.url() + "/v1/health")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, r.statusCode());
      assertEquals("{\"status\":\"ok\"}", r.body());
      // Plain HTTP on the TLS port gets no API answer.
      HttpClient plain = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build();
      String http = server.url().replace("https://", "http://") + "/v1/health";
      assertThrows(Exception.class, () -> {
        HttpResponse<String> x = plain.send(HttpRequest.newBuilder(URI.create(http)).build(), HttpResponse.BodyHandlers.ofString());
        if (x.statusCode() == 200) {
          return;
        }
        throw new IllegalStateException("no API answer over plain HTTP: " + x.statusCode());
      });
    }
  }
}
