package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/**
 * Issue 10: DP SQL refuses, before anything is charged and with the SQL position, what would
 * otherwise fail after the charge depending on the data.
 */
class HostileSqlTest {
  private static final DatasetCatalog CATALOG = name -> Optional.of(DatasetDescriptor.builder("t",
      Source.csv(Path.of("t.csv")), new TableSchema(List.of(
          new TableSchema.Column("uid", ColumnType.INTEGER, "BIGINT"),
          new TableSchema.Column("dept", ColumnType.STRING, "VARCHAR"),
          new TableSchema.Column("x", ColumnType.FLOATING, "DOUBLE"),
          new TableSchema.Column("d", ColumnType.DATE, "DATE"),
          new TableSchema.Column("ts", ColumnType.TIMESTAMP, "TIMESTAMP"),
          new TableSchema.Column("blob", ColumnType.OTHER, "BLOB"))))
      .privacyUnit("uid").build());
  private static final String PREFIX =
      "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) ";

  private static DpSqlException refused(String sql) {
    return assertThrows(DpSqlException.class, () -> DpSql.parse(sql, CATALOG));
  }

  @Test
  void percentileCont_boundsTooCloseForTheGrid_refusedAtTheCall() {
    String sql = PREFIX + "PERCENTILE_CONT(x, 0.5, contribution_bounds_per_row => (0, 1e-306)) AS p"
        + " FROM t";
    DpSqlException e = refused(sql);
    assertEquals(1, e.line());
    assertEquals(PREFIX.length() + 1, e.column(), e.getMessage());
    assertTrue(e.reason().contains("too close"), e.getMessage());
  }

  @Test
  void where_dateLiteralThatIsNoDate_refusedAtTheLiteral() {
    String where = "FROM t WHERE uid = 17 AND d = ";
    DpSqlException e = refused(PREFIX + "COUNT(*) AS n " + where + "'not-a-date'");
    assertEquals((PREFIX + "COUNT(*) AS n " + where).length() + 1, e.column(), e.getMessage());
    assertTrue(e.reason().contains("not a date"), e.getMessage());
    assertTrue(!e.getMessage().contains("not-a-date"), "the message names no literal value");
  }

  @Test
  void where_dateInListAndBetween_eachLiteralChecked() {
    DpSqlException in = refused(PREFIX + "COUNT(*) AS n FROM t WHERE d IN ('2020-01-01', 'x')");
    assertTrue(in.reason().contains("not a date"), in.getMessage());
    DpSqlException between = refused(PREFIX + "COUNT(*) AS n FROM t WHERE ts BETWEEN "
        + "'2020-01-01' AND '2020-02-30 10:00'");
    assertTrue(between.reason().contains("not a timestamp"), between.getMessage());
  }

  @Test
  void where_columnOfAnUnsupportedType_takesNoLiteral() {
    DpSqlException e = refused(PREFIX + "COUNT(*) AS n FROM t WHERE blob = 'abc'");
    assertTrue(e.reason().contains("only IS NULL"), e.getMessage());
  }

  /**
   * Issue 24, the private L∞ estimate: on neighbouring tables (D, and D plus a victim unit with 600
   * rows over 6 groups) every statement is refused alike (same message), explained alike (same
   * EXPLAIN text, differences and charge) and released with the same shape (columns, groups
   * when public or none, an estimated L∞ present); only the noisy values may differ.
   */
  @Test
  void rowsEstimate_victimWithManyRows_sameRefusalsExplainAndShape() {
    List<List<?>> base = new java.util.ArrayList<>();
    for (long u = 0; u < 40; u++) {
      for (int r = 0; r <= u % 3; r++) {
        base.add(java.util.Arrays.asList(u, "d" + ((u + r) % 3), 1.0 + r));
      }
    }
    List<List<?>> plus = new java.util.ArrayList<>(base);
    for (int r = 0; r < 600; r++) {
      plus.add(java.util.Arrays.asList(17_000L, "d" + (r % 6), 1e6));
    }
    String[] sqls = {
        PREFIX + "COUNT(*) AS n FROM t",
        PREFIX + "SUM(x) AS s, VAR_POP(x) AS v, PERCENTILE_CONT(x, 0.5) AS p FROM t",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6,"
            + " max_groups_contributed = 2) dept, COUNT(*) AS n FROM t GROUP BY dept",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, public_groups = ('d0', 'd1', 'zz'),"
            + " auto_bounds_share = 0.3) dept, COUNT(*) AS n, SUM(x) AS s FROM t GROUP BY dept",
        PREFIX + "COUNT(*) AS n, AVG(x) AS m FROM t",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, auto_bounds_share = 0.95)"
            + " COUNT(*) AS n FROM t",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, auto_bounds_share = 0.2)"
            + " COUNT(DISTINCT uid) AS n FROM t",
        // A lone SUM: the estimate reads the pairs' values (the victim's are 10^6 per row).
        PREFIX + "SUM(x, contribution_bounds_per_row => (0, 10)) AS s FROM t",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6,"
            + " max_groups_contributed = 2) dept, SUM(x, contribution_bounds_per_row => (-5, 1e6)) AS s FROM t GROUP BY dept"};
    List<String> a = observe(base, sqls);
    List<String> b = observe(plus, sqls);
    assertEquals(a, b);
    assertTrue(a.get(7).contains("row-equivalents"), a.get(7));
    assertTrue(a.get(8).contains("row-equivalents"), a.get(8));
    assertTrue(a.get(0).contains("L∞ (max rows per unit per group) estimated privately"), a.get(0));
    assertTrue(a.get(5).startsWith("refused"), a.get(5));
    assertTrue(a.get(6).startsWith("refused"), a.get(6));
  }

  private static List<String> observe(List<List<?>> rows, String[] sqls) {
    List<String> out = new java.util.ArrayList<>();
    try (org.privet.engine.duckdb.DuckDbBackend db =
        org.privet.engine.duckdb.DuckDbBackend.inMemory()) {
      DatasetCatalog catalog = SqlTestTables.catalog(db, "t", List.of("uid", "dept", "x"),
          List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows, "uid");
      for (String sql : sqls) {
        DpStatement st;
        try {
          st = DpSql.parse(sql, catalog);
        } catch (DpSqlException e) {
          out.add("refused " + e.getMessage());
          continue;
        }
        org.privet.engine.Session session = org.privet.engine.Session.builder().backend(db)
            .budgetCharger(org.privet.engine.BudgetCharger.unlimited())
            .randomSource(new org.privet.testing.SeededRandomSource(5)).build();
        String explain = session.explain(st.query()).toString() + st.differences();
        SqlResult r = st.present(session.run(st.query()));
        boolean privateGroups = st.query().usesPrivatePartitionSelection();
        out.add(explain + " | columns " + r.columnNames() + " | rows "
            + (privateGroups ? "private" : r.rows().size()) + " | L∞ estimated "
            + (r.estimatedMaxRowsPerGroup() > 0) + " | charge " + r.receipt());
      }
    }
    return out;
  }

  @Test
  void where_validDateAndOutOfRangeInteger_accepted() {
    DpSql.parse(PREFIX + "COUNT(*) AS n FROM t WHERE d >= '2020-01-01' AND uid < 1e30"
        + " AND ts < '2021-01-01 10:00:00.5'", CATALOG);
  }
}
