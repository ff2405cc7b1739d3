package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Pattern;
import org.privet.server.console.Console;
import org.junit.jupiter.api.Test;

/**
 * The console's assets and headers on a real server over loopback HTTP: every response carries the
 * strict CSP, nosniff and no framing; only the listed assets are served; and the assets themselves
 * never insert HTML (no innerHTML and friends) nor carry inline script or style, which the CSP would
 * block anyway.
 */
class ConsoleAssetsTest extends LoopbackServerTest {

  static Api.Response get(String path) {
    return api.get(path, null);
  }

  static String header(Api.Response r, String name) {
    return r.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
        .map(e -> e.getValue().get(0)).findFirst().orElse("");
  }

  static String asset(String name) throws IOException {
    try (InputStream in = Console.class.getResourceAsStream("/console/" + name)) {
      assertNotNull(in, name);
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void everyResponse_carriesTheSecurityHeaders() {
    for (String path : List.of("/", "/console/app.js", "/console/console.css", "/v1/health",
        "/v1/datasets", "/v1/playground/composition?maxK=2", "/no/such/page")) {
      Api.Response r = get(path);
      String csp = header(r, "Content-Security-Policy");
      assertEquals(Console.CSP, csp, path);
      assertTrue(csp.contains("script-src 'self'") && csp.contains("style-src 'self'") && csp.contains("frame-ancestors 'none'"));
      assertFalse(csp.contains("unsafe-inline") || csp.contains("unsafe-eval"), csp);
      assertEquals("nosniff", header(r, "X-Content-Type-Options"), path);
      assertEquals("DENY", header(r, "X-Frame-Options"), path);
    }
    assertEquals("no-store", header(get("/v1/health"), "Cache-Control"));
  }

  @Test
  void index_isServedAtTheRoot_withItsAssets() {
    Api.Response index = get("/");
    assertEquals(200, index.status());
    assertTrue(header(index, "Content-Type").startsWith("text/html"));
    assertTrue(index.text().contains("<script type=\"module\" src=\"/console/app.js\"></script>"));
    for (String name : Console.ASSETS.keySet()) {
      Api.Response r = get("/console/" + name);
      assertEquals(200, r.status(), name);
      assertEquals(Console.ASSETS.get(name).replace(" ", ""), header(r, "Content-Type").replace(" ", ""), name);
    }
  }

  @Test
  void onlyListedAssets_areServed() {
    for (String path : List.of("/console/nope.js", "/console/..%2Fsimplelogger.properties",
        "/console/%2e%2e%2fsimplelogger.properties", "/console/..", "/simplelogger.properties",
        "/console/org/privet/server/openapi.json")) {
      int status = get(path).status();
      assertTrue(status == 404 || status == 400, path + " -> " + status);
    }
  }

  @Test
  void assets_neverInsertHtml_andHaveNoInlineScriptOrStyle() throws IOException {
    Pattern htmlSinks = Pattern.compile("innerHTML|outerHTML|insertAdjacentHTML|document\\.write|\\beval\\(|new Function|"
        + "setAttribute\\('style'|srcdoc|javascript:");
    for (String name : Console.ASSETS.keySet()) {
      if (name.endsWith(".js")) {
        String js = asset(name);
        assertFalse(htmlSinks.matcher(js).find(), name + " uses an HTML sink");
        assertFalse(js.contains("localStorage") || js.contains("document.cookie"), name + ": the key stays in sessionStorage");
      }
    }
    String html = asset("index.html");
    assertFalse(Pattern.compile("<script(?![^>]*\\bsrc=)").matcher(html).find(), "inline script");
    assertFalse(Pattern.compile("<style|\\sstyle=|\\son[a-z]+=").matcher(html).find(), "inline style or handler");
  }
}
