package org.privet.hostile;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Generators for the fuzzing of {@link HostileFuzzTest} and {@link HostileSparkFuzzTest}: DP SQL
 * query shapes with literals of every type (valid, invalid and out of range for their columns),
 * bounds near the ends of the double range, group keys, and neighbouring tables (a random table
 * and the same table with one more unit, uid 99).
 */
final class QueryFuzz {
  private QueryFuzz() {}

  /** A pair of neighbouring tables: rows without and with the victim unit. */
  record Pair(List<Row> without, List<Row> with) {}

  static Arbitrary<Row> rows(Arbitrary<Long> uids) {
    Arbitrary<String> g = Arbitraries.of("a", "b", "zz", "it's").injectNull(0.2);
    Arbitrary<Short> k = Arbitraries.of((short) 0, (short) 3, (short) -5, Short.MAX_VALUE,
        Short.MIN_VALUE).injectNull(0.2);
    Arbitrary<Double> x = Arbitraries.of(0.0, -0.0, 1.5, -2.25, 1e300, -1e300, Double.MIN_VALUE,
        Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY).injectNull(0.1);
    Arbitrary<BigDecimal> m = Arbitraries.of(new BigDecimal("0.00"), new BigDecimal("9999.99"),
        new BigDecimal("-9999.99"), new BigDecimal("1.25")).injectNull(0.2);
    Arbitrary<LocalDate> d = Arbitraries.of(LocalDate.of(2020, 1, 1), LocalDate.of(1, 1, 1),
        LocalDate.of(9999, 12, 31)).injectNull(0.2);
    Arbitrary<LocalDateTime> ts = Arbitraries.of(LocalDateTime.of(2020, 1, 1, 10, 0),
        LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1000)).injectNull(0.2);
    Arbitrary<Boolean> b = Arbitraries.of(true, false).injectNull(0.2);
    return Combinators.combine(uids, g, k, x, m, d, ts, b).as(Row::new);
  }

  static Arbitrary<Pair> pairs() {
    Arbitrary<List<Row>> base = rows(Arbitraries.longs().between(1, 5)).list().ofMaxSize(6);
    Arbitrary<List<Row>> victim = rows(Arbitraries.just(99L)).list().ofMinSize(1).ofMaxSize(2);
    return Combinators.combine(base, victim).as((a, v) -> new Pair(a, Cases.plus(a, v)));
  }

  private static final List<String> STRINGS = List.of("'2020-01-01'", "'not-a-date'",
      "'2021-02-30'", "'2020-01-01 10:00:00'", "'2020-01-01 10:00:00.1234567'", "'1e30'", "''",
      "'it''s'", "'a'", "'+10000-01-01'");
  private static final List<String> NUMBERS = List.of("0", "-0.0", "1.5", "1e30", "-1e30",
      "32767", "32768", "-32769", "9999.99", "10000", "1.255", "4.9E-324",
      "1.7976931348623157E308", "9223372036854775807", "9007199254740993", "-9223372036854775808");
  private static final List<String> OTHERS = List.of("TRUE", "FALSE", "DATE '2020-01-01'",
      "DATE '2020-13-01'", "NULL");
  private static final List<String> BOUNDS = List.of("0", "1", "-1", "5", "-3", "1e-306",
      "4.9E-324", "2.2250738585072014E-308", "1e15", "1.000000000000008E15", "1.152921504606847E18",
      "-1.152921504606847E18", "1e300", "-1e300", "1.7976931348623157E308");
  private static final List<String> COLUMNS = List.of("uid", "g", "k", "x", "m", "d", "ts", "b");
  private static final List<String> NUMERIC = List.of("k", "x", "m", "uid", "g", "d");

  static Arbitrary<String> literals() {
    return Arbitraries.oneOf(Arbitraries.of(STRINGS), Arbitraries.of(NUMBERS),
        Arbitraries.of(OTHERS));
  }

  /** Literals at the edges of a column's type (valid, invalid, out of range), or any literal. */
  static Arbitrary<String> literalsFor(String column) {
    List<String> edges = switch (column) {
      case "k" -> List.of("3", "32767", "32768", "-32769", "1e30", "1.5");
      case "uid" -> List.of("99", "1e30", "9223372036854775808", "-1e19", "1.5");
      case "m" -> List.of("1.25", "9999.99", "10000", "-1e30", "1.255");
      case "x" -> List.of("1.5", "1e308", "-0.0", "4.9E-324");
      case "d" -> List.of("'2020-01-01'", "'not-a-date'", "'2021-02-30'", "DATE '2020-01-01'");
      case "ts" -> List.of("'2020-01-01 10:00:00'", "'2021-13-45'",
          "'2020-01-01 10:00:00.1234567'", "'+10000-01-01'");
      case "g" -> List.of("'a'", "'it''s'", "''");
      default -> List.of("TRUE", "FALSE");
    };
    return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(edges)), Tuple.of(1, literals()));
  }

  static Arbitrary<String> predicates() {
    Arbitrary<String> col = Arbitraries.of(COLUMNS);
    Arbitrary<String> op = Arbitraries.of("=", "<>", "<", "<=", ">", ">=");
    Arbitrary<String> compare = col.flatMap(c -> Combinators.combine(op, literalsFor(c))
        .as((o, l) -> c + " " + o + " " + l));
    Arbitrary<String> in = col.flatMap(c -> literalsFor(c).list().ofMinSize(1).ofMaxSize(3)
        .map(ls -> c + " IN (" + String.join(", ", ls) + ")"));
    Arbitrary<String> between = col.flatMap(c -> Combinators.combine(literalsFor(c),
        literalsFor(c)).as((a, b) -> c + " BETWEEN " + a + " AND " + b));
    Arbitrary<String> isNull = Combinators.combine(col, Arbitraries.of(" IS NULL", " IS NOT NULL"))
        .as((c, n) -> c + n);
    Arbitrary<String> one = Arbitraries.frequencyOf(Tuple.of(4, compare), Tuple.of(2, in),
        Tuple.of(2, between), Tuple.of(1, isNull));
    return Arbitraries.oneOf(one, Combinators.combine(one, Arbitraries.of(" AND ", " OR "), one)
        .as((a, j, b) -> "(" + a + j + "NOT " + b + ")"));
  }

  static Arbitrary<String> aggregates() {
    Arbitrary<String> col = Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.of("k", "x", "m",
        "uid")), Tuple.of(1, Arbitraries.of(NUMERIC)));
    Arbitrary<String> extreme = Combinators.combine(Arbitraries.of(BOUNDS),
        Arbitraries.of(BOUNDS), Arbitraries.of("-", ""), Arbitraries.of("-", ""))
        .as((lo, hi, s1, s2) -> "(" + s1 + lo + ", " + s2 + hi + ")");
    Arbitrary<String> bounds = Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.of("(0, 1)", "(-5, 5)", "(0, 100)", "(-1e15, 1e15)")),
        Tuple.of(1, extreme));
    Arbitrary<String> fn = Arbitraries.of("SUM", "AVG", "VARIANCE", "STDDEV_POP");
    Arbitrary<String> bounded = Combinators.combine(fn, col, Arbitraries.of("row", "group"),
        bounds).as((f, c, kind, b) -> f + "(" + c + ", contribution_bounds_per_" + kind + " => "
            + b + ")");
    Arbitrary<String> percentile = Combinators.combine(col, Arbitraries.of("0", "0.5", "1"),
        bounds).as((c, r, b) -> "PERCENTILE_CONT(" + c + ", " + r
            + ", contribution_bounds_per_row => " + b + ")");
    // Issue 24: implicit bounds (no bounds given) and COUNT(col) beside other aggregates.
    Arbitrary<String> implicit = Combinators.combine(fn, col).as((f, c) -> f + "(" + c + ")");
    Arbitrary<String> countColumn = col.map(c -> "COUNT(" + c + ")");
    Arbitrary<String> approx = Combinators.combine(col, Arbitraries.of("1", "4", "100", "101"),
        Arbitraries.of("", ", contribution_bounds_per_row => (0, 100)"))
        .as((c, n, b) -> "APPROX_QUANTILES(" + c + ", " + n + b + ")");
    Arbitrary<String> report = Combinators.combine(fn, col, Arbitraries.of("\"JSON\"",
        "'PROTO'")).as((f, c, r) -> f + "(" + c + ", report_format => " + r + ")");
    Arbitrary<String> perEpsilon = Combinators.combine(Arbitraries.of("COUNT(*", "SUM(x",
        "AVG(m, contribution_bounds_per_row => (0, 10)"), Arbitraries.of("0.25", "0.5", "2",
        "-1", "1e-300")).as((f, e) -> f + ", epsilon => " + e + ")");
    return Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.of("COUNT(*)",
        "COUNT(DISTINCT uid)")), Tuple.of(2, bounded), Tuple.of(1, percentile),
        Tuple.of(1, implicit), Tuple.of(1, countColumn), Tuple.of(1, approx),
        Tuple.of(1, report), Tuple.of(1, perEpsilon));
  }

  /** A DP SQL query over table {@code {t}}. */
  static Arbitrary<String> queries() {
    Arbitrary<String> group = Arbitraries.of("", "g", "k", "d", "b");
    Arbitrary<String> options = Combinators.combine(
        Arbitraries.of("", ", max_groups_contributed = 2",
            ", max_groups_contributed = 3, group_selection_strategy = SET_UNION",
            // Issue 24: ZetaSQL's options.
            ", min_privacy_units_per_group = 2", ", min_privacy_units_per_group = 3,"
                + " max_groups_contributed = 2",
            ", max_rows_contributed = 3", ", max_groups_contributed = NULL,"
                + " max_rows_contributed = 2",
            // max_rows_contributed = m: m rows per unit in all (docs/proofs/rows-contributed.md).
            ", max_rows_contributed = 1, group_selection_strategy = POST_AGGREGATION_THRESHOLD",
            ", max_rows_contributed = 6, group_selection_strategy = SET_UNION",
            ", max_rows_contributed = 4, min_privacy_units_per_group = 2, noise = GAUSSIAN",
            ", max_groups_contributed = NULL", ", group_selection_epsilon = 0.25,"
                + " max_groups_contributed = 2"),
        Arbitraries.oneOf(Arbitraries.just(""), literals().list().ofMinSize(1).ofMaxSize(3)
            .map(ls -> ", public_groups = (" + String.join(", ", ls) + ")")))
        .as((a, b) -> a + b);
    // The attacker's form: "uid = 99 AND p" lets only the victim's rows reach p.
    Arbitrary<String> where = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just("")),
        Tuple.of(1, predicates().map(p -> " WHERE " + p)),
        Tuple.of(2, predicates().map(p -> " WHERE uid = 99 AND " + p)));
    return Combinators.combine(group, options, aggregates().list().ofMinSize(1).ofMaxSize(2),
        where).as((g, o, aggs, w) -> {
          StringBuilder s = new StringBuilder(Cases.DP).append(g.isEmpty() ? "" : o).append(") ");
          if (!g.isEmpty()) {
            s.append(g).append(", ");
          }
          for (int i = 0; i < aggs.size(); i++) {
            s.append(i > 0 ? ", " : "").append(aggs.get(i)).append(" AS a").append(i);
          }
          s.append(" FROM {t}").append(w);
          return g.isEmpty() ? s.toString() : s.append(" GROUP BY ").append(g).toString();
        });
  }
}
