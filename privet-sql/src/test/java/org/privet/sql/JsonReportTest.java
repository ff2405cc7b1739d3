package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * ZetaSQL's {@code report_format => "JSON"} (issue 24): the cell is a JSON string with the value
 * and its confidence interval (and the estimated bounds for implicit ones). The reference value
 * is the sum computed here from the rows: 40 units with per-unit totals 2·(u mod 6), clamped to
 * [0, 10] per group.
 *
 * <p>False-failure probability: ε = 10^12 (noise below 10^-6); deterministic with the fixed seed.
 */
class JsonReportTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static double clampedSum;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 40; u++) {
      rows.add(Arrays.asList(u, "g", (double) (u % 6)));
      rows.add(Arrays.asList(u, "g", (double) (u % 6)));
      clampedSum += Math.min(10, 2 * (u % 6));
    }
    catalog = SqlTestTables.catalog(db, "t", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows, "uid");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static SqlResult run(String sql) {
    DpStatement st = DpSql.parse(sql, catalog);
    return st.present(Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(4)).build().run(st.query()));
  }

  private static double field(String json, String name) {
    Matcher m = Pattern.compile("\"" + name + "\": (\\{\"float_value\": )?([-0-9.eE]+)")
        .matcher(json);
    assertTrue(m.find(), name + " in " + json);
    return Double.parseDouble(m.group(2));
  }

  @Test
  void jsonReport_holdsTheValueAndItsInterval() {
    SqlResult r = run("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1e12, delta = 0.5)"
        + " SUM(x, contribution_bounds_per_group => (0, 10), report_format => \"JSON\") AS s,"
        + " COUNT(*) AS n FROM t");
    String json = (String) r.rows().get(0).get(0);
    assertEquals(clampedSum, field(json, "float_value"), 1e-6, json);
    assertTrue(field(json, "lower_bound") <= clampedSum + 1e-6, json);
    assertTrue(field(json, "upper_bound") >= clampedSum - 1e-6, json);
    assertEquals(0.95, field(json, "confidence_level"), 1e-9, json);
    assertTrue(r.rows().get(0).get(1) instanceof Estimate, "other columns unchanged");
  }

  @Test
  void jsonReport_withImplicitBounds_reportsTheBounds() {
    SqlResult r = run("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 65536)"
        + " AVG(x, report_format => 'json') AS a FROM t");
    String json = (String) r.rows().get(0).get(0);
    assertTrue(json.contains("\"bounding_report\": {\"lower_bound\": {\"float_value\": "), json);
    assertEquals(r.bounds().get(0).lower(), field(json.substring(json.indexOf("bounding")),
        "lower_bound"), 0, json);
  }

  @Test
  void protoReport_isRefusedNamingTheDifference() {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse("SELECT WITH"
        + " DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(x, report_format => \"PROTO\") FROM t",
        catalog));
    assertEquals(63, e.column(), e.getMessage());
    assertTrue(e.reason().contains("difference from BigQuery"), e.getMessage());
  }
}
