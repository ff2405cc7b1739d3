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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.privet.engine.Filter;
import org.privet.engine.Source;
import org.privet.engine.plan.Relation;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.testing.TestPostgres;

/**
 * A join plan on PostgreSQL is rendered with only the columns its statement names (issue 25's
 * time; {@code RelationSql.render} with the spec's {@code columnsNamed}, as on DuckDB), on a real
 * server ({@link TestPostgres}): line ⋈ ord ⋈ cust projected to six columns, three of them wide
 * text the aggregation never reads. The statement scans the unit, the group and filter column and
 * the summed column, and none of the wide ones; the aggregates equal those of the same join
 * computed here in plain SQL on the raw rows. (The rendered SQL, not EXPLAIN, is what is checked:
 * PostgreSQL's own plan of a sequential scan lists the whole physical row, needed or not.)
 */
class PostgresPrunedJoinTest {
  private static final String WIDE = "repeat('x', 3000)";

  private static String database() {
    return TestPostgres.server().newDatabase(
        "CREATE TABLE cust (uid integer, bio text)",
        "CREATE TABLE ord (okey integer, uid integer, prio integer, note text)",
        "CREATE TABLE line (okey integer, qty double precision, remark text)",
        "INSERT INTO cust SELECT g, " + WIDE + " FROM generate_series(0, 39) g",
        "INSERT INTO ord SELECT g, g % 37, g % 5, " + WIDE + " FROM generate_series(0, 299) g",
        "INSERT INTO line SELECT g % 310, (g % 7) * 1.5, " + WIDE
            + " FROM generate_series(0, 1999) g");
  }

  private static Relation.Scan scan(PostgresBackend db, String alias, String table) {
    return new Relation.Scan(alias, Source.table(table), db.describe(Source.table(table)), false);
  }

  /** line ⋈ ord ⋈ cust, every column of the three tables' interest projected out. */
  private static Source.Relational join(PostgresBackend db) {
    Relation rel = new Relation.Join(Relation.JoinKind.INNER, scan(db, "l", "line"),
        scan(db, "o", "ord"), List.of(new Relation.Join.Key("l.okey", "o.okey")),
        Relation.JoinRole.ALONG_REFERENCE);
    rel = new Relation.Join(Relation.JoinKind.INNER, rel, scan(db, "c", "cust"),
        List.of(new Relation.Join.Key("o.uid", "c.uid")), Relation.JoinRole.ALONG_REFERENCE);
    return new Source.Relational(new Relation.Project(rel, List.of(
        new Relation.Project.Output("uid", "c.uid"), new Relation.Project.Output("qty", "l.qty"),
        new Relation.Project.Output("prio", "o.prio"),
        new Relation.Project.Output("note", "o.note"),
        new Relation.Project.Output("remark", "l.remark"),
        new Relation.Project.Output("bio", "c.bio"))), "c.uid");
  }

  /** Per prio below 3: units, rows and Σ qty·2 (no bound binds: l0 5, L∞ 10⁶, qty ≤ 9). */
  private static BoundedAggregation spec(Source.Relational source) {
    Filter prio = org.privet.engine.spi.ColumnLiterals.typed(
        new Filter.Compare("prio", Filter.Op.LT, 3L), source.relation().schema());
    return new BoundedAggregation(source, Optional.of(prio),
        Optional.of("uid"), List.of("prio"), Optional.empty(), 5, 1_000_000, 7,
        List.of(new Measure.FixedPointSum("qty", 0, 20, 1, 0, false)));
  }

  @Test
  void joinPlan_scansOnlyNamedColumns_resultsAsPlainSql() throws SQLException {
    String url = database();
    try (PostgresBackend db = PostgresBackend.connect(url, new Properties())) {
      Source.Relational source = join(db);
      String sql = db.physicalPlan(spec(source));
      for (String kept : List.of("\"uid\"", "\"okey\"", "\"qty\"", "\"prio\"")) {
        assertTrue(sql.contains(kept), kept + " is read: " + sql);
      }
      for (String gone : List.of("\"note\"", "\"remark\"", "\"bio\"")) {
        assertFalse(sql.contains(gone), gone + " is not read: " + sql);
      }
      Map<Long, long[]> want = reference(url);
      assertEquals(3, want.size());
      List<GroupAggregate> out = new ArrayList<>();
      db.aggregate(spec(source), out::add);
      assertEquals(want.size(), out.size());
      for (GroupAggregate g : out) {
        long[] w = want.get(((Number) g.key().get(0)).longValue());
        assertEquals(w[0], g.units(), "units");
        assertEquals(w[1], g.rows(), "rows");
        assertEquals(w[2], g.sums()[0], "sum");
      }
    }
  }

  /** The same join and aggregates in plain SQL on the raw rows: prio → units, rows, Σ qty·2. */
  private static Map<Long, long[]> reference(String url) throws SQLException {
    Map<Long, long[]> out = new HashMap<>();
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT o.prio, COUNT(DISTINCT cust.uid), COUNT(*),"
            + " CAST(SUM(l.qty * 2) AS BIGINT) FROM line l JOIN ord o ON l.okey = o.okey"
            + " JOIN cust ON o.uid = cust.uid WHERE o.prio < 3 GROUP BY o.prio")) {
      while (rs.next()) {
        out.put(rs.getLong(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4)});
      }
    }
    return out;
  }
}
