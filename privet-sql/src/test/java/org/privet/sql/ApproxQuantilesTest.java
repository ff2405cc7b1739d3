package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.SeededRandomSource;

/**
 * {@code APPROX_QUANTILES(x, n)} (issue 24): one cell with the n + 1 quantiles at ranks 0, 1/n, …,
 * 1, from the same quantile tree as the column's PERCENTILE_CONT calls. Reference: the values 1 to
 * 101 (one per unit); the k-th smallest, k = max(1, ⌈r·101⌉), computed here.
 *
 * <p>False-failure probability: ε = 10^12 (noise below 10^-6); the released value lies in the
 * grid cell of the reference (width 128/1024 = 0.125), so within 0.125 of it; deterministic with
 * the fixed seed.
 */
class ApproxQuantilesTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 1; u <= 101; u++) {
      rows.add(Arrays.asList(u, "g", (double) u));
    }
    catalog = SqlTestTables.catalog(db, "t", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static List<Object> run(String select) {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12) "
        + select + " FROM t", catalog);
    return st.present(Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(8)).build().run(st.query())).rows().get(0);
  }

  private static double kth(double rank) {
    return Math.max(1, Math.ceil(rank * 101 - 1e-9));
  }

  @Test
  void approxQuantiles_releasesTheNPlusOneQuantiles() {
    List<Object> row = run("APPROX_QUANTILES(x, 4, contribution_bounds_per_row => (0, 128)) AS q,"
        + " PERCENTILE_CONT(x, 0.5, contribution_bounds_per_row => (0, 128)) AS m");
    List<?> q = (List<?>) row.get(0);
    assertEquals(5, q.size());
    for (int k = 0; k <= 4; k++) {
      double v = ((Estimate) q.get(k)).value();
      assertEquals(kth(k / 4.0), v, 0.125, "quantile " + k + "/4");
    }
    // One tree: the median of PERCENTILE_CONT is the middle element.
    assertEquals(((Estimate) q.get(2)).value(), ((Estimate) row.get(1)).value(), 0);
  }

  @Test
  void approxQuantiles_withImplicitBounds() {
    List<?> q = (List<?>) run("APPROX_QUANTILES(x, 2) AS q").get(0);
    assertEquals(3, q.size());
    // Implicit bounds: [1, 128) (log grid); cells of 127/1024 < 0.125.
    assertEquals(51, ((Estimate) q.get(1)).value(), 0.125);
  }

  @Test
  void approxQuantiles_badIntervals_areRefusedAtTheirPosition() {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse("SELECT WITH"
        + " DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) APPROX_QUANTILES(x, 0) FROM t", catalog));
    assertEquals(76, e.column(), e.getMessage());
    assertTrue(e.reason().contains("number of intervals"), e.getMessage());
  }
}
