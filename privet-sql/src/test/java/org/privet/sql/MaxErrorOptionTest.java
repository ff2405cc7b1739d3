package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.AccuracyTargets;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/** {@code max_error}, {@code confidence} and {@code min_count} (issue 16, item 1). */
class MaxErrorOptionTest {
  private static final DatasetCatalog CATALOG = name -> Optional.of(DatasetDescriptor.builder("t",
      Source.csv(Path.of("t.csv")), new TableSchema(List.of(
          new TableSchema.Column("uid", ColumnType.INTEGER, "BIGINT"),
          new TableSchema.Column("dept", ColumnType.STRING, "VARCHAR"),
          new TableSchema.Column("hours", ColumnType.FLOATING, "DOUBLE"))))
      .privacyUnit("uid").build());
  private static final String BODY = " dept, COUNT(*) AS n, AVG(hours, contribution_bounds_per_row"
      + " => (0, 100)) AS mean_hours FROM t GROUP BY dept";

  @Test
  void parse_maxError_setsTargetsAndNoBudget() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => 50,"
        + " mean_hours => 0.5), confidence = 0.9, min_count = 100, delta = 1e-6,"
        + " max_groups_contributed = 1, max_rows_per_group = 1)" + BODY, CATALOG);
    assertNull(st.query().budget());
    AccuracyTargets t = st.query().targets().orElseThrow();
    assertEquals(50.0, t.halfWidths().get("n"));
    assertEquals(0.5, t.halfWidths().get("mean_hours"));
    assertEquals(0.9, t.confidence());
    assertEquals(100, t.minCount());
    assertEquals(1e-6, t.delta());
  }

  @Test
  void parse_maxErrorWithEpsilon_refusedAtMaxError() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, max_error ="
        + " (n => 50, mean_hours => 0.5))" + BODY;
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, CATALOG));
    assertTrue(e.getMessage().contains("give max_error or epsilon"), e.getMessage());
  }

  @Test
  void parse_maxErrorMissingAnOutput_refused() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (delta = 1e-6, max_error = (n => 50))"
        + BODY;
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, CATALOG));
    assertTrue(e.getMessage().contains("no target for output column 'mean_hours'"),
        e.getMessage());
  }

  @Test
  void parse_maxErrorUnknownOutputOrBadValue_refused() {
    DpSqlException unknown = assertThrows(DpSqlException.class, () -> DpSql.parse(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (delta = 1e-6, max_error = (n => 50, mean_hours"
            + " => 1, x => 2))" + BODY, CATALOG));
    assertTrue(unknown.getMessage().contains("'x', which is not an output column"),
        unknown.getMessage());
    DpSqlException negative = assertThrows(DpSqlException.class, () -> DpSql.parse(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (delta = 1e-6, max_error = (n => -5, mean_hours"
            + " => 1))" + BODY, CATALOG));
    assertTrue(negative.getMessage().contains("must be a finite number > 0"),
        negative.getMessage());
    DpSqlException orphan = assertThrows(DpSqlException.class, () -> DpSql.parse(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, confidence = 0.9)"
            + BODY, CATALOG));
    assertTrue(orphan.getMessage().contains("applies only with max_error"), orphan.getMessage());
  }

  @Test
  void parse_groupByWithoutDelta_refused() {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (max_error = (n => 50, mean_hours => 1))" + BODY,
        CATALOG));
    assertTrue(e.getMessage().contains("delta"), e.getMessage());
  }
}
