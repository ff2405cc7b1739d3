package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.Aggregation;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.Measure;
import org.privet.testing.SeededRandomSource;

/**
 * DuckDB's shared rows ({@link DuckDbBackend#sharingRows}): the temporary table exists only while
 * its view is open and after its first spec, a query's passes leave none behind, and a failure on
 * the view reads exactly as the backend's own failure for the same spec (no driver message).
 * (That the view's aggregates are the backend's is the contract kit's case.)
 */
class DuckDbSharedRowsTest {
  private static long temporaryTables(DuckDbBackend db) throws SQLException {
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM duckdb_tables() WHERE temporary")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static DuckDbBackend withTable() {
    DuckDbBackend db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long i = 0; i < 200; i++) {
      rows.add(List.of(i % 37, "g" + i % 5, (double) (i % 11)));
    }
    db.registerTable("t", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows);
    return db;
  }

  private static BoundedAggregation spec(int lInf) {
    return new BoundedAggregation(Source.table("t"), Optional.empty(), Optional.of("uid"),
        List.of("g"), Optional.empty(), 2, lInf, 5,
        List.of(new Measure.FixedPointSum("x", 0, 10, 0, 0, false)));
  }

  /** Counts only: the passes share their pairs. */
  private static BoundedAggregation count(int lInf) {
    return new BoundedAggregation(Source.table("t"), Optional.empty(), Optional.of("uid"),
        List.of("g"), Optional.empty(), 2, lInf, 5, List.of());
  }

  @Test
  void sharingRows_tableOnlyWhileTheViewIsOpen_droppedOnClose() throws SQLException {
    try (DuckDbBackend db = withTable()) {
      for (java.util.function.IntFunction<BoundedAggregation> pass
          : List.<java.util.function.IntFunction<BoundedAggregation>>of(
              DuckDbSharedRowsTest::spec, DuckDbSharedRowsTest::count)) {
        try (Backend view = db.sharingRows(List.of(pass.apply(1), pass.apply(4)))) {
          assertEquals(0, temporaryTables(db), "nothing made before the first spec");
          view.aggregate(pass.apply(1), g -> { });
          view.aggregate(pass.apply(4), g -> { });
          assertEquals(1, temporaryTables(db), "one table for the query's passes");
        }
        assertEquals(0, temporaryTables(db), "dropped on close");
        db.aggregate(pass.apply(4), g -> { }); // the backend stays open
      }
    }
  }

  @Test
  void sessionRun_estimatedLinf_leavesNoTemporaryTable() throws SQLException {
    try (DuckDbBackend db = withTable()) {
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(new SeededRandomSource(7)).build();
      Query q = Query.from(Source.table("t")).privacyUnit("uid").groupBy("g").maxGroupsContributed(2)
          .publicGroups(List.of(List.of("g0"), List.of("g1")))
          .aggregate(new Aggregation.Count("n")).epsilon(1.0).estimateMaxRowsPerGroup().build();
      assertEquals(2, session.run(q).rows().size());
      assertEquals(0, temporaryTables(db));
    }
  }

  @Test
  void sharingRows_sourceGoneAfterTheView_failsAsTheBackendDoes() {
    try (DuckDbBackend db = withTable()) {
      Backend view = db.sharingRows(List.of(spec(1), spec(4)));
      db.execute("DROP TABLE t");
      RuntimeException direct = assertThrows(RuntimeException.class,
          () -> db.aggregate(spec(1), g -> { }));
      RuntimeException shared = assertThrows(RuntimeException.class,
          () -> view.aggregate(spec(1), g -> { }));
      assertEquals(direct.getClass(), shared.getClass());
      assertEquals(direct.getMessage(), shared.getMessage());
      view.close();
    }
  }

  /** The temporary table's column names, in order. */
  private static List<String> temporaryColumns(DuckDbBackend db) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery("SELECT column_name FROM duckdb_columns() WHERE database_name = 'temp'"
            + " ORDER BY column_index")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  @Test
  void sharingRows_loneSumPasses_shareThePairsNotTheRows() throws SQLException {
    try (DuckDbBackend db = withTable()) {
      java.util.function.BiFunction<Measure, Integer, BoundedAggregation> pass = (m, lInf) ->
          new BoundedAggregation(Source.table("t"), Optional.empty(), Optional.of("uid"),
              List.of("g"), Optional.empty(), 2, lInf, 5, List.of(m));
      BoundedAggregation estimate = pass.apply(new Measure.PairValues("x", 0, 10, 0, 20), 1);
      BoundedAggregation main = pass.apply(new Measure.FixedPointSum("x", 0, 10, 0, 0, false,
          new Measure.PairClamp(0, 40, true)), 4);
      try (Backend view = db.sharingRows(List.of(estimate, main))) {
        view.aggregate(estimate, g -> { });
        view.aggregate(main, g -> { });
        assertEquals(List.of("__u", "__g0", "__n", "__s0", "__c0"), temporaryColumns(db),
            "(unit, group) pairs with their value sum and count");
        String table;
        try (Statement st = db.trustedConnection().createStatement();
            ResultSet rs = st.executeQuery("SELECT table_name FROM duckdb_tables() WHERE temporary")) {
          rs.next();
          table = rs.getString(1);
        }
        try (Statement st = db.trustedConnection().createStatement();
            ResultSet rs = st.executeQuery("SELECT (SELECT COUNT(*) FROM temp.main.\"" + table
                + "\"), (SELECT COUNT(*) FROM (SELECT DISTINCT uid, g FROM t))")) {
          rs.next();
          assertEquals(rs.getLong(2), rs.getLong(1), "one row per (unit, group) pair");
        }
      }
      assertEquals(0, temporaryTables(db));
    }
  }
}
