package org.privet.hostile;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.privet.accounting.BudgetExceededException;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Filter;
import org.privet.engine.Query;
import org.privet.engine.spi.Backend;

/**
 * The hostile analyst's error paths (issue 10), each with the outcome it must have on every pair
 * of neighbouring tables: refused before the charge, or released. Shared by the DuckDB and Spark
 * suites.
 */
final class Cases {
  /** What a case must do on both neighbours. */
  enum Expect { REFUSED, RELEASED }

  /** One request: DP SQL ({@code {t}} is the table) or a Java API query. */
  record Case(String name, Expect expect, String sql, Function<String, Query> api,
      BudgetCharger charger) {
    Observation observe(Backend backend, String table) {
      return sql != null ? Observation.sql(backend, table, sql, charger)
          : Observation.api(backend, table, api, charger);
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /**
   * Runs {@code c} on each pair of neighbouring tables of {@code backend}: equal observations,
   * refused or released as the case states.
   */
  static void assertObservedAlike(Case c, Backend backend, String[][] pairs) {
    for (String[] p : pairs) {
      Observation a = c.observe(backend, p[0]);
      Observation b = c.observe(backend, p[1]);
      org.junit.jupiter.api.Assertions.assertEquals(a, b, c + ": " + p[0] + " vs " + p[1]);
      org.junit.jupiter.api.Assertions.assertTrue(
          c.expect() == Expect.REFUSED ? b.refused() : b.released(),
          c + " should be " + c.expect() + ", was " + b);
    }
  }

  static final String DP = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6";

  private Cases() {}

  /** A Java API query on {@code table} with unit uid, L0 = 2, L∞ = 2. */
  private static Query.Builder unit(String table) {
    return Query.from(table).privacyUnit("uid").maxGroupsContributed(2).maxRowsPerGroup(2);
  }

  private static Case sql(String name, Expect e, String sql) {
    return new Case(name, e, sql, null, BudgetCharger.unlimited());
  }

  private static Case api(String name, Expect e, Function<String, Query> q) {
    return new Case(name, e, null, q, BudgetCharger.unlimited());
  }

  static List<Case> all() {
    List<Case> c = new ArrayList<>();
    // Item 1: literals typed before the charge.
    c.add(sql("date literal that is no date", Expect.REFUSED, DP + ") COUNT(*) AS n FROM {t}"
        + " WHERE uid = 17 AND d = 'not-a-date'"));
    c.add(sql("timestamp literal that is no timestamp", Expect.REFUSED, DP + ") COUNT(*) AS n"
        + " FROM {t} WHERE uid = 17 AND ts > '2021-13-45 10:00'"));
    c.add(sql("number beyond SMALLINT", Expect.RELEASED, DP + ") COUNT(*) AS n FROM {t}"
        + " WHERE uid = 17 AND k = 1e30"));
    c.add(sql("number beyond SMALLINT in IN and BETWEEN", Expect.RELEASED, DP + ") COUNT(*) AS n"
        + " FROM {t} WHERE uid = 17 AND k IN (40000, -1e300, 3) AND k BETWEEN -1e30 AND 99999"));
    c.add(sql("decimal beyond DECIMAL(6,2)", Expect.RELEASED, DP + ") COUNT(*) AS n FROM {t}"
        + " WHERE uid = 17 AND (m = 123456789.5 OR m <= 1.255)"));
    c.add(api("Java API: date string that is no date", Expect.REFUSED, t -> unit(t).where(Filter.and(Filter.eq("uid", 17L), Filter.eq("d", "2021-02-30")))
        .count("n").epsilon(1).build()));
    c.add(api("Java API: integer key beyond SMALLINT", Expect.RELEASED, t -> unit(t).groupBy("k").publicGroups(3, 1e9, 32767).count("n").epsilon(1)
        .build()));
    // Item 2: bin arithmetic.
    c.add(sql("PERCENTILE_CONT with bounds too close", Expect.REFUSED, DP + ") PERCENTILE_CONT(x,"
        + " 0.5, contribution_bounds_per_row => (0, 1e-306)) AS p FROM {t}"));
    c.add(api("histogram over (0, MIN_VALUE)", Expect.REFUSED, t -> unit(t).histogram("h", "x", 0, Double.MIN_VALUE, 8).epsilon(1).build()));
    // Item 3: saturation (the magnitudes here are small; the 2^25-row attack has its own test).
    c.add(sql("variance and sums with wide bounds", Expect.RELEASED, DP + ")"
        + " VARIANCE(x, contribution_bounds_per_row => (-1e15, 1e15)) AS v,"
        + " SUM(m, contribution_bounds_per_row => (-1e17, 1e17)) AS s,"
        + " AVG(k, contribution_bounds_per_group => (-1e12, 1e12)) AS a FROM {t}"));
    // Item 5: duplicate public groups.
    c.add(api("Java API: one group in four spellings", Expect.REFUSED, t -> unit(t).groupBy("k").publicGroups(1, 1L, 1.0, new BigDecimal("1.00"))
        .count("n").epsilon(1).build()));
    c.add(api("Java API: one date as string and LocalDate", Expect.REFUSED, t -> unit(t).groupBy("d").publicGroups("2020-01-01", LocalDate.of(2020, 1, 1))
        .count("n").epsilon(1).build()));
    // Other refusals: schema and options only.
    c.add(sql("unknown column", Expect.REFUSED, DP + ") SUM(nope) AS s FROM {t}"));
    c.add(sql("non-numeric column summed", Expect.REFUSED, DP + ") SUM(g,"
        + " contribution_bounds_per_row => (0, 1)) AS s FROM {t}"));
    c.add(sql("bounds beyond 2^60", Expect.REFUSED, DP + ") SUM(x,"
        + " contribution_bounds_per_row => (-1e300, 1e300)) AS s FROM {t}"));
    c.add(sql("function in WHERE", Expect.REFUSED, DP + ") COUNT(*) AS n FROM {t}"
        + " WHERE length(g) > 3"));
    c.add(new Case("budget refused", Expect.REFUSED, DP + ") COUNT(*) AS n FROM {t}", null,
        charge -> {
          throw new BudgetExceededException("the budget does not cover this query");
        }));
    // Releases whose output shape is public.
    c.add(sql("every aggregate, no GROUP BY", Expect.RELEASED, DP + ") COUNT(*) AS n,"
        + " COUNT(DISTINCT uid) AS u, SUM(x, contribution_bounds_per_row => (-5, 5)) AS s,"
        + " AVG(m, contribution_bounds_per_row => (0, 100)) AS a,"
        + " STDDEV_POP(k, contribution_bounds_per_row => (-10, 10)) AS sd,"
        + " PERCENTILE_CONT(x, 0.5, contribution_bounds_per_row => (-10, 10)) AS p FROM {t}"));
    c.add(sql("public groups of every key type", Expect.RELEASED, DP + ", public_groups = ("
        + "'a', 'zz', 'it''s')) g, COUNT(*) AS n FROM {t} GROUP BY g"));
    c.add(api("Java API: public date, boolean and timestamp keys", Expect.RELEASED, t -> unit(t).groupBy("d", "b")
        .publicGroups(List.of(List.of(LocalDate.of(2020, 1, 1), true),
            java.util.Arrays.asList("1999-12-31", null)))
        .count("n").epsilon(1).build()));
    c.add(api("Java API: timestamp filter and histogram", Expect.RELEASED, t -> unit(t).where(Filter.ge("ts", LocalDateTime.of(2020, 1, 1, 0, 0)))
        .histogram("h", "m", -10, 10, 4).epsilon(1).build()));
    // AUTO bounds (issue 16 item 3): estimated privately, released with the answer; extreme
    // values (±∞, NaN, SMALLINT extremes, DECIMAL extremes) must not fail after the charge.
    c.add(sql("AUTO bounds on every value aggregate", Expect.RELEASED, DP + ", auto_bounds_share"
        + " = 0.2) SUM(x, contribution_bounds_per_row => AUTO) AS s,"
        + " AVG(m, contribution_bounds_per_row => AUTO) AS a,"
        + " VARIANCE(k, contribution_bounds_per_row => AUTO) AS v,"
        + " STDDEV(x, contribution_bounds_per_row => AUTO) AS sd FROM {t}"));
    c.add(sql("AUTO bounds with private groups", Expect.RELEASED, DP + ", max_groups_contributed"
        + " = 2) g, SUM(k, contribution_bounds_per_row => AUTO) AS s FROM {t} GROUP BY g"));
    c.add(sql("AUTO bounds on COUNT", Expect.REFUSED, DP + ") COUNT(*,"
        + " contribution_bounds_per_group => AUTO) AS n FROM {t}"));
    c.add(sql("AUTO bounds share out of range", Expect.REFUSED, DP + ", auto_bounds_share = 1)"
        + " SUM(x, contribution_bounds_per_row => AUTO) AS s FROM {t}"));
    c.add(api("Java API: AUTO bounds on a non-numeric column", Expect.REFUSED,
        t -> unit(t).mean("a", "g").epsilon(1).build()));
    c.add(api("Java API: AUTO bounds in a public range, public groups", Expect.RELEASED,
        t -> unit(t).groupBy("g").publicGroups("a", "zz").sum("s", "m", -1, 1)
            .autoBounds("s", -10_000, 10_000).autoBoundsRanks(0, 1).epsilon(1).build()));
    c.add(sql("private partition selection", Expect.RELEASED, DP + ", max_groups_contributed = 2)"
        + " g, COUNT(*) AS n FROM {t} GROUP BY g"));
    c.add(sql("DP set union", Expect.RELEASED, DP + ", max_groups_contributed = 3,"
        + " group_selection_strategy = SET_UNION) g, COUNT(*) AS n,"
        + " SUM(x, contribution_bounds_per_row => (-5, 5)) AS s FROM {t} GROUP BY g"));
    c.add(sql("DP set union with public groups", Expect.REFUSED, DP + ", max_groups_contributed"
        + " = 2, group_selection_strategy = SET_UNION, public_groups = ('a')) g, COUNT(*) AS n"
        + " FROM {t} GROUP BY g"));
    // Issue 24: ZetaSQL's options and defaults.
    c.add(sql("implicit bounds on every value aggregate", Expect.RELEASED, DP + ")"
        + " SUM(x) AS s, AVG(m) AS a, VAR_POP(k) AS v, STDDEV_POP(x) AS sd, COUNT(m) AS c"
        + " FROM {t}"));
    c.add(sql("implicit bounds with private groups", Expect.RELEASED, DP + ","
        + " max_groups_contributed = 2) g, SUM(k) AS s, COUNT(x) AS c FROM {t} GROUP BY g"));
    c.add(sql("min_privacy_units_per_group", Expect.RELEASED, DP + ","
        + " min_privacy_units_per_group = 2, max_groups_contributed = 2) g, COUNT(*) AS n,"
        + " AVG(x, contribution_bounds_per_group => (-5, 5)) AS a FROM {t} GROUP BY g"));
    c.add(sql("min_privacy_units_per_group with post-aggregation thresholding", Expect.RELEASED,
        DP + ", min_privacy_units_per_group = 3, group_selection_strategy ="
        + " POST_AGGREGATION_THRESHOLD) g, COUNT(DISTINCT uid) AS u FROM {t} GROUP BY g"));
    c.add(sql("min_privacy_units_per_group with public groups", Expect.REFUSED, DP + ","
        + " min_privacy_units_per_group = 2, public_groups = ('a')) g, COUNT(*) AS n FROM {t}"
        + " GROUP BY g"));
    c.add(sql("max_rows_contributed with unbounded groups", Expect.RELEASED, DP + ","
        + " max_groups_contributed = NULL, max_rows_contributed = 3) g, COUNT(*) AS n,"
        + " SUM(x, contribution_bounds_per_group => (0, 5)) AS s FROM {t} GROUP BY g"));
    c.add(sql("unbounded groups alone", Expect.REFUSED, DP + ", max_groups_contributed = NULL)"
        + " g, COUNT(*) AS n FROM {t} GROUP BY g"));
    c.add(sql("delta = 1", Expect.REFUSED, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon ="
        + " 1, delta = 1) g, COUNT(*) AS n FROM {t} GROUP BY g"));
    c.add(sql("APPROX_QUANTILES and a JSON report", Expect.RELEASED, DP + ")"
        + " APPROX_QUANTILES(x, 4) AS q, SUM(k, report_format => \"JSON\") AS s,"
        + " APPROX_QUANTILES(m, 2, contribution_bounds_per_row => (0, 10)) AS r FROM {t}"));
    c.add(sql("per-aggregation epsilon", Expect.RELEASED, "SELECT WITH DIFFERENTIAL_PRIVACY"
        + " OPTIONS (epsilon = 2, delta = 1e-6, group_selection_epsilon = 0.5,"
        + " max_groups_contributed = 2) g, COUNT(*, epsilon => 0.5) AS n, SUM(x,"
        + " contribution_bounds_per_group => (0, 5), epsilon => 0.25) AS s, AVG(k) AS a FROM {t}"
        + " GROUP BY g"));
    c.add(sql("per-aggregation epsilon overconsumption", Expect.REFUSED, DP + ") COUNT(*,"
        + " epsilon => 2) AS n FROM {t}"));
    c.add(sql("PROTO report", Expect.REFUSED, DP + ") SUM(k, report_format => 'PROTO') AS s"
        + " FROM {t}"));
    c.add(sql("PERCENTILE_CONT without bounds", Expect.RELEASED, DP + ") PERCENTILE_CONT(x, 0.5)"
        + " AS p, PERCENTILE_CONT(k, 0.9) AS q FROM {t}"));
    return c;
  }

  /** A fixed base table: 8 units, 1 to 4 rows each, ordinary values and NULLs. */
  static List<Row> base() {
    List<Row> rows = new ArrayList<>();
    String[] groups = {"a", "b", "zz", null};
    for (long u = 1; u <= 8; u++) {
      for (int r = 0; r < 1 + u % 4; r++) {
        rows.add(new Row(u, groups[(int) ((u + r) % 4)], (short) (u * 3 - r),
            r == 2 ? null : (u - 4) * 1.25, BigDecimal.valueOf(u * 100 + r, 2),
            LocalDate.of(2020, 1, 1).plusDays(u * 7), LocalDateTime.of(2020, 1, 1, 10, 0)
                .plusHours(u * r), u % 3 == 0 ? null : u % 2 == 0));
      }
    }
    return rows;
  }

  /** The victim: user 17, two rows with extreme values of every type. */
  static List<Row> victim() {
    return List.of(
        new Row(17L, "it's", Short.MAX_VALUE, Double.POSITIVE_INFINITY, new BigDecimal("9999.99"),
            LocalDate.of(9999, 12, 31), LocalDateTime.of(2021, 6, 1, 0, 0), true),
        new Row(17L, "a", Short.MIN_VALUE, Double.NaN, new BigDecimal("-9999.99"),
            LocalDate.of(1, 1, 1), LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1000), false));
  }

  static List<Row> plus(List<Row> a, List<Row> b) {
    List<Row> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
