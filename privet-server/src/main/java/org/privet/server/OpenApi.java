package org.privet.server;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Serves the OpenAPI 3 document of the API, {@code docs/openapi.json} (bundled in the jar). */
final class OpenApi {
  static final String RESOURCE = "/org/privet/server/openapi.json";
  private static final byte[] DOCUMENT = load();

  private OpenApi() {}

  private static byte[] load() {
    try (InputStream in = OpenApi.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the OpenAPI document is missing from the jar: " + RESOURCE);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void serve(Context ctx) {
    ctx.status(200).contentType("application/json").result(DOCUMENT);
  }
}
