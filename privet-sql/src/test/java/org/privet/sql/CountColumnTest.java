package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.SeededRandomSource;

/**
 * {@code COUNT(column)} beside aggregates of other columns (issue 24): ZetaSQL counts the non-NULL
 * values of the column while the other aggregates see every row. The reference is computed here
 * from the rows (NULLs and NaN skipped, at most L∞ values per unit).
 *
 * <p>False-failure probability: ε = 10^12 (noise scales below 10^-6, exact after rounding);
 * deterministic with the fixed seed.
 */
class CountColumnTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static final List<List<?>> ROWS = new ArrayList<>();

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    for (long u = 0; u < 30; u++) {
      for (int r = 0; r < 1 + u % 3; r++) { // 1 to 3 rows per unit
        Double y = (u + r) % 4 == 0 ? null : (u + r) % 7 == 0 ? Double.NaN : (double) r;
        ROWS.add(Arrays.asList(u, (double) (u % 5), y));
      }
    }
    catalog = SqlTestTables.catalog(db, "t", List.of("uid", "x", "y"),
        List.of(ColumnType.INTEGER, ColumnType.FLOATING, ColumnType.FLOATING), ROWS, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  @Test
  void countColumn_besideSumOfAnother_countsItsNonNullValues() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12,"
        + " max_rows_per_group = 3) COUNT(y) AS c, SUM(x, contribution_bounds_per_row => (0, 4))"
        + " AS s, COUNT(*) AS n FROM t", catalog);
    SqlResult r = st.present(Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(2)).build().run(st.query()));
    long nonNull = ROWS.stream().filter(row -> row.get(2) != null
        && !Double.isNaN((Double) row.get(2))).count();
    double sum = ROWS.stream().mapToDouble(row -> (Double) row.get(1)).sum();
    assertEquals(nonNull, ((Estimate) r.rows().get(0).get(0)).value(), 1e-9);
    assertEquals(sum, ((Estimate) r.rows().get(0).get(1)).value(), 1e-6);
    assertEquals(ROWS.size(), ((Estimate) r.rows().get(0).get(2)).value(), 1e-9);
    assertTrue(nonNull < ROWS.size(), "the table has NULLs in y");
  }

  @Test
  void countColumn_ofANonNumericColumnBesideOthers_isRefusedAtItsPosition() {
    db.registerTable("s", List.of("uid", "x", "name"),
        List.of(ColumnType.INTEGER, ColumnType.FLOATING, ColumnType.STRING),
        List.of(Arrays.asList(1L, 1.0, "a")));
    Source src = Source.table("s");
    DatasetDescriptor d = DatasetDescriptor.builder("s", src, db.describe(src))
        .privacyUnit("uid").build();
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(x) AS s, COUNT(name) AS c"
            + " FROM s", name -> Optional.of(d)));
    assertEquals(69, e.column(), e.getMessage());
    assertTrue(e.reason().contains("non-numeric"), e.getMessage());
  }
}
