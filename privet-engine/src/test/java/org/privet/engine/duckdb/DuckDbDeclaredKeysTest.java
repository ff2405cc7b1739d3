package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.KeyUnitPlans;
import org.privet.testing.SeededRandomSource;

/**
 * Keys the database guarantees (issue 25's time; docs/proofs/engine-joins.md, "Keys the database
 * guarantees"): over a parent table whose key DuckDB enforces as PRIMARY KEY or UNIQUE and whose
 * unit column it enforces NOT NULL, the per-key unit check ({@link Relation.DropBrokenKeys} after
 * the joins, {@link Relation.KeyUnit} inside them) is rendered without its aggregate, and the
 * aggregates are those of the plain join computed here in SQL; without the guarantee (no
 * constraint, a nullable unit, a key of two columns, a view of the same name) the check is
 * rendered and drops the broken keys as before.
 */
class DuckDbDeclaredKeysTest {
  private static final String CHECK = "HAVING NOT (COUNT(*)";
  private static final String KEY_UNIT = "HAVING COUNT(*) = COUNT(";

  private static DuckDbBackend withTables(String ordersDdl) {
    DuckDbBackend db = DuckDbBackend.inMemory();
    db.execute("CREATE TABLE cust (uid INTEGER)");
    db.execute(ordersDdl);
    db.execute("CREATE TABLE line (okey INTEGER, qty DOUBLE)");
    db.execute("INSERT INTO cust SELECT range FROM range(40)");
    db.execute("INSERT INTO ord SELECT range, range % 37 FROM range(300)");
    db.execute("INSERT INTO line SELECT range % 310, (range % 7) * 1.5 FROM range(2000)");
    return db;
  }

  /**
   * Tries to break keys (5 held by two units, 305 by a row without one); returns how many of the
   * two the table's constraints let in.
   */
  private static int breakKeys(DuckDbBackend db) {
    int in = 0;
    for (String row : List.of("(5, 36)", "(305, NULL)")) {
      try {
        db.execute("INSERT INTO ord VALUES " + row);
        in++;
      } catch (RuntimeException refused) {
        // the constraint holds
      }
    }
    return in;
  }

  private static Source afterJoins(DuckDbBackend db) {
    return KeyUnitPlans.afterJoins(db::describe);
  }

  private static Source inside(DuckDbBackend db) {
    return KeyUnitPlans.inside(db::describe);
  }

  private static BoundedAggregation spec(Source source) {
    return KeyUnitPlans.spec(source);
  }

  private static GroupAggregate run(DuckDbBackend db, BoundedAggregation spec) {
    List<GroupAggregate> out = new ArrayList<>();
    db.aggregate(spec, out::add);
    assertEquals(1, out.size());
    return out.get(0);
  }

  /** Units, rows and Σ qty·2 of the join, computed here: line items of the keys of one unit. */
  private static long[] reference(DuckDbBackend db) throws SQLException {
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery(KeyUnitPlans.REFERENCE)) {
      rs.next();
      return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
    }
  }

  private static void assertReference(DuckDbBackend db, Source source) throws SQLException {
    long[] want = reference(db);
    GroupAggregate got = run(db, spec(source));
    assertEquals(want[0], got.units(), "units");
    assertEquals(want[1], got.rows(), "rows");
    assertEquals(want[2], got.sums()[0], "sum");
  }

  @Test
  void declaredKeyAndNotNullUnit_checkNotRendered_plainJoinsAggregates() throws SQLException {
    for (String ddl : List.of("CREATE TABLE ord (okey INTEGER PRIMARY KEY, uid INTEGER NOT NULL)",
        "CREATE TABLE ord (okey INTEGER UNIQUE, uid INTEGER NOT NULL)")) {
      try (DuckDbBackend db = withTables(ddl)) {
        assertEquals(0, breakKeys(db), "the database refuses every broken key");
        assertFalse(db.physicalPlan(spec(afterJoins(db))).contains(CHECK), ddl);
        assertFalse(db.physicalPlan(spec(inside(db))).contains(KEY_UNIT), ddl);
        assertReference(db, afterJoins(db));
        assertReference(db, inside(db));
      }
    }
  }

  @Test
  void noGuarantee_checkRendered_brokenKeysDropped() throws SQLException {
    for (String ddl : List.of("CREATE TABLE ord (okey INTEGER, uid INTEGER)",
        "CREATE TABLE ord (okey INTEGER, uid INTEGER NOT NULL)",
        "CREATE TABLE ord (okey INTEGER PRIMARY KEY, uid INTEGER)",
        "CREATE TABLE ord (okey INTEGER, uid INTEGER, PRIMARY KEY (okey, uid))")) {
      try (DuckDbBackend db = withTables(ddl)) {
        assertTrue(breakKeys(db) > 0, ddl + ": a broken key gets in");
        assertTrue(db.physicalPlan(spec(afterJoins(db))).contains(CHECK), ddl);
        assertTrue(db.physicalPlan(spec(inside(db))).contains(KEY_UNIT), ddl);
        assertReference(db, afterJoins(db));
        assertReference(db, inside(db));
      }
    }
    // A temporary view named like the constrained table: the name may read the view.
    try (DuckDbBackend db = withTables(
        "CREATE TABLE ord (okey INTEGER PRIMARY KEY, uid INTEGER NOT NULL)")) {
      db.execute("CREATE TEMP VIEW ord AS SELECT * FROM memory.main.ord");
      assertTrue(db.physicalPlan(spec(afterJoins(db))).contains(CHECK));
    }
  }

  /** The statements DuckDB received while {@code r} ran (its query log), whitespace collapsed. */
  private static List<String> statementsSent(DuckDbBackend db, Runnable r) throws SQLException {
    try (Statement s = db.trustedConnection().createStatement()) {
      s.execute("CALL truncate_duckdb_logs()");
      s.execute("CALL enable_logging('QueryLog')");
      try {
        r.run();
      } finally {
        s.execute("CALL disable_logging()");
      }
      List<String> out = new ArrayList<>();
      try (ResultSet rs = s.executeQuery(
          "SELECT message FROM duckdb_logs WHERE type = 'QueryLog'")) {
        while (rs.next()) {
          String m = rs.getString(1).replaceAll("\\s+", " ").trim();
          if (!m.contains("enable_logging(") && !m.contains("disable_logging(")) {
            out.add(m);
          }
        }
      }
      return out;
    }
  }

  /**
   * One query of the engine over {@code source} (no bound given: the L∞ estimate and the main
   * pass, sharing the join) at huge ε; returns the statements it sent DuckDB.
   */
  private static List<String> sessionRun(DuckDbBackend db, Source source) throws SQLException {
    Query q = Query.from(source).privacyUnit("uid").estimateMaxRowsPerGroup().count("n")
        .epsilon(1e9).build();
    Session session = Session.builder().backend(db).budgetCharger(c -> { })
        .randomSource(new SeededRandomSource(25)).build();
    return statementsSent(db, () -> session.run(q));
  }

  private static boolean checked(List<String> statements) {
    return statements.stream().anyMatch(x -> x.contains(CHECK));
  }

  /** The statements that read the catalog's declared keys. */
  private static long catalogReads(List<String> statements) {
    return statements.stream().filter(x -> x.contains("pragma_table_info")
        || x.contains("duckdb_constraints")).count();
  }

  /**
   * The keys are read in the query's one scan check (before its charge) and used by that query
   * only: the same source object, queried again after the owner adds, drops and re-adds the
   * constraints, is rendered as the catalog says at each query; broken data entered after a
   * constraint went is dropped by the check the next query renders.
   */
  @Test
  void constraintChangedBetweenQueries_nextQueryFollowsTheCatalog() throws SQLException {
    try (DuckDbBackend db = withTables("CREATE TABLE ord (okey INTEGER, uid INTEGER)")) {
      Source source = afterJoins(db);
      List<String> sent = sessionRun(db, source);
      assertTrue(checked(sent), "no constraint: checked");
      assertEquals(1, catalogReads(sent), String.join("\n", sent));

      db.execute("ALTER TABLE ord ADD PRIMARY KEY (okey)");
      db.execute("ALTER TABLE ord ALTER COLUMN uid SET NOT NULL");
      sent = sessionRun(db, source);
      assertFalse(checked(sent), "key and unit declared: not checked");
      assertEquals(1, catalogReads(sent), "one statement: the scan check reads the keys");
      assertEquals(0, sent.stream().filter(x -> x.startsWith("DESCRIBE")).count());

      db.execute("ALTER TABLE ord ALTER COLUMN uid DROP NOT NULL");
      assertTrue(checked(sessionRun(db, source)), "NOT NULL dropped: checked again");
      db.execute("ALTER TABLE ord ALTER COLUMN uid SET NOT NULL");
      assertFalse(checked(sessionRun(db, source)), "NOT NULL declared again");

      // The owner replaces the table without its key (DuckDB drops no PRIMARY KEY in place) and
      // enters a key held by two units: the next query checks, and the aggregates drop it.
      db.execute("CREATE OR REPLACE TABLE ord AS SELECT * FROM ord");
      db.execute("ALTER TABLE ord ALTER COLUMN uid SET NOT NULL");
      assertEquals(1, breakKeys(db), "a key held by two units gets in");
      assertTrue(checked(sessionRun(db, source)), "key dropped: checked");
      db.describe(source);
      assertReference(db, source);
    }
  }

  /**
   * The scan check that reads the keys binds the scanned tables without reading a row: a scanned
   * view whose rows cannot be read (a cast that fails on a row) is described, as DuckDB's {@code
   * DESCRIBE} describes it, in one statement that reads the keys.
   */
  @Test
  void describe_withKeyQuestions_readsNoRow() throws SQLException {
    try (DuckDbBackend db = withTables(
        "CREATE TABLE ord (okey INTEGER PRIMARY KEY, uid INTEGER NOT NULL)")) {
      db.execute("DROP TABLE line");
      db.execute("CREATE VIEW line AS SELECT CAST(x AS INTEGER) AS okey, 1.5 AS qty"
          + " FROM (VALUES ('1'), ('not a number')) t(x)");
      assertThrowsOnRead(db);
      Source source = afterJoins(db);
      List<String> sent = statementsSent(db, () -> db.describe(source));
      assertEquals(1, sent.size(), String.join("\n", sent));
      assertEquals(1, catalogReads(sent));
      assertFalse(db.physicalPlan(spec(source)).contains(CHECK));
    }
  }

  private static void assertThrowsOnRead(DuckDbBackend db) {
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery("SELECT SUM(okey) FROM line")) {
      rs.next();
      throw new AssertionError("the view's rows were expected to fail when read");
    } catch (SQLException expected) {
      // reading the rows fails
    }
  }
}
