package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Issue 24: what an aggregate over only NULL values (or no rows) releases, as ZetaSQL defines it.
 * ZetaSQL's specification (its compliance cases for all-NULL inputs with explicit bounds): VAR_POP
 * releases the population variance of the two bounds, ((upper − lower)/2)², and STDDEV_POP its
 * square root; here the reference is that formula evaluated in the test. AVG releases the midpoint
 * of its bounds and SUM and COUNT 0 (the sums of no values); with implicit bounds an empty input
 * gets bounds centred on 0, so AVG releases 0 (as the docs' public-groups example shows for its
 * empty group 'book').
 *
 * <p>False-failure probability: ε = 10^12 makes every noise scale below 10^-6 (exact values
 * after rounding); deterministic with the fixed seed.
 */
class EmptyInputTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static final String P = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12) ";

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u : new long[] {1, 2, 1, 1, 1, 2, 1}) {
      rows.add(Arrays.asList(u, null));
    }
    catalog = SqlTestTables.catalog(db, "nulls", List.of("uid", "x"),
        List.of(ColumnType.INTEGER,
        ColumnType.FLOATING), rows, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static double run(String sql) {
    DpStatement st = DpSql.parse(P + sql, catalog);
    SqlResult r = st.present(Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(3)).build().run(st.query()));
    return ((Estimate) r.rows().get(0).get(0)).value();
  }

  @Test
  void onlyNulls_releaseWhatZetaSqlDefines() {
    assertEquals(Math.pow((100.0 - 10.0) / 2, 2),
        run("VAR_POP(x, contribution_bounds_per_row => (10.0, 100.0)) FROM nulls"), 1e-9);
    assertEquals((3.0 - 2.0) / 2,
        run("STDDEV_POP(x, contribution_bounds_per_row => (2, 3)) FROM nulls"), 1e-9);
    assertEquals(2.5, run("AVG(x, contribution_bounds_per_group => (2, 3)) FROM nulls"), 1e-9);
    assertEquals(0, run("SUM(x, contribution_bounds_per_group => (2, 3)) FROM nulls"), 1e-9);
    assertEquals(0, run("COUNT(x) FROM nulls"), 1e-9);
    assertEquals(0, run("COUNT(*) FROM nulls WHERE uid > 5"), 1e-9);
  }

  @Test
  void onlyNulls_withImplicitBounds_centreTheBoundsOnZero() {
    double avg = run("AVG(x) FROM nulls");
    assertEquals(0, avg, 1e-6);
    double sum = run("SUM(x) FROM nulls");
    assertEquals(0, sum, 1e-6);
    double var = run("VAR_POP(x) FROM nulls");
    assertTrue(var >= 0 && var <= 0x1p-60, "variance of bounds within ±2^-31: " + var);
  }
}
