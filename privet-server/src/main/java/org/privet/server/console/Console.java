package org.privet.server.console;

import io.javalin.http.Context;
import io.javalin.router.JavalinDefaultRoutingApi;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The web console: static pages bundled in the server jar (classpath {@code /console/}), served at
 * {@code /} and {@code /console/NAME}. The pages use only the public {@code /v1} API with the
 * analyst's own key, so the console has exactly the analyst's rights.
 *
 * <p>Only the fixed list of {@link #ASSETS} is served: no path from the request ever reaches the
 * class loader. Every response of the server (pages and API alike) carries the security headers of
 * {@link #securityHeaders}: a strict Content-Security-Policy with no inline script or style and no
 * framing, {@code X-Content-Type-Options: nosniff}, no referrer, no caching of API answers.
 */
public final class Console {
  /** The policy: everything from this origin only, nothing inline, no plugins, no framing. */
  public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self';"
      + " connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

  /** File name to content type; the console's whole surface. */
  public static final Map<String, String> ASSETS = Map.of(
      "index.html", "text/html; charset=utf-8",
      "console.css", "text/css; charset=utf-8",
      "app.js", "text/javascript; charset=utf-8",
      "charts.js", "text/javascript; charset=utf-8",
      "pages.js", "text/javascript; charset=utf-8",
      "playground.js", "text/javascript; charset=utf-8",
      "favicon.svg", "image/svg+xml");

  private static final Map<String, byte[]> CONTENT = load();

  private Console() {}

  /** Registers the console's routes and the security headers on every response. */
  public static void declare(JavalinDefaultRoutingApi r) {
    r.before(Console::securityHeaders);
    r.get("/", ctx -> serve(ctx, "index.html"));
    r.get("/favicon.ico", ctx -> serve(ctx, "favicon.svg"));
    r.get("/console/{file}", ctx -> serve(ctx, ctx.pathParam("file")));
  }

  static void securityHeaders(Context ctx) {
    ctx.header("Content-Security-Policy", CSP);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("Cross-Origin-Opener-Policy", "same-origin");
    if (ctx.path().startsWith("/v1/")) {
      ctx.header("Cache-Control", "no-store");
    }
  }

  private static void serve(Context ctx, String file) {
    byte[] body = CONTENT.get(file);
    if (body == null) {
      ctx.status(404).contentType("text/plain; charset=utf-8").result("not found");
      return;
    }
    ctx.header("Cache-Control", "no-cache");
    ctx.status(200).contentType(ASSETS.get(file)).result(body);
  }

  private static Map<String, byte[]> load() {
    java.util.HashMap<String, byte[]> m = new java.util.HashMap<>();
    for (String name : ASSETS.keySet()) {
      try (InputStream in = Console.class.getResourceAsStream("/console/" + name)) {
        if (in == null) {
          throw new IllegalStateException("console asset missing from the jar: " + name);
        }
        m.put(name, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return Map.copyOf(m);
  }
}
