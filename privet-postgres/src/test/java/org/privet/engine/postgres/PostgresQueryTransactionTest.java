package org.privet.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.KeyUnitPlans;
import org.privet.testing.TestPostgres;

/**
 * One query's passes over a plan that asks about declared keys run in one transaction ({@code
 * JdbcBackend.sharingRows}; docs/proofs/engine-joins.md, "Keys the database guarantees"), on a
 * real server ({@link TestPostgres}), seen from a second connection: after each pass the
 * backend's session is idle in the same transaction (same {@code xact_start}) and holds its
 * ACCESS SHARE lock on the keyed table; closing the view ends the transaction and releases the
 * lock, also after a pass that failed. An owner who drops the key between two passes waits until
 * the view is closed, so the second pass runs under the key the first read; the next query sees
 * it dropped and renders the check. Every pass's aggregates equal plain SQL's on the raw rows.
 */
class PostgresQueryTransactionTest {
  private static final String CHECK = "HAVING NOT (COUNT(*)";

  private static String database() {
    return TestPostgres.server().newDatabase("CREATE TABLE cust (uid integer)",
        "CREATE TABLE ord (okey integer PRIMARY KEY, uid integer NOT NULL)",
        "CREATE TABLE line (okey integer, qty double precision)",
        "INSERT INTO cust SELECT g FROM generate_series(0, 39) g",
        "INSERT INTO ord SELECT g, g % 37 FROM generate_series(0, 299) g",
        "INSERT INTO line SELECT g % 310, (g % 7) * 1.5 FROM generate_series(0, 1999) g");
  }

  /** The backend's server process (its transaction then ended). */
  private static int pid(PostgresBackend db) throws SQLException {
    try (Statement st = db.jdbc().createStatement();
        ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
      rs.next();
      return rs.getInt(1);
    } finally {
      db.jdbc().commit();
    }
  }

  /** The session's state and transaction start, as another connection sees them. */
  private static String activity(Connection observer, int pid) throws SQLException {
    try (PreparedStatement st = observer.prepareStatement(
        "SELECT state || ' ' || COALESCE(xact_start::text, '-') FROM pg_stat_activity"
            + " WHERE pid = ?")) {
      st.setInt(1, pid);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  /** Whether the session holds a granted ACCESS SHARE lock on ord. */
  private static boolean holdsLock(Connection observer, int pid) throws SQLException {
    try (PreparedStatement st = observer.prepareStatement("SELECT COUNT(*) FROM pg_locks WHERE"
        + " pid = ? AND relation = 'public.ord'::regclass AND mode = 'AccessShareLock'"
        + " AND granted")) {
      st.setInt(1, pid);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  private static long waiting(Connection observer) throws SQLException {
    try (Statement st = observer.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND relation = 'public.ord'::regclass")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static long[] reference(Connection observer) throws SQLException {
    try (Statement st = observer.createStatement();
        ResultSet rs = st.executeQuery(KeyUnitPlans.REFERENCE)) {
      rs.next();
      return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
    }
  }

  private static void pass(Backend view, BoundedAggregation spec, long[] want) {
    List<GroupAggregate> out = new ArrayList<>();
    view.aggregate(spec, out::add);
    assertEquals(1, out.size());
    assertEquals(want[0], out.get(0).units(), "units");
    assertEquals(want[1], out.get(0).rows(), "rows");
    assertEquals(want[2], out.get(0).sums()[0], "sum");
  }

  @Test
  void passesOfOneQuery_oneTransactionHoldingTheLock_endedByClose() throws SQLException {
    String url = database();
    try (PostgresBackend db = PostgresBackend.connect(url, new Properties());
        Connection observer = DriverManager.getConnection(url)) {
      int pid = pid(db);
      Source source = KeyUnitPlans.afterJoins(db::describe);
      BoundedAggregation spec = KeyUnitPlans.spec(source);
      long[] want = reference(observer);
      Backend view = db.sharingRows(List.of(spec, spec, spec));
      String first = null;
      for (int i = 0; i < 3; i++) {
        pass(view, spec, want);
        String now = activity(observer, pid);
        assertTrue(now.startsWith("idle in transaction "), now);
        first = first == null ? now : first;
        assertEquals(first, now, "every pass in the first pass's transaction");
        assertTrue(holdsLock(observer, pid), "the lock is held between passes");
      }
      view.close();
      assertTrue(activity(observer, pid).startsWith("idle -"), activity(observer, pid));
      assertFalse(holdsLock(observer, pid), "closing ends the transaction and its lock");
      assertFalse(db.physicalPlan(spec).contains(CHECK), "the key is guaranteed");

      // A pass that fails after its statement ran (the sink throws): closing still ends it.
      Backend failing = db.sharingRows(List.of(spec, spec));
      assertThrows(IllegalStateException.class, () -> failing.aggregate(spec, g -> {
        throw new IllegalStateException("the sink fails");
      }));
      failing.close();
      assertTrue(activity(observer, pid).startsWith("idle -"), activity(observer, pid));
      assertFalse(holdsLock(observer, pid));
    }
  }

  /**
   * The owner drops the key and enters a broken one while a query is between its passes: the
   * owner waits for the query's lock until the view is closed, so the second pass reads the rows
   * the key still guarantees (nothing broken has got in); the next query reads the catalog as the
   * owner committed it, renders the check and drops the broken key. (With each pass in its own
   * transaction the owner would not wait for the second pass.)
   */
  @Test
  void keyDroppedBetweenPasses_ownerWaitsForClose_nextQueryRendersTheCheck() throws Exception {
    String url = database();
    try (PostgresBackend db = PostgresBackend.connect(url, new Properties());
        Connection observer = DriverManager.getConnection(url);
        Connection owner = DriverManager.getConnection(url)) {
      Source source = KeyUnitPlans.afterJoins(db::describe);
      BoundedAggregation spec = KeyUnitPlans.spec(source);
      long[] before = reference(observer);
      Backend view = db.sharingRows(List.of(spec, spec));
      pass(view, spec, before);
      AtomicReference<Exception> failed = new AtomicReference<>();
      Thread drop = new Thread(() -> {
        try (Statement st = owner.createStatement()) {
          owner.setAutoCommit(false);
          st.execute("ALTER TABLE ord DROP CONSTRAINT ord_pkey");
          st.execute("INSERT INTO ord VALUES (5, 36)");
          owner.commit();
        } catch (SQLException e) {
          failed.set(e);
        }
      });
      drop.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (waiting(observer) == 0) {
        assertTrue(drop.isAlive() && System.nanoTime() < deadline,
            "the owner waits for the query's lock");
        Thread.sleep(20);
      }
      pass(view, spec, before);
      assertTrue(drop.isAlive(), "the owner still waits after the second pass");
      view.close();
      drop.join(30_000);
      assertFalse(drop.isAlive());
      assertEquals(null, failed.get());
      long[] after = reference(observer);
      assertTrue(after[1] < before[1], "the broken key's line items are dropped");
      assertTrue(db.physicalPlan(spec).contains(CHECK), "the key is no longer guaranteed");
      Backend next = db.sharingRows(List.of(spec));
      pass(next, spec, after);
      next.close();
    }
  }
}
