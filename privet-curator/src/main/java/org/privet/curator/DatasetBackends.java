package org.privet.curator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.privet.engine.postgres.PostgresBackend;
import org.privet.engine.postgres.PostgresPools;
import org.privet.engine.spi.Backend;
import org.privet.ledger.DatabaseSource;
import org.privet.ledger.DatasetSpec;

/**
 * The backend each registered dataset runs on: files (CSV, Parquet) on the given file backend
 * (DuckDB or Spark, owned by the caller); a PostgreSQL table on a {@link PostgresBackend} of its
 * database, connected on first use with the password read then ({@link DatabaseSource#login}), so
 * nothing secret is stored: a connection of its own, or one borrowed from the long-running caller's
 * {@link PostgresPools} (the server's). Connections opened or borrowed here are closed (given back)
 * by {@link #close}. Connecting
 * happens while the query is parsed, before any charge: a failure is a refusal that depends on the
 * server and the credentials only, and its message carries the SQLSTATE, never the driver's text.
 */
public final class DatasetBackends implements AutoCloseable {
  private final Backend files;
  private final Map<String, String> environment;
  private final boolean detailed;
  private final PostgresPools pools;
  private final Map<DatabaseSource, PostgresBackend> opened = new LinkedHashMap<>();

  /** Backends over {@code files}, with database passwords read from the process environment. */
  public DatasetBackends(Backend files) {
    this(files, true);
  }

  /**
   * @param detailed whether a connection failure names its cause (the password variable or file,
   *     the SQL state): true for the curator's own tools; false where analysts read the message
   *     (the server), since the curator's configuration is none of theirs
   */
  public DatasetBackends(Backend files, boolean detailed) {
    this(files, System.getenv(), detailed, null);
  }

  /**
   * As {@link #DatasetBackends(Backend, boolean)}, borrowing database connections from {@code
   * pools} (owned by the caller) instead of opening one per instance.
   */
  public DatasetBackends(Backend files, boolean detailed, PostgresPools pools) {
    this(files, System.getenv(), detailed, Objects.requireNonNull(pools, "pools"));
  }

  DatasetBackends(Backend files, Map<String, String> environment) {
    this(files, environment, true, null);
  }

  DatasetBackends(Backend files, Map<String, String> environment, boolean detailed, PostgresPools pools) {
    this.files = Objects.requireNonNull(files, "files");
    this.environment = environment;
    this.detailed = detailed;
    this.pools = pools;
  }

  /**
   * The backend of {@code spec}'s data.
   *
   * @throws IllegalArgumentException if the dataset's database cannot be reached (SQLSTATE only)
   *     or its password variable is not set
   */
  public synchronized Backend of(DatasetSpec spec) {
    if (spec.database().isEmpty()) {
      return files;
    }
    DatabaseSource db = spec.database().get();
    PostgresBackend pg = opened.get(db);
    if (pg == null) {
      try {
        pg = connect(spec, environment, pools);
      } catch (IllegalArgumentException e) {
        if (detailed) {
          throw e;
        }
        throw new IllegalArgumentException("dataset '" + spec.name() + "': its database cannot be reached"
            + " now, and nothing was charged (the curator sees why by running the query with privet"
            + " on the server's machine)");
      }
      opened.put(db, pg);
    }
    return pg;
  }

  /**
   * A new connection to {@code spec}'s database (the caller closes it), the password read now.
   *
   * @throws IllegalArgumentException as {@link #of}
   */
  static PostgresBackend connect(DatasetSpec spec, Map<String, String> environment) {
    return connect(spec, environment, null);
  }

  /** As {@link #connect(DatasetSpec, Map)}, borrowed from {@code pools} unless it is null. */
  private static PostgresBackend connect(DatasetSpec spec, Map<String, String> environment, PostgresPools pools) {
    DatabaseSource db = spec.database().orElseThrow(
        () -> new IllegalArgumentException("dataset '" + spec.name() + "' is not in a database"));
    try {
      return pools == null ? PostgresBackend.connect(db.jdbcUrl(), db.login(environment))
          : pools.backend(db.jdbcUrl(), db.login(environment));
    } catch (IllegalStateException | java.io.UncheckedIOException e) {
      throw new IllegalArgumentException("dataset '" + spec.name() + "': " + e.getMessage());
    }
  }

  /** Closes the database connections opened here, or gives them back to the pools (not the file backend). */
  @Override
  public synchronized void close() {
    opened.values().forEach(b -> {
      try {
        b.close();
      } catch (RuntimeException e) {
        // closing a broken connection: nothing left to release
      }
    });
    opened.clear();
  }
}
