package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.AutoBounds;
import org.privet.engine.ChargeRequest;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * {@code contribution_bounds_per_row => AUTO} on UCI Adult (32 561 rows, one per unit): the
 * estimated bounds bracket most of each column, the answers are accurate, {@code
 * auto_bounds_share} sets the share, and misuses are refused at their SQL position before
 * anything runs.
 *
 * <p>False-failure probability (fixed seed, so deterministic; over seeds): at ε = 20 the bounds
 * trees get ε = 1 each (two columns; log grid: Δ₁ = 3, per-node Laplace scale 3, 95% band 76
 * rows; linear grid: Δ₁ = 4, 4 levels). The assertions leave margins of at least 300 rows (hours:
 * 20 rows below 2 and 31 481 below 64 against the 1% = 326 and 99% = 32 235 ranks; age: 945 rows
 * below 19 and 31 225 below 65) to the noisy CDF, which stays within the band plus the raw prefix
 * error at the deciding edge; a raw error above 220 rows for a sum of ≤ 25 Laplace(4) noises has
 * probability below 1e-7 (Chernoff bound): below 1e-6 in all.
 */
class AutoBoundsSqlTest {
  private static DuckDbBackend db;
  private static AdultFixture adult;

  @BeforeAll
  static void open() {
    db = DuckDbBackend.inMemory();
    adult = new AdultFixture(db);
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Session session(List<ChargeRequest> charges) {
    return Session.builder().backend(db).budgetCharger(charges::add)
        .randomSource(new SeededRandomSource(17)).build();
  }

  private static double exactMean(String column) {
    int i = adult.index.get(column);
    return adult.rows.stream().filter(r -> r[i] != null)
        .mapToDouble(r -> ((Number) r[i]).doubleValue()).average().orElseThrow();
  }

  @Test
  void auto_onAdult_bracketsTheColumnsAndTheMeansAreAccurate() {
    List<ChargeRequest> charges = new ArrayList<>();
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 20)"
        + " AVG(hours_per_week, contribution_bounds_per_row => AUTO) AS hours,"
        + " AVG(age, contribution_bounds_per_row => AUTO) AS age, COUNT(*) AS n FROM adult",
        adult.catalog);
    SqlResult r = st.present(session(charges).run(st.query()));
    assertEquals(1, charges.size());
    assertEquals(2, r.bounds().size());
    AutoBounds.Estimated hours = r.bounds().get(0);
    assertEquals("hours", hours.output());
    assertEquals("hours_per_week", hours.column());
    // Hours: p1 = 8, p99 = 80: log-grid cells [8, 16) and [64, 128), one cell of slack.
    assertTrue(hours.lower() >= 1 && hours.lower() <= 8, "lower " + hours.lower());
    assertTrue(hours.upper() >= 80 && hours.upper() <= 256, "upper " + hours.upper());
    // Age has public bounds [17, 90]: a linear grid over them (p1 = 17, p99 = 74).
    AutoBounds.Estimated age = r.bounds().get(1);
    assertTrue(age.lower() >= 17 && age.lower() <= 19, "lower " + age.lower());
    assertTrue(age.upper() >= 65 && age.upper() <= 90, "upper " + age.upper());
    List<Object> row = r.rows().get(0);
    assertEquals(exactMean("hours_per_week"), ((Estimate) row.get(0)).value(), 1.0);
    assertEquals(exactMean("age"), ((Estimate) row.get(1)).value(), 1.0);
  }

  @Test
  void autoBoundsShare_setsTheShareOnTheReceipt() {
    List<ChargeRequest> charges = new ArrayList<>();
    DpStatement st = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1,"
        + " auto_bounds_share = 0.3) SUM(capital_gain, contribution_bounds_per_row => AUTO) AS g"
        + " FROM adult", adult.catalog);
    session(charges).run(st.query());
    // The share applies to each estimate: L∞ (no row bound given) takes 0.3 of the budget, the
    // value bounds 0.3 of the rest (issue 24, docs/sql.md "Default contribution").
    assertEquals(0.3, charges.get(0).mechanisms().get(0).share(), 1e-12);
    assertTrue(charges.get(0).mechanisms().get(0).shareReason().contains("L∞ estimate"));
    assertEquals(0.7 * 0.3, charges.get(0).mechanisms().get(1).share(), 1e-12);
    assertTrue(charges.get(0).mechanisms().get(1).shareReason().contains("AUTO bounds"));
  }

  @Test
  void misuse_isRefusedAtItsPosition() {
    String p = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) ";
    refused(p + "COUNT(*, contribution_bounds_per_group => AUTO) AS n FROM adult",
        "AUTO applies only to contribution_bounds_per_row");
    refused(p + "SUM(age, contribution_bounds_per_group => AUTO) AS s FROM adult",
        "AUTO applies only to contribution_bounds_per_row");
    refused(p + "PERCENTILE_CONT(age, 0.5, contribution_bounds_per_group => AUTO) AS m FROM"
        + " adult", "AUTO applies only to contribution_bounds_per_row");
    refused(p + "SUM(age, contribution_bounds_per_row => AUTOMATIC) AS s FROM adult",
        "expected '(lower, upper)'");
    refused(p.replace("epsilon = 1", "epsilon = 1, auto_bounds_share = 0.95")
        + "SUM(age, contribution_bounds_per_row => AUTO) AS s FROM adult", "auto_bounds_share");
    refused(p.replace("epsilon = 1", "epsilon = 1, auto_bounds_share = 0")
        + "SUM(age, contribution_bounds_per_row => AUTO) AS s FROM adult", "auto_bounds_share");
    refused(p.replace("epsilon = 1", "epsilon = 1, max_rows_per_group = 1, auto_bounds_share = 0.2")
        + "SUM(age, contribution_bounds_per_row => (0, 10)) AS s FROM adult",
        "no aggregate has contribution_bounds_per_row => AUTO");
  }

  private static void refused(String sql, String message) {
    DpSqlException e = assertThrows(DpSqlException.class, () -> DpSql.parse(sql, adult.catalog));
    assertTrue(e.getMessage().contains(message), e.getMessage());
    assertTrue(e.line() >= 1 && e.column() >= 1);
  }
}
