package org.privet.bench.engine;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * Where the DP group-by of {@link EngineBench} spends its time over the hand-written min-hash
 * baseline (c) (issue 15): the engine's rendered statement and variants of it, each with one
 * feature taken out (NULL/NaN guard, DOUBLE-sum guard, saturating group sum, L∞ rescale, salted
 * outer hash, final ORDER BY, fixed point), timed interleaved in one JVM on {@link EngineBench}'s
 * table, plus {@code Session.run} against its own statement (the Java side: compile, noise,
 * selection). The variants are for measurement only: several of them are not private.
 *
 * <p>Usage: {@code java -Xmx4g -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.engine.EngineProfile [rows] [rounds] [explain]} ({@code explain}: also print
 * DuckDB's EXPLAIN ANALYZE of the statement and of (c)).
 */
public final class EngineProfile {
  private EngineProfile() {}

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    boolean explain = args.length > 2 && args[2].equals("explain");
    String loadBefore = EngineBench.loadAverage();
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute(EngineBench.createTable(rows));
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .build();
      Query dp = EngineBench.dpQuery();
      String plan = session.explain(dp).render();
      String full = plan.substring(plan.indexOf("physical plan:\n") + 15).trim();
      Map<String, String> variants = new LinkedHashMap<>();
      variants.put("(c) by hand", EngineBench.MIN_HASH_BY_HAND);
      variants.put("engine statement", full);
      variants.put("- NULL/NaN guard", strip(full, EngineProfile::noNullGuard));
      variants.put("- DOUBLE guard", strip(full, EngineProfile::noDoubleGuard));
      variants.put("HUGEINT pair sums", strip(full, s -> s.replaceAll(
          "CASE WHEN COUNT\\(__v(\\d)\\) > CAST\\(\\d+ AS BIGINT\\) THEN error\\('[^']*'\\) ELSE "
              + "CAST\\(SUM\\(CAST\\(__v\\d AS DOUBLE\\)\\) AS BIGINT\\) END", "SUM(__v$1)")));
      variants.put("- saturation", strip(full, EngineProfile::noSaturation));
      variants.put("- L∞ rescale", strip(full, EngineProfile::noRescale));
      variants.put("- salt hash", strip(full, EngineProfile::noSalt));
      variants.put("- ORDER BY", strip(full, EngineProfile::noOrder));
      variants.put("values before join", earlyValues(full));
      variants.put("pairs, then window", pairWindow(full));
      variants.put("- all five", strip(full, s -> noOrder(noSalt(noRescale(noSaturation(
          noDoubleGuard(noNullGuard(s))))))));
      List<String> names = new ArrayList<>(variants.keySet());
      names.add("Session.run");
      if (explain) {
        for (String n : List.of("(c) by hand", "engine statement")) {
          System.out.println("==== EXPLAIN ANALYZE " + n);
          try (Statement st = db.trustedConnection().createStatement();
              ResultSet rs = st.executeQuery("EXPLAIN ANALYZE " + variants.get(n))) {
            while (rs.next()) {
              System.out.println(rs.getString(2));
            }
          }
        }
      }
      Map<String, List<Double>> wall = new LinkedHashMap<>();
      Map<String, List<Double>> cpu = new LinkedHashMap<>();
      names.forEach(n -> {
        wall.put(n, new ArrayList<>());
        cpu.put(n, new ArrayList<>());
      });
      for (int r = -1; r < reps; r++) {
        StringBuilder line = new StringBuilder("round " + r + ":");
        for (int k = 0; k < names.size(); k++) {
          String n = names.get((r & 1) == 0 ? k : names.size() - 1 - k);
          double w = EngineBench.time(n.equals("Session.run") ? () -> session.run(dp)
              : () -> EngineBench.drain(db, variants.get(n)));
          line.append(String.format("  %s %.3f", n, w));
          if (r >= 0) {
            wall.get(n).add(w);
            cpu.get(n).add(EngineBench.lastCpu());
          }
        }
        System.out.println(line);
      }
      System.out.printf("%d rounds (+1 warm-up), %,d rows; load average before %s, after %s%n",
          reps, rows, loadBefore, EngineBench.loadAverage());
      double cw = EngineBench.median(wall.get("(c) by hand"));
      double cc = EngineBench.median(cpu.get("(c) by hand"));
      System.out.println("variant              wall median  cpu median   /(c) wall  /(c) cpu");
      for (String n : names) {
        double w = EngineBench.median(wall.get(n));
        double c = EngineBench.median(cpu.get(n));
        System.out.printf("%-20s %9.3f s %9.2f s %9.3f %9.3f%n", n, w, c, w / cw, c / cc);
      }
    }
  }

  private static String strip(String sql, UnaryOperator<String> f) {
    String s = f.apply(sql);
    if (s.equals(sql)) {
      throw new IllegalStateException("variant changed nothing: the rendering changed");
    }
    return s;
  }

  static String noNullGuard(String s) {
    return s.replaceAll("CASE WHEN CAST\\(\"[^\"]+\" AS DOUBLE\\) IS NULL OR isnan\\(CAST\\("
        + "\"[^\"]+\" AS DOUBLE\\)\\) THEN NULL ELSE (CAST\\(LEAST.*? AS BIGINT\\)) END", "$1");
  }

  static String noDoubleGuard(String s) {
    return s.replaceAll("CASE WHEN COUNT\\(__v\\d\\) > CAST\\(\\d+ AS BIGINT\\) THEN error\\('[^']*'"
        + "\\) ELSE (CAST\\(SUM\\(CAST\\(__v\\d AS DOUBLE\\)\\) AS BIGINT\\)) END", "$1");
  }

  static String noSaturation(String s) {
    return s.replaceAll("\\(LEAST\\(COALESCE\\(SUM\\(GREATEST\\((__s\\d), CAST\\(0 AS BIGINT\\)\\)\\)"
        + ".*?CAST\\(-4611686018427387904 AS BIGINT\\)\\)\\)", "SUM($1)");
  }

  static String noRescale(String s) {
    return s.replaceAll("CASE WHEN (__c\\d) = 0 THEN CAST\\(0 AS BIGINT\\) ELSE CAST\\(CASE WHEN "
        + "__c\\d <= CAST\\(1 AS BIGINT\\) THEN (__s\\d) ELSE .*? END AS BIGINT\\) END", "$2");
  }

  static String noSalt(String s) {
    return s.replaceAll("hash\\(xor\\((hash\\([^)]*\\)), CAST\\(\\d+ AS UBIGINT\\)\\)\\)", "$1");
  }

  /**
   * The statement as main rendered it before issue 15's profile: the per-row values computed in
   * the source CTE, on every row, before the minimum-hash join.
   */
  static String earlyValues(String s) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(
        "firstrows AS \\(SELECT __u, __h, __g0, (\\(CASE WHEN .*? END\\)) AS __v0 FROM")
        .matcher(s);
    if (!m.find()) {
      throw new IllegalStateException("no per-row value in firstrows: the rendering changed");
    }
    String expr = m.group(1).replace("\"__x0\"", "\"amount\"");
    s = s.substring(0, m.start(1)) + "__v0" + s.substring(m.end(1));
    return s.replace("__s.\"amount\" AS __x0", expr + " AS __v0");
  }

  /**
   * The statement as main rendered it before the per-unit aggregate (issue 15): after the
   * minimum-hash join, an aggregate per (unit, group) pair and a window counting each unit's pairs.
   */
  static String pairWindow(String s) {
    String t = s.replace("pairs AS (SELECT __u, MIN(__g0) AS __g0, ", "pairs AS (SELECT __u, __g0, ")
        .replaceAll(" FROM firstrows GROUP BY __u HAVING .*?\\),\nkeptpairs AS \\(SELECT \\* FROM "
            + "pairs\\)", " FROM firstrows GROUP BY __u, __g0),\nranked AS (SELECT *, COUNT(*) OVER "
            + "(PARTITION BY __u) AS __r FROM pairs),\nkeptpairs AS (SELECT * FROM ranked WHERE "
            + "__r = 1)");
    if (t.equals(s) || t.contains("HAVING")) {
      throw new IllegalStateException("no per-unit aggregate: the rendering changed");
    }
    return t;
  }

  static String noOrder(String s) {
    return s.replaceAll(" ORDER BY a\\.__g0 NULLS LAST$", "");
  }
}
