package org.privet.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.privet.server.PrivetServer;
import org.privet.server.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet serve [--host 127.0.0.1] [--port 8080] [--workspace DIR]}: the curator as an
 * authenticated HTTP API over the workspace's ledger. Prints {@code privet: serving on URL} to
 * stderr once it accepts requests, and stops cleanly on SIGTERM or Ctrl-C.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = {
      "Serve the curator's HTTP API (/v1) over this workspace; analysts authenticate with API keys",
      "(privet analyst add). Binds to loopback by default; see the README for a reverse proxy."
    })
final class ServeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to bind (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--port", defaultValue = "8080", description = "TCP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--tls-keystore", paramLabel = "FILE", description = "Serve HTTPS with this PKCS12/JKS keystore.")
  Path tlsKeystore;

  @Option(names = "--tls-password-env", paramLabel = "VAR",
      description = "Environment variable holding the keystore password (required with --tls-keystore).")
  String tlsPasswordEnv;

  @Option(names = "--workers", paramLabel = "N", description = "Releases computed at once (default: the number of cores, at least 2).")
  Integer workers;

  @Option(names = "--queue", paramLabel = "N", defaultValue = "64",
      description = "Releases that may wait for a worker before the server answers 429 (default: ${DEFAULT-VALUE}).")
  int queue;

  @Option(names = "--query-timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "How long a request waits for its release (default: ${DEFAULT-VALUE}).")
  long queryTimeoutSeconds;

  @Option(names = "--demo",
      description = "Quick start: serve the bundled UCI Adult data from a fresh temporary workspace with one"
          + " analyst ('analyst', a share of epsilon=1), whose API key is printed once on stdout.")
  boolean demo;

  @Override
  public Integer call() throws Exception {
    Path ws = workspace.resolve();
    String demoKey = null;
    if (demo) {
      if (workspace.server().isPresent()) {
        throw new IllegalArgumentException("--demo serves a temporary workspace of its own; it cannot be combined"
            + " with --ledger-url (or PRIVET_LEDGER_URL)");
      }
      ws = java.nio.file.Files.createTempDirectory("privet-serve-demo-");
      try (org.privet.ledger.Ledger ledger = org.privet.ledger.Ledger.open(ws);
          org.privet.engine.duckdb.DuckDbBackend backend = org.privet.engine.duckdb.DuckDbBackend.inMemory()) {
        DemoCommand.registerAdult(ledger, DemoCommand.locateBundledAdult(), backend);
        demoKey = ledger.addAnalyst("analyst", org.privet.ledger.Role.ANALYST).apiKey();
        ledger.grant("adult", "analyst", new org.privet.accounting.PureDp(1));
      }
    }
    ServerOptions.Builder b = ServerOptions.builder(ws).host(host).port(port).queue(queue)
        .queryTimeout(java.time.Duration.ofSeconds(queryTimeoutSeconds));
    if (workers != null) {
      b.workers(workers);
    }
    if (tlsKeystore != null) {
      if (tlsPasswordEnv == null) {
        throw new IllegalArgumentException("--tls-password-env VAR is required with --tls-keystore");
      }
      String password = System.getenv(tlsPasswordEnv);
      if (password == null) {
        throw new IllegalArgumentException("--tls-password-env: environment variable " + tlsPasswordEnv + " is not set");
      }
      b.tls(tlsKeystore, password.toCharArray());
    } else if (tlsPasswordEnv != null) {
      throw new IllegalArgumentException("--tls-password-env needs --tls-keystore");
    }
    // The demo serves its own temporary workspace, never the default one (nor a shared ledger).
    PrivetServer server = PrivetServer.start(b.build(), demo ? org.privet.ledger.Ledger.open(ws) : workspace.open());
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } finally {
        stopped.countDown();
      }
    }, "privet-serve-shutdown"));
    PrintWriter err = spec.commandLine().getErr();
    if (demoKey != null) {
      PrintWriter out = spec.commandLine().getOut();
      out.println(demoKey);
      out.flush();
      err.println("privet: demo workspace " + ws + ": dataset 'adult' (" + DemoCommand.ATTRIBUTION + "),");
      err.println("privet: analyst 'analyst' with a share of epsilon=1; the API key above is shown once. Try:");
      err.println("  export PRIVET_API_KEY=<the key above>");
      err.println("  curl -H \"Authorization: Bearer $PRIVET_API_KEY\" " + server.url() + "/v1/datasets");
      err.println("  ./privet query --server " + server.url() + " \"SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS"
          + " (epsilon = 0.5, group_selection_strategy = PUBLIC_GROUPS) sex, COUNT(*) AS people FROM adult GROUP BY sex\"");
    }
    err.println("privet: serving on " + server.url());
    err.flush();
    stopped.await();
    return ExitCodes.OK;
  }
}
