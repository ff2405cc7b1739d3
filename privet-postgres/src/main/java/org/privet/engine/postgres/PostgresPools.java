package org.privet.engine.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Bounded connection pools (HikariCP), one per database and login, so that a long-running curator
 * (the server) does not open a PostgreSQL connection per request: {@link #backend} borrows a
 * connection and the backend's {@code close} gives it back. Each pool holds at most {@code size}
 * connections and none while idle (they retire after a minute); a request that finds all of them
 * busy waits up to {@link #WAIT_MILLIS} and then fails like a failed connection.
 *
 * <p>Every pooled session is set up as {@link PostgresBackend#connect} sets up its own: read-only,
 * without auto-commit (one transaction per statement, ended by the backend; a connection given back
 * mid-transaction is rolled back by the pool), {@code standard_conforming_strings} on.
 *
 * <p>Logins (the password read by the caller at request time) are kept in memory only, as the
 * key of their pool: a changed password gets a pool of its own, and the stale one empties as its
 * connections retire. Failures carry the SQLSTATE, never the driver's text. {@link #close} closes
 * every pool; thread-safe.
 */
public final class PostgresPools implements AutoCloseable {
  /** The default bound on the connections of one pool. */
  public static final int DEFAULT_SIZE = 4;

  /** How long a request waits for a connection when the pool is busy or the database is down. */
  static final long WAIT_MILLIS = 5_000;

  private static final long IDLE_MILLIS = 60_000;

  private record Key(String jdbcUrl, Properties login) {}

  private final int size;
  private final long waitMillis;
  private final Map<Key, HikariDataSource> pools = new HashMap<>();
  private boolean closed;

  /** Pools of at most {@link #DEFAULT_SIZE} connections each. */
  public PostgresPools() {
    this(DEFAULT_SIZE);
  }

  /** Pools of at most {@code size} connections each ({@code size} ≥ 1). */
  public PostgresPools(int size) {
    this(size, WAIT_MILLIS);
  }

  PostgresPools(int size, long waitMillis) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be at least 1, was " + size);
    }
    this.size = size;
    this.waitMillis = waitMillis;
  }

  /**
   * A backend on a pooled connection to {@code jdbcUrl} with {@code login} (e.g. {@code user},
   * {@code password}); closing the backend gives the connection back.
   *
   * @throws IllegalArgumentException if the URL is not a PostgreSQL URL
   * @throws IllegalStateException if no connection can be had (SQLSTATE only), or after
   *     {@link #close}
   */
  public PostgresBackend backend(String jdbcUrl, Properties login) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("jdbcUrl must start with jdbc:postgresql:");
    }
    Properties copy = new Properties();
    copy.putAll(login);
    HikariDataSource pool = pool(new Key(jdbcUrl, copy));
    try {
      return PostgresBackend.over(pool.getConnection());
    } catch (SQLException e) {
      throw PostgresBackend.cannotConnect(e);
    }
  }

  /** The number of pools opened so far (one per database and login). */
  public synchronized int pools() {
    return pools.size();
  }

  /**
   * The pool of a database and login, made on first use. It is made outside the lock (making it
   * tries one connection, which may take the driver's connect timeout), and only a pool whose
   * first connection succeeded is kept, so a database that is down is tried again next time.
   */
  private HikariDataSource pool(Key key) {
    synchronized (this) {
      requireOpen();
      HikariDataSource existing = pools.get(key);
      if (existing != null) {
        return existing;
      }
    }
    HikariDataSource made = make(key);
    synchronized (this) {
      HikariDataSource raced = closed ? null : pools.putIfAbsent(key, made);
      if (raced == null && !closed) {
        return made;
      }
      made.close();
      requireOpen();
      return raced;
    }
  }

  private HikariDataSource make(Key key) {
    HikariConfig c = new HikariConfig();
    c.setPoolName("privet-postgres-" + pools());
    c.setJdbcUrl(key.jdbcUrl());
    c.setDataSourceProperties(key.login());
    c.setMaximumPoolSize(size);
    c.setMinimumIdle(0);
    c.setIdleTimeout(IDLE_MILLIS);
    c.setConnectionTimeout(waitMillis);
    c.setInitializationFailTimeout(1);
    c.setReadOnly(true);
    c.setAutoCommit(false);
    c.setConnectionInitSql(PostgresBackend.SESSION_SETUP);
    try {
      return new HikariDataSource(c);
    } catch (HikariPool.PoolInitializationException e) {
      throw PostgresBackend.cannotConnect(e.getCause() instanceof SQLException s ? s : new SQLException(e));
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("the PostgreSQL connection pools are closed");
    }
  }

  /** Closes every pool and the connections in them; later requests fail. */
  @Override
  public void close() {
    List<HikariDataSource> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(pools.values());
      pools.clear();
    }
    all.forEach(HikariDataSource::close);
  }
}
