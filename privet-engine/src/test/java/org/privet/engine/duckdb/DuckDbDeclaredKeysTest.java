package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;

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

  private static Relation.Scan scan(DuckDbBackend db, String alias, String table) {
    return new Relation.Scan(alias, Source.table(table), db.describe(Source.table(table)), false);
  }

  private static Relation.KeyUnit keyUnit(DuckDbBackend db) {
    Relation.Scan units = scan(db, "__unit1", "ord");
    return new Relation.KeyUnit(units, units.name("okey"), units.name("uid"), "__unit1.#key",
        "__unit1.#unit");
  }

  /** line ⋈ ord ⋈ cust, broken keys dropped after the joins (as the join binder places it). */
  private static Source afterJoins(DuckDbBackend db) {
    Relation.Scan l = scan(db, "l", "line");
    Relation.Scan o = scan(db, "o", "ord");
    Relation.Scan c = scan(db, "c", "cust");
    Relation rel = new Relation.Join(Relation.JoinKind.INNER, l, o,
        List.of(new Relation.Join.Key("l.okey", "o.okey")), Relation.JoinRole.ALONG_REFERENCE);
    rel = new Relation.Join(Relation.JoinKind.INNER, rel, c,
        List.of(new Relation.Join.Key("o.uid", "c.uid")), Relation.JoinRole.ALONG_REFERENCE);
    rel = new Relation.DropBrokenKeys(rel, "l.okey", keyUnit(db));
    return new Source.Relational(new Relation.Project(rel, List.of(
        new Relation.Project.Output("uid", "c.uid"), new Relation.Project.Output("qty", "l.qty"))),
        "c.uid");
  }

  /** line alone, its unit from the key's one unit (KeyUnit joined inside). */
  private static Source inside(DuckDbBackend db) {
    Relation.Scan l = scan(db, "l", "line");
    Relation.KeyUnit k = keyUnit(db);
    Relation rel = new Relation.Join(Relation.JoinKind.INNER, l, k,
        List.of(new Relation.Join.Key("l.okey", k.keyName())), Relation.JoinRole.ALONG_REFERENCE);
    return new Source.Relational(new Relation.Project(rel, List.of(
        new Relation.Project.Output("uid", k.unitName()),
        new Relation.Project.Output("qty", "l.qty"))), k.unitName());
  }

  private static BoundedAggregation spec(Source source) {
    return new BoundedAggregation(source, Optional.empty(), Optional.of("uid"), List.of(),
        Optional.empty(), 1, 1_000_000, 3,
        List.of(new Measure.FixedPointSum("qty", 0, 20, 1, 0, false)));
  }

  private static GroupAggregate run(DuckDbBackend db, BoundedAggregation spec) {
    List<GroupAggregate> out = new ArrayList<>();
    db.aggregate(spec, out::add);
    assertEquals(1, out.size());
    return out.get(0);
  }

  /** Units, rows and Σ qty·2 of the join, computed here: line items of the keys of one unit. */
  private static long[] reference(DuckDbBackend db) throws SQLException {
    String good = "(SELECT okey, MIN(uid) AS uid FROM ord GROUP BY okey HAVING COUNT(*) = COUNT(uid)"
        + " AND MIN(uid) = MAX(uid))";
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(DISTINCT g.uid), COUNT(*),"
            + " CAST(SUM(qty * 2) AS BIGINT) FROM line JOIN " + good + " g USING (okey)"
            + " JOIN cust ON cust.uid = g.uid")) {
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
}
