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

  @Test
  void where_validDateAndOutOfRangeInteger_accepted() {
    DpSql.parse(PREFIX + "COUNT(*) AS n FROM t WHERE d >= '2020-01-01' AND uid < 1e30"
        + " AND ts < '2021-01-01 10:00:00.5'", CATALOG);
  }
}
