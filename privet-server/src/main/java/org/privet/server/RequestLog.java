package org.privet.server;

import io.javalin.http.Context;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One log line per request: analyst, method, route (the declared path, so no path values beyond
 * the template), status, duration and the charge id. Never a body, a query text, a data value,
 * an answer or a key.
 */
final class RequestLog {
  private static final Logger LOG = LoggerFactory.getLogger("org.privet.server.requests");

  private RequestLog() {}

  /** The declared path of the matched route (a template such as /v1/analysts/{name}). */
  static String route(Context ctx) {
    try {
      return ctx.endpoint() == null ? "(no route)" : ctx.endpoint().path;
    } catch (RuntimeException e) {
      return "(no route)";
    }
  }

  static void log(Context ctx, Float millis) {
    Object account = ctx.attribute(Authenticator.ACCOUNT);
    Object charge = ctx.attribute(Controllers.CHARGE);
    String route = route(ctx);
    LOG.info(String.format(Locale.ROOT, "analyst=%s %s %s status=%d ms=%.1f charge=%s",
        account == null ? "-" : account, ctx.method(), route, ctx.statusCode(),
        millis == null ? Float.NaN : millis, charge == null ? "-" : charge));
  }
}
