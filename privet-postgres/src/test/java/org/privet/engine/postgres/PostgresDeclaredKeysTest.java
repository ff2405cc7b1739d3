package org.privet.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.KeyUnitPlans;
import org.privet.testing.TestPostgres;

/**
 * Keys PostgreSQL guarantees (issue 25's time; docs/proofs/engine-joins.md, "Keys the database
 * guarantees"), on a real server ({@link TestPostgres}): over a parent table whose key is a
 * non-deferrable PRIMARY KEY or UNIQUE constraint and whose unit column is NOT NULL, the per-key
 * unit check is not rendered, the table is scanned as {@code ONLY schema.table}, and the
 * aggregates are those of the join of the keys of one unit computed here in SQL; without the
 * guarantee (no constraint, a nullable unit, a two-column key, a deferrable key, an inheritance
 * child, a view of that name earlier on the search path) the check is rendered and drops the
 * broken keys. The facts are read in the statement's transaction, under a lock that keeps the
 * constraints until it ends.
 */
class PostgresDeclaredKeysTest {
  private static final String CHECK = "HAVING NOT (COUNT(*)";
  private static final String KEY_UNIT = "HAVING COUNT(*) = COUNT(";

  private static String database(String ordersDdl, String... more) {
    List<String> sql = new ArrayList<>(List.of("CREATE TABLE cust (uid integer)", ordersDdl,
        "CREATE TABLE line (okey integer, qty double precision)",
        "INSERT INTO cust SELECT g FROM generate_series(0, 39) g",
        "INSERT INTO ord SELECT g, g % 37 FROM generate_series(0, 299) g",
        "INSERT INTO line SELECT g % 310, (g % 7) * 1.5 FROM generate_series(0, 1999) g"));
    sql.addAll(List.of(more));
    return TestPostgres.server().newDatabase(sql.toArray(String[]::new));
  }

  /** Tries to break keys (5 held by two units, 305 by a row without one); how many got in. */
  private static int breakKeys(String url) throws SQLException {
    int in = 0;
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      for (String row : List.of("(5, 36)", "(305, NULL)")) {
        try {
          st.execute("INSERT INTO ord VALUES " + row);
          in++;
        } catch (SQLException refused) {
          // the constraint holds
        }
      }
    }
    return in;
  }

  private static Source afterJoins(PostgresBackend db) {
    return KeyUnitPlans.afterJoins(db::describe);
  }

  private static Source inside(PostgresBackend db) {
    return KeyUnitPlans.inside(db::describe);
  }

  private static BoundedAggregation spec(Source source) {
    return KeyUnitPlans.spec(source);
  }

  /**
   * Units, rows and Σ qty·2 of the join, computed here: line items of the keys of one unit (for
   * {@code inside}, the same keys without the join to cust: every unit of ord is in cust, or NULL).
   */
  private static long[] reference(String url) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(KeyUnitPlans.REFERENCE)) {
      rs.next();
      return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
    }
  }

  private static void assertReference(PostgresBackend db, String url, Source source)
      throws SQLException {
    long[] want = reference(url);
    List<GroupAggregate> out = new ArrayList<>();
    db.aggregate(spec(source), out::add);
    assertEquals(1, out.size());
    assertEquals(want[0], out.get(0).units(), "units");
    assertEquals(want[1], out.get(0).rows(), "rows");
    assertEquals(want[2], out.get(0).sums()[0], "sum");
  }

  @Test
  void declaredKeyAndNotNullUnit_checkNotRendered_joinOfOneUnitKeys() throws SQLException {
    for (String ddl : List.of("CREATE TABLE ord (okey integer PRIMARY KEY, uid integer NOT NULL)",
        "CREATE TABLE ord (okey integer UNIQUE, uid integer NOT NULL)")) {
      String url = database(ddl);
      try (PostgresBackend db = PostgresBackend.connect(url, new Properties())) {
        assertEquals(0, breakKeys(url), "the database refuses every broken key");
        String after = db.physicalPlan(spec(afterJoins(db)));
        assertFalse(after.contains(CHECK), ddl);
        assertTrue(after.contains("ONLY public.ord "), after);
        assertFalse(db.physicalPlan(spec(inside(db))).contains(KEY_UNIT), ddl);
        assertReference(db, url, afterJoins(db));
        assertReference(db, url, inside(db));
      }
    }
  }

  @Test
  void noGuarantee_checkRendered_brokenKeysDropped() throws SQLException {
    for (String ddl : List.of("CREATE TABLE ord (okey integer, uid integer)",
        "CREATE TABLE ord (okey integer, uid integer NOT NULL)",
        "CREATE TABLE ord (okey integer PRIMARY KEY, uid integer)",
        "CREATE TABLE ord (okey integer, uid integer, PRIMARY KEY (okey, uid))")) {
      String url = database(ddl);
      try (PostgresBackend db = PostgresBackend.connect(url, new Properties())) {
        assertTrue(breakKeys(url) > 0, ddl + ": a broken key gets in");
        String after = db.physicalPlan(spec(afterJoins(db)));
        assertTrue(after.contains(CHECK), ddl);
        assertFalse(after.contains("ONLY "), ddl);
        assertTrue(db.physicalPlan(spec(inside(db))).contains(KEY_UNIT), ddl);
        assertReference(db, url, afterJoins(db));
        assertReference(db, url, inside(db));
      }
    }
    // Declared, but not a guarantee of the rows the name reads: a deferrable key; a child table
    // (read with its parent, its keys not held unique with the parent's); a view of that name in
    // a schema earlier on the search path.
    String declared = "CREATE TABLE ord (okey integer PRIMARY KEY, uid integer NOT NULL)";
    for (String[] setup : List.of(
        new String[] {"CREATE TABLE ord (okey integer UNIQUE DEFERRABLE, uid integer NOT NULL)"},
        new String[] {declared, "CREATE TABLE ord_child () INHERITS (ord)",
            "INSERT INTO ord_child VALUES (5, 36)"},
        new String[] {declared, "CREATE SCHEMA front", "CREATE VIEW front.ord AS SELECT * FROM"
            + " public.ord UNION ALL SELECT 5, 36", "ALTER DATABASE current_database_placeholder"
            + " SET search_path = front, public"})) {
      String url = databaseWith(setup);
      try (PostgresBackend db = PostgresBackend.connect(url, new Properties())) {
        assertTrue(db.physicalPlan(spec(afterJoins(db))).contains(CHECK), setup[setup.length - 1]);
        assertTrue(db.physicalPlan(spec(inside(db))).contains(KEY_UNIT), setup[setup.length - 1]);
        if (!setup[0].contains("DEFERRABLE")) {
          assertEquals(2, count(url, "SELECT COUNT(*) FROM ord WHERE okey = 5"),
              "the name reads key 5 twice");
        }
        assertReference(db, url, afterJoins(db));
        assertReference(db, url, inside(db));
      }
    }
  }

  /** {@link #database} with the orders DDL and more; a database-level setting names it. */
  private static String databaseWith(String[] setup) throws SQLException {
    String url = database(setup[0]);
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      String name;
      try (ResultSet rs = st.executeQuery("SELECT current_database()")) {
        rs.next();
        name = rs.getString(1);
      }
      for (int i = 1; i < setup.length; i++) {
        st.execute(setup[i].replace("current_database_placeholder", name));
      }
    }
    return url;
  }

  private static long count(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /**
   * The facts hold when the statement runs: they are read in its transaction after a lock that
   * dropping a constraint must wait for. The owner drops the key and enters a broken one in a
   * transaction still open when the aggregation starts; the aggregation waits at its lock until
   * the owner commits, then reads the catalog as committed: the check is rendered and the broken
   * key dropped. (Read before the lock, the catalog would still show the key, and the statement,
   * run after the commit, would join key 5 under two units.)
   */
  @Test
  void keyDroppedWhileTheAggregationWaits_factsReadAfterTheLock_brokenKeyDropped()
      throws Exception {
    String url = database("CREATE TABLE ord (okey integer PRIMARY KEY, uid integer NOT NULL)");
    try (PostgresBackend db = PostgresBackend.connect(url, new Properties());
        Connection owner = DriverManager.getConnection(url);
        Statement st = owner.createStatement()) {
      Source source = afterJoins(db);
      owner.setAutoCommit(false);
      st.execute("ALTER TABLE ord DROP CONSTRAINT ord_pkey");
      st.execute("INSERT INTO ord VALUES (5, 36)");
      List<GroupAggregate> out = new ArrayList<>();
      Thread query = new Thread(() -> db.aggregate(spec(source), out::add));
      query.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (count(url, "SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND relation ="
          + " 'public.ord'::regclass") == 0) {
        assertTrue(System.nanoTime() < deadline, "the aggregation waits for the owner's lock");
        Thread.sleep(20);
      }
      owner.commit();
      query.join(30_000);
      assertFalse(query.isAlive());
      long[] want = reference(url);
      assertEquals(1, out.size());
      assertEquals(want[1], out.get(0).rows(), "rows: key 5's line items dropped");
      assertEquals(want[2], out.get(0).sums()[0], "sum");
      assertTrue(db.physicalPlan(spec(source)).contains(CHECK));
    }
  }
}
