package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/openapi.json is the API: the server serves exactly that file, it lists exactly the routes of
 * {@link Routes}, and every error answer it names uses the one error schema.
 */
class OpenApiDocumentTest {
  @TempDir Path dir;

  private static JsonNode document() throws Exception {
    return Api.JSON.readTree(Files.readString(Fixture.repoRoot().resolve("docs/openapi.json")));
  }

  @Test
  void servedDocument_isDocsOpenapiJson() throws Exception {
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(dir.resolve("ws")).port(0).build())) {
      Api.Response r = new Api(server.url()).get("/v1/openapi.json", null);
      assertEquals(200, r.status());
      assertEquals(document(), r.json());
    }
  }

  @Test
  void document_listsExactlyTheDeclaredRoutes() throws Exception {
    Set<String> declared = new TreeSet<>();
    for (Routes.Route r : Routes.table(null)) {
      declared.add(r.method() + " " + r.path());
    }
    Set<String> documented = new TreeSet<>();
    JsonNode doc = document();
    assertTrue(doc.get("openapi").asText().startsWith("3."));
    doc.get("paths").fields().forEachRemaining(p -> p.getValue().fieldNames()
        .forEachRemaining(m -> documented.add(m.toUpperCase(Locale.ROOT) + " " + p.getKey())));
    assertEquals(declared, documented);
  }

  @Test
  void document_everyErrorAnswerUsesTheErrorSchema_andAuthenticatedRoutesSay401() throws Exception {
    JsonNode doc = document();
    doc.get("paths").fields().forEachRemaining(p -> p.getValue().fields().forEachRemaining(op -> {
      JsonNode responses = op.getValue().get("responses");
      responses.fields().forEachRemaining(r -> {
        int status = Integer.parseInt(r.getKey());
        if (status >= 400) {
          assertEquals("#/components/schemas/Error",
              r.getValue().at("/content/application~1json/schema/$ref").asText(), p.getKey() + " " + status);
        }
      });
      boolean open = op.getValue().has("security") && op.getValue().get("security").isEmpty();
      assertEquals(!open, responses.has("401"), p.getKey() + " " + op.getKey());
    }));
  }
}
