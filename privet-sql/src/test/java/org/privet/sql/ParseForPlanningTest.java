package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.AccuracyTargets;
import org.privet.engine.Aggregation;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/** {@link DpSql#parseForPlanning}: statements planned by weight (issue 22, item 4). */
class ParseForPlanningTest {
  private static final DatasetCatalog CATALOG = name -> Optional.of(DatasetDescriptor.builder("t",
      Source.csv(Path.of("t.csv")), new TableSchema(List.of(
          new TableSchema.Column("uid", ColumnType.INTEGER, "BIGINT"),
          new TableSchema.Column("dept", ColumnType.STRING, "VARCHAR"),
          new TableSchema.Column("hours", ColumnType.FLOATING, "DOUBLE"))))
      .privacyUnit("uid").build());
  private static final String NO_BUDGET = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (min_count ="
      + " 500, confidence = 0.9, max_groups_contributed = 1, max_rows_per_group = 2,"
      + " public_groups = ('a', 'b')) dept, COUNT(*) AS n, AVG(hours,"
      + " contribution_bounds_per_row => (0, 100)) AS mean_hours FROM t GROUP BY dept";

  /** What the planner saw, and targets 1 per row of min_count and 1 per unit of the bound. */
  private static final class Recording implements PlannedTargets {
    final List<Aggregation> seen = new ArrayList<>();
    long minCount;
    int lInf;

    @Override
    public Map<String, Double> halfWidths(List<Aggregation> aggregations, long minCount,
        int maxRowsPerGroup) {
      seen.addAll(aggregations);
      this.minCount = minCount;
      this.lInf = maxRowsPerGroup;
      Map<String, Double> out = new LinkedHashMap<>();
      out.put("n", (double) minCount);
      out.put("mean_hours", ((Aggregation.Mean) aggregations.get(1)).upper());
      return out;
    }
  }

  @Test
  void parseForPlanning_noBudgetNoMaxError_takesThePlannersTargets() {
    Recording r = new Recording();
    DpStatement st = DpSql.parseForPlanning(NO_BUDGET, CATALOG, r);
    assertNull(st.query().budget());
    AccuracyTargets t = st.query().targets().orElseThrow();
    assertEquals(500.0, t.halfWidths().get("n"));
    assertEquals(100.0, t.halfWidths().get("mean_hours"));
    assertEquals(0.9, t.confidence());
    assertEquals(500, t.minCount());
    assertEquals(2, r.lInf);
    assertEquals(List.of("n", "mean_hours"), r.seen.stream().map(Aggregation::name).toList());
  }

  /** Without the planner the statement is refused as before; with a budget it is not planned. */
  @Test
  void parse_noBudgetNoMaxError_stillRefusedAndBudgetsNotPlanned() {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(NO_BUDGET, CATALOG));
    assertTrue(e.getMessage().contains("applies only with max_error"), e.getMessage());
    Recording r = new Recording();
    DpStatement st = DpSql.parseForPlanning("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon ="
        + " 1, max_groups_contributed = 1, max_rows_per_group = 1, public_groups = ('a', 'b'))"
        + " dept, COUNT(*) AS n FROM t GROUP BY dept", CATALOG, r);
    assertEquals(1.0, st.query().budget().epsilon());
    assertTrue(r.seen.isEmpty());
  }

  /** The planner's refusal is a positioned SQL error with its message. */
  @Test
  void parseForPlanning_plannerRefuses_positionedError() {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parseForPlanning(NO_BUDGET,
        CATALOG, (a, n, l) -> {
          throw new IllegalArgumentException("needs min_count");
        }));
    assertTrue(e.getMessage().startsWith("line 1, column") && e.getMessage().contains(
        "needs min_count"), e.getMessage());
  }
}
