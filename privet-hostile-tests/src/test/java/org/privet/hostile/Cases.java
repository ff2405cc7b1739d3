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

  /**
   * The DP SQL cases, from the data file {@code hostile/sql-cases.txt} ({@code EXPECT | name |
   * SQL} per line), which the server's HostileCorpusOverHttpTest runs over HTTP as well.
   */
  static List<Case> sqlCases() {
    List<Case> out = new ArrayList<>();
    for (String[] f : caseLines("/hostile/sql-cases.txt")) {
      out.add(sql(f[1], Expect.valueOf(f[0]), f[2]));
    }
    return out;
  }

  /** The {@code EXPECT | name | SQL} lines of a case file (comments and blank lines skipped). */
  static List<String[]> caseLines(String resource) {
    List<String[]> out = new ArrayList<>();
    try (java.io.InputStream in = Cases.class.getResourceAsStream(resource)) {
      String text = new String(java.util.Objects.requireNonNull(in, resource).readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8);
      for (String line : text.split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        out.add(line.split(" \\| ", 3));
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return out;
  }

  /** Every case: the DP SQL ones ({@link #sqlCases}) and the Java API ones. */
  static List<Case> all() {
    List<Case> c = new ArrayList<>(sqlCases());
    // Item 1: literals typed before the charge.
    c.add(api("Java API: date string that is no date", Expect.REFUSED, t -> unit(t).where(Filter.and(Filter.eq("uid", 17L), Filter.eq("d", "2021-02-30")))
        .count("n").epsilon(1).build()));
    c.add(api("Java API: integer key beyond SMALLINT", Expect.RELEASED, t -> unit(t).groupBy("k").publicGroups(3, 1e9, 32767).count("n").epsilon(1)
        .build()));
    // Item 2: bin arithmetic.
    c.add(api("histogram over (0, MIN_VALUE)", Expect.REFUSED, t -> unit(t).histogram("h", "x", 0, Double.MIN_VALUE, 8).epsilon(1).build()));
    // Item 5: duplicate public groups.
    c.add(api("Java API: one group in four spellings", Expect.REFUSED, t -> unit(t).groupBy("k").publicGroups(1, 1L, 1.0, new BigDecimal("1.00"))
        .count("n").epsilon(1).build()));
    c.add(api("Java API: one date as string and LocalDate", Expect.REFUSED, t -> unit(t).groupBy("d").publicGroups("2020-01-01", LocalDate.of(2020, 1, 1))
        .count("n").epsilon(1).build()));
    // Other refusals: schema and options only.
    c.add(new Case("budget refused", Expect.REFUSED, DP + ") COUNT(*) AS n FROM {t}", null,
        charge -> {
          throw new BudgetExceededException("the budget does not cover this query");
        }));
    // Releases whose output shape is public.
    c.add(api("Java API: public date, boolean and timestamp keys", Expect.RELEASED, t -> unit(t).groupBy("d", "b")
        .publicGroups(List.of(List.of(LocalDate.of(2020, 1, 1), true),
            java.util.Arrays.asList("1999-12-31", null)))
        .count("n").epsilon(1).build()));
    c.add(api("Java API: timestamp filter and histogram", Expect.RELEASED, t -> unit(t).where(Filter.ge("ts", LocalDateTime.of(2020, 1, 1, 0, 0)))
        .histogram("h", "m", -10, 10, 4).epsilon(1).build()));
    // AUTO bounds (issue 16 item 3): estimated privately, released with the answer; extreme
    // values (±∞, NaN, SMALLINT extremes, DECIMAL extremes) must not fail after the charge.
    c.add(api("Java API: AUTO bounds on a non-numeric column", Expect.REFUSED,
        t -> unit(t).mean("a", "g").epsilon(1).build()));
    c.add(api("Java API: AUTO bounds in a public range, public groups", Expect.RELEASED,
        t -> unit(t).groupBy("g").publicGroups("a", "zz").sum("s", "m", -1, 1)
            .autoBounds("s", -10_000, 10_000).autoBoundsRanks(0, 1).epsilon(1).build()));
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

  /**
   * A heavy victim (issue 24, the private L∞ estimate): user 17 with 300 rows over three groups,
   * ordinary values, so that its many rows per group are the only difference.
   */
  static List<Row> heavyVictim() {
    List<Row> rows = new ArrayList<>();
    String[] groups = {"a", "b", "zz"};
    for (int r = 0; r < 300; r++) {
      rows.add(new Row(17L, groups[r % 3], (short) r, r * 0.5, BigDecimal.valueOf(r, 2),
          LocalDate.of(2020, 1, 1).plusDays(r), LocalDateTime.of(2020, 1, 1, 10, 0).plusHours(r),
          r % 2 == 0));
    }
    return rows;
  }

  static List<Row> plus(List<Row> a, List<Row> b) {
    List<Row> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
