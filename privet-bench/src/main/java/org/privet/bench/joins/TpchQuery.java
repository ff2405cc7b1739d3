package org.privet.bench.joins;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One of R2T's TPC-H queries with customer as the privacy unit (the list is the data file {@code
 * tpch-queries.txt} next to this class): the analyst's plain query, and the per-unit contribution
 * summary a DP release over the join reads instead.
 *
 * @param name e.g. {@code Q3}
 * @param unit the join's privacy-unit column (derived from the references)
 * @param aggregate a non-negative integer aggregate per join result ({@code COUNT(*)}, a SUM)
 * @param dpAggregate the same aggregate in Privet's DP SQL, or {@code -} if the dialect cannot
 *     say it
 * @param fromWhere the {@code FROM ... WHERE ...} text
 */
record TpchQuery(String name, String unit, String aggregate, String dpAggregate,
    String fromWhere) {
  /** Whether the engine's DP SQL can state this query. */
  boolean expressible() {
    return !dpAggregate.equals("-");
  }

  /** The query in Privet's DP SQL at {@code epsilon}, no contribution bound given. */
  String dpSql(double epsilon) {
    return "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + epsilon + ") " + dpAggregate
        + " AS v " + fromWhere;
  }

  /**
   * The query in Privet's DP SQL at {@code epsilon} with R2T choosing the truncation ({@code
   * truncation = 'R2T'}, {@code truncation_bound = gs}).
   */
  String dpSqlR2T(double epsilon, long gs) {
    return "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = " + epsilon
        + ", truncation = 'R2T', truncation_bound = " + gs + ") " + dpAggregate + " AS v "
        + fromWhere;
  }

  /** The same join without DP: {@code SELECT aggregate FROM ... WHERE ...}. */
  String plain() {
    return "SELECT " + aggregate + " " + fromWhere;
  }

  /**
   * The contribution summary: how many units contribute each value c<sub>u</sub> &gt; 0 (units
   * without join results contribute 0 and change no truncated sum).
   */
  String histogram() {
    return "SELECT c, COUNT(*) AS units FROM (SELECT " + unit + " AS u, " + aggregate + " AS c "
        + fromWhere + " GROUP BY " + unit + ") per_unit GROUP BY c";
  }

  /** The queries of {@code tpch-queries.txt}, in file order. */
  static List<TpchQuery> all() {
    return read("tpch-queries.txt");
  }

  /** The opt-in self-join queries of {@code tpch-selfjoin-queries.txt}, in file order. */
  static List<TpchQuery> selfJoins() {
    return read("tpch-selfjoin-queries.txt");
  }

  private static List<TpchQuery> read(String file) {
    try (InputStream in = TpchQuery.class.getResourceAsStream(file)) {
      return parse(new String(Objects.requireNonNull(in, file).readAllBytes(),
          StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<TpchQuery> parse(String text) {
    List<TpchQuery> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split(" \\| ", 5);
      out.add(new TpchQuery(f[0].strip(), f[1].strip(), f[2].strip(), f[3].strip(),
          f[4].strip()));
    }
    return out;
  }
}
