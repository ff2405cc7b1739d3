package org.privet.server;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server on loopback over an empty workspace, one per test class, with the raw HTTP client;
 * a subclass that opens a {@link Browser} in its own {@code @BeforeAll} has it closed first.
 */
abstract class LoopbackServerTest {
  @TempDir static Path workspace;
  static PrivetServer server;
  static Api api;
  static Browser browser;

  @BeforeAll
  static void startServer() {
    server = PrivetServer.start(ServerOptions.builder(workspace).port(0).build());
    api = new Api(server.url());
  }

  @AfterAll
  static void stopServer() {
    try {
      if (browser != null) {
        browser.close();
        browser = null;
      }
    } finally {
      server.close();
    }
  }
}
