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
          new TableSchema.Column("x", ColumnType.FLOATING, "DOUBLE"))))
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
}
