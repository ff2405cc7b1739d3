package org.privet.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * Conformance with BigQuery's own DP pages (issue 24), beside {@link ZetaSqlDocExamplesTest}: the
 * example queries of "GoogleSQL for BigQuery" that differ from ZetaSQL's text, re-typed here as
 * written (with their {@code --} comment lines and {@code ;}), on the docs' tables ({@link
 * DocExampleTables}), at a huge ε, each compared with its documented result or documented
 * semantics, or refused with its line, column and the feature.
 *
 * <p>Sources (public text): BigQuery "Use differential privacy" (the table form with {@code
 * privacy_unit_column} in OPTIONS and {@code max_groups_contributed=2}, the COUNT of a column
 * with per-group bounds; quoted verbatim as BigQuery input by Snowflake's SnowConvert
 * documentation, issue SSC-EWI-BQ0003); BigQuery "Differentially private aggregate functions"
 * (every function on the table {@code professors} with {@code privacy_unit_column=id}, the
 * comments {@code -- With noise, using the epsilon parameter.} and {@code -- Without noise, using
 * the epsilon parameter.}); BigQuery "Use differential privacy", "Define a privacy unit column"
 * (the newer text with {@code epsilon=1.09, delta=1e-5} and a bare {@code COUNT(*)}) and
 * "Performance implications" ({@code epsilon=1, delta=1e-10}); BigQuery's {@code
 * AGGREGATION_THRESHOLD} clause (a BigQuery-only form, refused by name).
 *
 * <p>Privacy unit: BigQuery lets {@code privacy_unit_column} name any column; Privet accepts it
 * only when it names the dataset's registered unit (the analyst never picks the unit) and
 * refuses any other column by name, before any charge.
 *
 * <p>Comparison as in {@link ZetaSqlDocExamplesTest}: ε = 10 and the docs' "without noise" ε =
 * 10^20 are typed as ε = 10^12 (Privet caps ε at 2^40, a documented difference); {@code
 * max_groups_contributed=1} admits any of the four choices of groups for the units 101 and 123
 * (the docs print results no choice produces); a one-unit group (scissors) may be withheld by any
 * (ε, δ)-DP selection. False-failure probability: noise scales below 10^-11 at ε = 10^12, so every
 * released value equals its exact value; the seed is fixed.
 */
class BigQueryDocExamplesTest {
  private static DuckDbBackend db;
  private static DatasetCatalog catalog;
  private static final Conformance CONFORMANCE = new Conformance("BigQuery");

  @BeforeAll
  static void tables() {
    db = DuckDbBackend.inMemory();
    catalog = DocExampleTables.register(db);
  }

  @AfterAll
  static void close() {
    db.close();
    System.out.println(CONFORMANCE.report());
  }

  private static String typed(String docText) {
    return docText.replace("epsilon=10,", "epsilon=1e12,").replace("epsilon=1e20,",
        "epsilon=1e12,").replace("epsilon=1.09,", "epsilon=1e12,").replace("epsilon=1,",
        "epsilon=1e12,");
  }

  private static Map<String, Double> run(String docText) {
    Map<String, Double> out = runUncounted(docText);
    CONFORMANCE.answered();
    return out;
  }

  /** A query that is not a documented example (a check of semantics): not tallied. */
  private static Map<String, Double> runUncounted(String docText) {
    DpStatement st = DpSql.parse(typed(docText), catalog);
    SqlResult r = st.present(Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(25)).build().run(st.query()));
    Map<String, Double> out = new TreeMap<>();
    for (List<Object> row : r.rows()) {
      out.put(String.valueOf(row.get(0)), ((Estimate) row.get(1)).value());
    }
    return out;
  }

  private static void assertRefused(String docText, int line, int column, String feature) {
    assertRefusedUncounted(docText, line, column, feature);
    CONFORMANCE.refused();
  }

  private static void assertRefusedUncounted(String docText, int line, int column,
      String feature) {
    DpSqlException e = assertThrows(DpSqlException.class,
        () -> DpSql.parse(typed(docText), catalog));
    assertEquals(line, e.line(), e.getMessage());
    assertEquals(column, e.column(), e.getMessage());
    assertTrue(e.reason().contains(feature), e.getMessage());
  }

  /** The released rows are one admissible answer ({@link ZetaSqlDocExamplesTest#assertOneOf}). */
  private static void assertAdmissible(String docText, boolean oneGroupPerUnit,
      BiFunction<String, Map<Long, List<Double>>, Double> agg) {
    ZetaSqlDocExamplesTest.assertOneOf(docText, run(docText),
        ZetaSqlDocExamplesTest.admissible(oneGroupPerUnit, agg));
  }

  private static String tableForm(String comment, String eps, int groups, String call,
      String alias) {
    return "-- " + comment + ", using the epsilon parameter.\nSELECT\n  WITH DIFFERENTIAL_PRIVACY\n"
        + "    OPTIONS(epsilon=" + eps + ", delta=.01, max_groups_contributed=" + groups
        + ", privacy_unit_column=id)\n    item,\n    " + call + " " + alias
        + "\nFROM professors\nGROUP BY item;";
  }

  // ---- "Use differential privacy" ----

  @Test
  void useDifferentialPrivacy_countOfAColumnOverTwoGroups_isTheDocumentedCount() {
    // Every unit keeps both its groups: per group, each unit's non-NULL rows clamped to 100.
    Map<String, Double> got = run("SELECT\n  WITH DIFFERENTIAL_PRIVACY\n"
        + "    OPTIONS(epsilon=10, delta=.01, max_groups_contributed=2, privacy_unit_column=id)\n"
        + "    item,\n    COUNT(quantity, contribution_bounds_per_group => (0,100))"
        + " total_quantity\nFROM professors\nGROUP BY item;");
    assertEquals(4, got.get("pencil"), 1e-6); // 101: 1, 123: 2, 150: 1
    assertEquals(3, got.get("pen"), 1e-6); // 101: 2, 123: 1
  }

  @Test
  void useDifferentialPrivacy_defineAPrivacyUnitColumn_newerText_isRefusedWithItsPosition() {
    // item is selected without GROUP BY (invalid GoogleSQL too); typed ε is two columns wider.
    assertRefused("SELECT WITH DIFFERENTIAL_PRIVACY\n  OPTIONS (epsilon=1.09, delta=1e-5,"
        + " privacy_unit_column=id)\n  item,\n  COUNT(*)\nFROM students;", 3, 3,
        "neither in GROUP BY");
    assertRefused("SELECT WITH DIFFERENTIAL_PRIVACY\n  OPTIONS (epsilon=1.09, delta=1e-5,"
        + " privacy_unit_column=members.id)\n  item,\n  COUNT(*)\n"
        + "FROM (SELECT * FROM students) AS members;", 2, 65, "qualified names");
  }

  @Test
  void useDifferentialPrivacy_performanceExample_newerText_countsTheNonNullValues() {
    Map<String, Double> got = run("SELECT\n  WITH DIFFERENTIAL_PRIVACY OPTIONS(epsilon=1,"
        + " delta=1e-10, privacy_unit_column=id)\n  column_a, COUNT(column_b)\nFROM table_a\n"
        + "GROUP BY column_a;");
    assertEquals(Map.of("a0", 6.0, "a1", 7.0), got);
  }

  // ---- "Differentially private aggregate functions", table form ----

  @Test
  void functions_tableFormWithTheirComments_giveAnAdmissibleDocumentedAnswer() {
    for (String comment : List.of("With noise", "Without noise")) {
      String eps = comment.equals("With noise") ? "10" : "1e20";
      assertAdmissible(tableForm(comment, eps, 1,
          "AVG(quantity, contribution_bounds_per_group => (0,100))", "average_quantity"), true,
          (g, u) -> ZetaSqlDocExamplesTest.avg(u, 0, 100));
      assertAdmissible(tableForm(comment, eps, 1, "COUNT(*, contribution_bounds_per_group=>(0,"
          + " 100))", "times_requested"), true, (g, u) -> ZetaSqlDocExamplesTest.count(u, 100));
      assertAdmissible(tableForm(comment, eps, 1,
          "COUNT(item, contribution_bounds_per_group => (0,100))", "times_requested"), true,
          (g, u) -> ZetaSqlDocExamplesTest.count(u, 100));
      assertAdmissible(tableForm(comment, eps, 1,
          "SUM(quantity, contribution_bounds_per_group => (0,100))", "quantity"), true,
          (g, u) -> ZetaSqlDocExamplesTest.sum(u, 0, 100));
    }
  }

  @Test
  void functions_percentileAndVariance_tableForm_useEveryRowOfTheKeptGroup() {
    // PERCENTILE_CONT: the released median lies in [0, 100] within one grid cell (100/1024) of
    // an admissible group's median (L∞ estimated privately: every row of a kept pair counts).
    Map<String, Double> p = run(tableForm("With noise", "10", 1,
        "PERCENTILE_CONT(quantity, 0.5, contribution_bounds_per_row => (0,100))",
        "percentile_requested"));
    p.values().forEach(v -> assertTrue(v >= 0 && v <= 100, p.toString()));
    assertAdmissible(tableForm("With noise", "10", 1,
        "VAR_POP(quantity, contribution_bounds_per_row => (0,100))", "pop_variance"), true,
        (g, u) -> ZetaSqlDocExamplesTest.popVariance(u));
  }

  @Test
  void functions_withoutBounds_countEveryRowOfAUnitAsBigQueryDoes() {
    // COUNT(*) and SUM without bounds (BigQuery's implicit bounds): every unit keeps both groups
    // (max_groups_contributed=2), so the answers are the plain per-group totals.
    Map<String, Double> n = runUncounted(tableForm("Without noise", "1e20", 2, "COUNT(*)", "n"));
    assertEquals(4, n.get("pencil"), 1e-6);
    assertEquals(3, n.get("pen"), 1e-6);
    Map<String, Double> s = runUncounted(tableForm("Without noise", "1e20", 2, "SUM(quantity)",
        "s"));
    assertEquals(24 + 10 + 38 + 72, s.get("pencil"), 1e-6);
    assertEquals(16 + 19 + 23, s.get("pen"), 1e-6);
  }

  // ---- BigQuery-only forms, refused by name ----

  @Test
  void privacyUnitColumn_otherThanTheRegisteredUnit_isRefusedNamingIt() {
    assertRefusedUncounted(tableForm("With noise", "10", 1, "COUNT(*)", "n")
        .replace("privacy_unit_column=id", "privacy_unit_column=item"), 4, 84,
        "privacy_unit_column 'item' is not the privacy unit registered");
  }

  @Test
  void aggregationThreshold_isRefusedNamingTheClause() {
    assertRefused("SELECT WITH AGGREGATION_THRESHOLD\n  OPTIONS(threshold=3,"
        + " privacy_unit_column=id)\n  item, COUNT(*) AS ct\nFROM professors\nGROUP BY item;", 1,
        13, "AGGREGATION_THRESHOLD");
  }
}
