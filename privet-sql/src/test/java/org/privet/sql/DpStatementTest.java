package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.Budget;
import org.privet.engine.ChargeRequest;
import org.privet.engine.Estimate;
import org.privet.engine.Receipt;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/** Post-processing of released results (no engine run: results are built by hand). */
class DpStatementTest {
  private static final DatasetCatalog CATALOG = name -> Optional.of(DatasetDescriptor.builder("t",
      Source.csv(Path.of("t.csv")), new TableSchema(List.of(
          new TableSchema.Column("uid", ColumnType.INTEGER, "BIGINT"),
          new TableSchema.Column("dept", ColumnType.STRING, "VARCHAR"),
          new TableSchema.Column("x", ColumnType.FLOATING, "DOUBLE"))))
      .privacyUnit("uid").build());
  private static final String PREFIX =
      "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) ";

  @Test
  void parse_rhoDeltaWithPrivateGroups_buildsApproximateZcdpBudgetAndThresholding() {
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = 0.5, delta = 1e-6,"
        + " max_groups_contributed = 1) dept, COUNT(*) AS n FROM t GROUP BY dept", CATALOG);
    assertEquals(Budget.zcdp(0.5, 1e-6), st.query().budget());
    assertEquals(org.privet.engine.Thresholding.AUTO, st.query().thresholding());
    DpStatement laplace = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = 0.5,"
        + " delta = 1e-6, max_groups_contributed = 1, group_selection_strategy = LAPLACE_THRESHOLD)"
        + " dept, COUNT(*) AS n FROM t GROUP BY dept", CATALOG);
    assertEquals(org.privet.engine.Thresholding.LAPLACE, laplace.query().thresholding());
    DpStatement gaussian = DpSql.parse(PREFIX.replace("delta = 1e-6", "delta = 1e-6,"
        + " group_selection_strategy = GAUSSIAN_THRESHOLD") + "dept, COUNT(*) AS n FROM t"
        + " GROUP BY dept", CATALOG);
    assertEquals(org.privet.engine.Thresholding.GAUSSIAN, gaussian.query().thresholding());
  }

  @Test
  void parse_optimalAndPostAggregationStrategies_reachTheEngine() {
    for (String[] c : new String[][] {{"OPTIMAL", "OPTIMAL"},
        {"POST_AGGREGATION_THRESHOLD", "POST_AGGREGATION"}, {"SET_UNION", "SET_UNION"}}) {
      DpStatement st = DpSql.parse(PREFIX.replace("delta = 1e-6", "delta = 1e-6,"
          + " group_selection_strategy = " + c[0]) + "dept, COUNT(*) AS n FROM t GROUP BY dept",
          CATALOG);
      assertEquals(org.privet.engine.Thresholding.valueOf(c[1]), st.query().thresholding());
    }
    DpSqlException e = org.junit.jupiter.api.Assertions.assertThrows(DpSqlException.class,
        () -> DpSql.parse(PREFIX.replace("delta = 1e-6", "delta = 1e-6,"
            + " group_selection_strategy = MAGIC") + "dept, COUNT(*) AS n FROM t GROUP BY dept",
            CATALOG));
    assertTrue(e.getMessage().contains("OPTIMAL"), e.getMessage());
  }

  @Test
  void parse_rhoWithoutDeltaAndPrivateGroups_isRefusedNamingDelta() {
    DpSqlException e = org.junit.jupiter.api.Assertions.assertThrows(DpSqlException.class,
        () -> DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (rho = 0.5) dept, COUNT(*) AS n"
            + " FROM t GROUP BY dept", CATALOG));
    assertTrue(e.getMessage().contains("delta"), e.getMessage());
  }

  @Test
  void present_orderByNoisyValueDescThenLimit_keepsTopRowsInSelectOrder() {
    DpStatement st = DpSql.parse(PREFIX + "COUNT(*) AS n, dept FROM t GROUP BY dept ORDER BY n DESC LIMIT 2", CATALOG);
    SqlResult r = st.present(result(st, row("a", 5), row("b", 9), row("c", 7)));
    assertEquals(List.of("n", "dept"), r.columnNames());
    assertEquals(List.of("b", "c"), column(r, 1));
    assertEquals(9.0, ((Estimate) r.rows().get(0).get(0)).value());
  }

  @Test
  void present_orderByKeyWithNull_nullsLastByDefaultAndFirstOnRequest() {
    DpStatement last = DpSql.parse(PREFIX + "dept, COUNT(*) AS n FROM t GROUP BY dept ORDER BY dept", CATALOG);
    assertEquals(Arrays.asList("a", "b", null), column(last.present(result(last, row(null, 1), row("b", 2), row("a", 3))), 0));
    DpStatement first = DpSql.parse(PREFIX + "dept, COUNT(*) AS n FROM t GROUP BY dept ORDER BY dept DESC NULLS FIRST", CATALOG);
    assertEquals(Arrays.asList(null, "b", "a"), column(first.present(result(first, row("a", 3), row(null, 1), row("b", 2))), 0));
  }

  @Test
  void present_offsetBeyondRows_returnsNoRows() {
    DpStatement st = DpSql.parse(PREFIX + "dept, COUNT(*) AS n FROM t GROUP BY dept LIMIT 5 OFFSET 10", CATALOG);
    assertTrue(st.present(result(st, row("a", 1), row("b", 2))).rows().isEmpty());
  }

  @Test
  void present_sameCallTwice_sharesOneEngineOutput() {
    DpStatement st = DpSql.parse(PREFIX + "dept, SUM(x, contribution_bounds_per_row => (0, 1)) AS s1, "
        + "SUM(x, contribution_bounds_per_row => (0, 1)) AS s2 FROM t GROUP BY dept", CATALOG);
    assertEquals(1, st.query().aggregations().size());
    assertEquals(st.columns().get(1).engineOutput(), st.columns().get(2).engineOutput());
  }

  @Test
  void explain_apiFlag_marksStatementWithoutChangingQuery() {
    DpStatement st = DpSql.parse(PREFIX + "COUNT(*) AS n FROM t", CATALOG);
    assertFalse(st.explain());
    DpStatement ex = DpSql.explain(PREFIX + "COUNT(*) AS n FROM t", CATALOG);
    assertTrue(ex.explain());
    assertSame(ex, ex.asExplain());
    assertEquals(st.query().toString(), ex.query().toString());
  }

  @Test
  void parse_crlfAndTabsBeforeJsqlParserError_positionCountsUserText() {
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY\r\n\tOPTIONS (epsilon = 1)\r\n\tCOUNT(*),\tx\r\nFROM t";
    DpSqlException e = org.junit.jupiter.api.Assertions.assertThrows(DpSqlException.class,
        () -> DpSql.parse(sql, CATALOG));
    assertEquals(3, e.line());
    assertEquals(12, e.column());
    assertTrue(e.reason().contains("'x'"), e.getMessage());
  }

  private static Object[] row(String key, double n) {
    return new Object[] {key, n};
  }

  /** An engine result with one key column and the statement's (single) aggregate output. */
  private static Result result(DpStatement st, Object[]... rows) {
    String output = st.columns().stream().filter(OutputColumn::isAggregate).findFirst().orElseThrow()
        .engineOutput();
    List<ResultRow> out = new ArrayList<>();
    for (Object[] r : rows) {
      Map<String, Estimate> values = new LinkedHashMap<>();
      double v = (Double) r[1];
      values.put(output, new Estimate(v, v - 1, v + 1, 0.95));
      out.add(new ResultRow(Arrays.asList(r[0]), values));
    }
    ChargeRequest charge = new ChargeRequest("q", "test", List.of(), new ApproxDp(1, 1e-6), 0);
    return new Result(List.of("dept"), List.of(output), out, new Receipt(charge, Budget.approx(1, 1e-6)));
  }

  private static List<Object> column(SqlResult r, int c) {
    List<Object> out = new ArrayList<>();
    r.rows().forEach(row -> out.add(row.get(c)));
    return out;
  }
}
