package org.privet.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.testing.TestPostgres;

/**
 * {@link PostgresPools} on a real PostgreSQL server: requests reuse a bounded set of sessions
 * (counted in {@code pg_stat_activity} by application name), each set up read-only with standard
 * strings, a session given back mid-transaction is clean for the next request, a busy pool makes
 * the request wait and then fail with the SQLSTATE only, a database that is down fails fast and
 * leaves no pool, and closing ends every session.
 */
class PostgresPoolsTest {
  private static String url;

  @BeforeAll
  static void table() throws SQLException {
    url = TestPostgres.server().newDatabase();
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (uid bigint, g text, x integer)");
      st.execute("INSERT INTO t VALUES (1, 'a', 2), (2, 'b', 3)");
    }
  }

  private static Properties login(String application) {
    Properties p = new Properties();
    p.setProperty("ApplicationName", application);
    return p;
  }

  /** The server's sessions of one application name, waiting up to 5 s for it to reach {@code expected}. */
  private static int sessions(String application, int expected) throws Exception {
    int n = -1;
    for (int i = 0; i < 50 && n != expected; i++) {
      if (n >= 0) {
        Thread.sleep(100);
      }
      try (Connection c = DriverManager.getConnection(url);
          PreparedStatement st = c.prepareStatement(
              "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?")) {
        st.setString(1, application);
        try (ResultSet r = st.executeQuery()) {
          r.next();
          n = r.getInt(1);
        }
      }
    }
    return n;
  }

  private static String show(PostgresBackend b, String setting) throws SQLException {
    try (Statement st = b.jdbc().createStatement(); ResultSet r = st.executeQuery("SHOW " + setting)) {
      r.next();
      return r.getString(1);
    }
  }

  private static int pid(PostgresBackend b) throws SQLException {
    try (Statement st = b.jdbc().createStatement(); ResultSet r = st.executeQuery("SELECT pg_backend_pid()")) {
      r.next();
      return r.getInt(1);
    }
  }

  @Test
  void backend_twentyRequestsOneAtATime_reuseOnePooledSession_andCloseEndsIt() throws Exception {
    Set<Integer> pids = new HashSet<>();
    try (PostgresPools pools = new PostgresPools(2)) {
      for (int i = 0; i < 20; i++) {
        try (PostgresBackend b = pools.backend(url, login("pool-reuse"))) {
          assertEquals(3, b.describe(Source.table("t")).columns().size());
          pids.add(pid(b));
        }
      }
      assertEquals(1, pids.size(), pids.toString());
      assertEquals(1, pools.pools());
      assertEquals(1, sessions("pool-reuse", 1));
    }
    assertEquals(0, sessions("pool-reuse", 0));
  }

  @Test
  void backend_pooledSession_isReadOnlyWithStandardStrings_andCleanAfterAnAbortedTransaction()
      throws Exception {
    try (PostgresPools pools = new PostgresPools(1)) {
      int first;
      try (PostgresBackend b = pools.backend(url, login("pool-setup"))) {
        assertEquals("on", show(b, "transaction_read_only"));
        assertEquals("on", show(b, "standard_conforming_strings"));
        assertFalse(b.jdbc().getAutoCommit());
        first = pid(b);
        try (Statement st = b.jdbc().createStatement()) {
          SQLException e = assertThrows(SQLException.class, () -> st.execute("INSERT INTO t VALUES (3, 'c', 4)"));
          assertEquals("25006", e.getSQLState()); // read-only transaction; the transaction is now aborted
        }
      } // given back without a rollback
      try (PostgresBackend b = pools.backend(url, login("pool-setup"))) {
        assertEquals(first, pid(b));
        assertEquals(3, b.describe(Source.table("t")).columns().size());
        assertEquals("on", show(b, "transaction_read_only"));
      }
    }
  }

  @Test
  void backend_allSessionsBusy_waitsThenFailsWithTheSqlStateOnly() throws Exception {
    try (PostgresPools pools = new PostgresPools(2, 300)) {
      PostgresBackend a = pools.backend(url, login("pool-busy"));
      PostgresBackend b = pools.backend(url, login("pool-busy"));
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> pools.backend(url, login("pool-busy")));
      assertTrue(e.getMessage().startsWith("cannot connect to PostgreSQL (SQL state"), e.getMessage());
      assertFalse(e.getMessage().contains("timed out"), e.getMessage());
      assertEquals(2, sessions("pool-busy", 2));
      a.close();
      try (PostgresBackend c = pools.backend(url, login("pool-busy"))) {
        assertEquals(3, c.describe(Source.table("t")).columns().size());
      }
      b.close();
      assertEquals(2, sessions("pool-busy", 2));
    }
  }

  @Test
  void backend_databaseDown_failsFastWithTheSqlState_andKeepsNoPool() throws Exception {
    int closed;
    try (ServerSocket s = new ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    try (PostgresPools pools = new PostgresPools()) {
      long start = System.nanoTime();
      IllegalStateException e = assertThrows(IllegalStateException.class,
          () -> pools.backend("jdbc:postgresql://127.0.0.1:" + closed + "/gone", login("pool-down")));
      assertTrue(System.nanoTime() - start < PostgresPools.WAIT_MILLIS * 1_000_000L, "took the whole wait");
      assertEquals("cannot connect to PostgreSQL (SQL state 08001)", e.getMessage());
      assertEquals(0, pools.pools());
      assertThrows(IllegalArgumentException.class, () -> pools.backend("jdbc:mysql://h/d", login("x")));
    }
  }

  @Test
  void backend_afterClose_refused() {
    PostgresPools pools = new PostgresPools();
    pools.close();
    assertThrows(IllegalStateException.class, () -> pools.backend(url, login("pool-closed")));
  }
}
