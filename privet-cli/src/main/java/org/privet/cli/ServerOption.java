package org.privet.cli;

import org.privet.client.PrivetClient;
import picocli.CommandLine.Option;

/**
 * Shared option: {@code --server URL} runs the command against {@code privet serve} instead of a
 * local workspace, authenticated by the API key in {@code $PRIVET_API_KEY} (never an option, so it
 * stays out of shell history and process lists). Output formats and exit codes are the local ones.
 */
final class ServerOption {
  static final String KEY_VARIABLE = "PRIVET_API_KEY";

  @Option(names = "--server", paramLabel = "URL",
      description = "Ask a privet server (e.g. http://127.0.0.1:8080) instead of the local workspace;"
          + " the API key is read from $PRIVET_API_KEY.")
  String server;

  boolean remote() {
    return server != null;
  }

  PrivetClient client() {
    String key = System.getenv(KEY_VARIABLE);
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("--server needs the API key in $" + KEY_VARIABLE);
    }
    return PrivetClient.connect(server, key);
  }
}
