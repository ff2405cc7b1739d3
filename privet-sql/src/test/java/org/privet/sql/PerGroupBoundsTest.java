package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Plan;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.SeededRandomSource;

/**
 * {@code contribution_bounds_per_group} with several rows per unit per group: BigQuery's semantics
 * (each unit's aggregate in the group is clamped), checked against hand computations.
 */
class PerGroupBoundsTest {
  private DuckDbBackend db;
  private DatasetCatalog catalog;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    // Group a: unit 1 has 5 rows of 10 (total 50, mean 10); unit 2 has 2 rows of 3 (total 6,
    // mean 3); unit 3 has rows 40 and −30 (total 10, mean 5).
    for (int r = 0; r < 5; r++) {
      rows.add(Arrays.asList(1L, "a", 10.0));
    }
    rows.add(Arrays.asList(2L, "a", 3.0));
    rows.add(Arrays.asList(2L, "a", 3.0));
    rows.add(Arrays.asList(3L, "a", 40.0));
    rows.add(Arrays.asList(3L, "a", -30.0));
    db.registerTable("t", List.of("uid", "dept", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows);
    Source src = Source.table("t");
    DatasetDescriptor d = DatasetDescriptor.builder("t", src, db.describe(src))
        .privacyUnit("uid").build();
    catalog = name -> name.equalsIgnoreCase("t") ? Optional.of(d) : Optional.empty();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Session session() {
    return Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(5)).build();
  }

  private static final String PREFIX = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
      + " public_groups = ('a')) dept, ";

  @Test
  void sum_perGroupBounds_clampEachUnitsWholeTotal() {
    DpStatement st = DpSql.parse(PREFIX + "SUM(x, contribution_bounds_per_group => (0, 25)) AS s"
        + " FROM t GROUP BY dept", catalog);
    // Unit totals 50, 6, 10 → clamped to [0, 25]: 25 + 6 + 10 (noise scale 25/10^6).
    Estimate s = (Estimate) st.present(session().run(st.query())).rows().get(0).get(1);
    assertEquals(41, s.value(), 0.01);
    // Per-group sensitivity is the group bound, not L∞ × a row bound.
    Plan p = session().explain(st.query());
    assertEquals(25, p.mechanisms().get(0).sensitivity(), 1e-9);
  }

  @Test
  void sum_perGroupBounds_holdWithSeveralRowsPerGroup() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
        + " public_groups = ('a'), max_rows_per_group = 3) dept, COUNT(*) AS n,"
        + " SUM(x, contribution_bounds_per_group => (0, 25)) AS s FROM t GROUP BY dept", catalog);
    List<Object> row = st.present(session().run(st.query())).rows().get(0);
    assertEquals(3 + 2 + 2, ((Estimate) row.get(1)).value(), 0.01);
    assertEquals(41, ((Estimate) row.get(2)).value(), 0.01);
  }

  @Test
  void avg_perGroupBounds_isTheMeanOfClampedUnitMeans() {
    DpStatement st = DpSql.parse(PREFIX + "AVG(x, contribution_bounds_per_group => (0, 8)) AS m"
        + " FROM t GROUP BY dept", catalog);
    // Unit means 10, 3, 5 → clamped to [0, 8]: (8 + 3 + 5) / 3.
    Estimate m = (Estimate) st.present(session().run(st.query())).rows().get(0).get(1);
    assertEquals(16.0 / 3, m.value(), 0.01);
    // The sum is centred at the bounds' midpoint: sensitivity (8 − 0)/2.
    Plan p = session().explain(st.query());
    assertEquals(4, p.mechanisms().get(0).sensitivity(), 1e-6);
    assertTrue(p.mechanisms().get(0).cost().purpose().contains("centred"));
  }
}
