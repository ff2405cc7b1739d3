package org.privet.server;

import io.javalin.Javalin;
import java.util.Objects;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.privet.engine.postgres.PostgresPools;
import org.privet.ledger.Ledger;

/**
 * {@code privet serve}: the trusted curator as an HTTP service. It owns the workspace's ledger and
 * data; analysts reach them only through authenticated requests to the {@code /v1} API declared in
 * {@link Routes}.
 *
 * <p>Lifecycle: {@link #start(ServerOptions)} binds and returns once the server accepts requests;
 * {@link #close()} stops accepting, lets in-flight releases finish (or fail) and closes the ledger.
 * A charge committed before a stop is never lost: the ledger commits it durably before any release.
 */
public final class PrivetServer implements AutoCloseable {
  private final ServerOptions options;
  private final Ledger ledger;
  private final WorkerPool pool;
  private final PostgresPools databases;
  private final SynthJobs synth;
  private final Javalin app;

  private PrivetServer(ServerOptions options, Ledger ledger, ReleaseHooks hooks) {
    this.options = options;
    this.ledger = ledger;
    this.pool = new WorkerPool(options.workers(), options.queue(), options.queryTimeout());
    AuthFailureLimiter limiter = new AuthFailureLimiter(options.authFailuresPerMinute(), System::nanoTime);
    this.databases = new PostgresPools(Math.max(1, options.workers()));
    CuratorService service = new CuratorService(ledger, pool, hooks, databases);
    this.synth = new SynthJobs(ledger, service, pool, options.workspace(), hooks, options.jobLease());
    Controllers controllers = new Controllers(new Authenticator(ledger, limiter), service, synth);
    this.app = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      config.startup.showOldJavalinVersionWarning = false;
      config.http.maxRequestSize = options.maxBodyBytes();
      // Bounded: at most 64 HTTP threads and 1,024 queued jobs (connections beyond are refused by
      // Jetty); releases themselves are bounded again by the WorkerPool (429 when it is full).
      config.jetty.threadPool = new QueuedThreadPool(64, 8, 60_000,
          new org.eclipse.jetty.util.BlockingArrayQueue<>(64, 64, 1024));
      if (options.tls().isPresent()) {
        ServerOptions.Tls tls = options.tls().get();
        config.jetty.addConnector((server, http) -> httpsConnector(server, http, tls, options));
      } else {
        config.jetty.host = options.host();
        config.jetty.port = options.port();
      }
      config.requestLogger.http(RequestLog::log);
      Routes.declare(config.routes, controllers);
    });
  }

  private static ServerConnector httpsConnector(org.eclipse.jetty.server.Server server,
      HttpConfiguration http, ServerOptions.Tls tls, ServerOptions options) {
    SslContextFactory.Server ssl = new SslContextFactory.Server();
    ssl.setKeyStorePath(tls.keystore().toAbsolutePath().toString());
    ssl.setKeyStorePassword(new String(tls.password()));
    HttpConfiguration https = new HttpConfiguration(http);
    https.addCustomizer(new SecureRequestCustomizer(false));
    ServerConnector connector = new ServerConnector(server,
        new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(https));
    connector.setHost(options.host());
    connector.setPort(options.port());
    return connector;
  }

  /** Opens the workspace's ledger, binds and starts serving. */
  public static PrivetServer start(ServerOptions options) {
    return start(options, ReleaseHooks.NONE);
  }

  /** As {@link #start(ServerOptions)}, with points where tests stop the process mid-release. */
  static PrivetServer start(ServerOptions options, ReleaseHooks hooks) {
    Objects.requireNonNull(options, "options");
    return start(options, Ledger.open(options.workspace()), hooks);
  }

  /**
   * Binds and starts serving over {@code ledger} (e.g. one shared through PostgreSQL by several
   * replicas), which the server then owns and closes.
   */
  public static PrivetServer start(ServerOptions options, Ledger ledger) {
    return start(options, ledger, ReleaseHooks.NONE);
  }

  /** As {@link #start(ServerOptions, Ledger)}, with points where tests stop the process mid-release. */
  static PrivetServer start(ServerOptions options, Ledger ledger, ReleaseHooks hooks) {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(ledger, "ledger");
    PrivetServer server;
    try {
      server = new PrivetServer(options, ledger, Objects.requireNonNull(hooks, "hooks"));
    } catch (RuntimeException e) {
      ledger.close();
      throw e;
    }
    try {
      server.app.start();
    } catch (RuntimeException e) {
      server.synth.close();
      server.pool.close();
      server.databases.close();
      server.ledger.close();
      throw e;
    }
    return server;
  }

  /** The number of listening connectors (one: HTTP or HTTPS, never both). */
  int connectors() {
    return app.jettyServer().server().getConnectors().length;
  }

  /** The bound port (useful with port 0). */
  public int port() {
    if (options.tls().isPresent()) {
      return ((ServerConnector) app.jettyServer().server().getConnectors()[0]).getLocalPort();
    }
    return app.port();
  }

  /** The base URL clients use, e.g. {@code http://127.0.0.1:8080}. */
  public String url() {
    String host = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
    return (options.tls().isPresent() ? "https" : "http") + "://" + host + ":" + port();
  }

  @Override
  public void close() {
    try {
      app.stop();
    } finally {
      try {
        synth.close();
        pool.close();
      } finally {
        databases.close();
        ledger.close();
      }
    }
  }
}
