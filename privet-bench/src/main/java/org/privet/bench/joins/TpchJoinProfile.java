package org.privet.bench.joins;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.random.RandomSource;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DpSql;

/**
 * Where the time of the engine's DP SQL over TPC-H joins goes on DuckDB (issue 25's time target):
 * per query, the statements the engine emits (its EXPLAIN's physical plan, one per pass) are each
 * timed on their own and, with {@code analyze}, printed with DuckDB's {@code EXPLAIN ANALYZE}; next
 * to them the plain join, the harness's {@code GROUP BY unit} summary and the engine end to end,
 * and the number of statements the engine sends DuckDB per run (its query log).
 * A diagnostic, not a benchmark of record: {@link TpchJoinBench} is.
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.joins.TpchJoinProfile DIR [ROUNDS [THREADS [QUERIES [analyze]]]]} (QUERIES
 * comma-separated names, default all the engine can state).
 */
public final class TpchJoinProfile {
  private TpchJoinProfile() {}

  /**
   * The statements DuckDB received while {@code r} ran (DuckDB's query log, enabled around it),
   * in order, whitespace collapsed.
   */
  static List<String> statementsSent(Statement s, Runnable r) throws SQLException {
    s.execute("CALL truncate_duckdb_logs()");
    s.execute("CALL enable_logging('QueryLog')");
    try {
      r.run();
    } finally {
      s.execute("CALL disable_logging()");
    }
    List<String> out = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT message FROM duckdb_logs WHERE type = 'QueryLog'")) {
      while (rs.next()) {
        String m = rs.getString(1).replaceAll("\\s+", " ").trim();
        if (!m.contains("enable_logging(") && !m.contains("disable_logging(")) {
          out.add(m);
        }
      }
    }
    return out;
  }

  public static void main(String[] args) throws SQLException {
    Path dir = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    List<String> only = args.length > 3 && !args[3].equals("all")
        ? Arrays.asList(args[3].split(",")) : null;
    boolean analyze = args.length > 4 && args[4].equals("analyze");
    try (DuckDbBackend db = DuckDbBackend.inMemory();
        Statement s = db.trustedConnection().createStatement()) {
      s.execute("SET threads = " + threads);
      for (String table : TpchJoinBench.TABLES) {
        Path csv = dir.resolve(table + ".csv");
        if (Files.exists(csv)) {
          s.execute("CREATE TABLE " + table + " AS SELECT * FROM read_csv('" + csv
              + "', header = true)");
        }
      }
      TpchJoinBench.declareKeysIfAsked(s);
      DatasetCatalog catalog = TpchJoinBench.catalog(db);
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).build();
      for (TpchQuery q : TpchQuery.all()) {
        if (!q.expressible() || (only != null && !only.contains(q.name()))) {
          continue;
        }
        Query dp = DpSql.parse(q.dpSql(TpchJoinBench.EPSILON), catalog).query();
        String physical = session.explain(dp).physicalPlan();
        List<String> names = new ArrayList<>();
        List<String> statements = new ArrayList<>();
        for (String part : physical.split("\n(?=-- )")) {
          int nl = part.indexOf('\n');
          names.add(part.substring(0, nl).trim());
          statements.add(part.substring(nl + 1).trim());
        }
        names.add("plain join");
        statements.add(q.plain());
        names.add("harness GROUP BY unit");
        statements.add(q.histogram());
        double[][] t = new double[statements.size() + 1][rounds];
        for (int round = -1; round < rounds; round++) {
          for (int i = 0; i < statements.size(); i++) {
            long t0 = System.nanoTime();
            try (ResultSet rs = s.executeQuery(statements.get(i))) {
              while (rs.next()) {
                rs.getObject(1);
              }
            }
            if (round >= 0) {
              t[i][round] = (System.nanoTime() - t0) / 1e9;
            }
          }
          long t0 = System.nanoTime();
          session.run(dp);
          if (round >= 0) {
            t[statements.size()][round] = (System.nanoTime() - t0) / 1e9;
          }
        }
        names.add("engine end to end");
        List<String> sent = statementsSent(s, () -> session.run(dp));
        double plain = TpchJoinBench.median(t[statements.size() - 2]);
        System.out.println("== " + q.name());
        for (int i = 0; i < names.size(); i++) {
          double m = TpchJoinBench.median(t[i]);
          System.out.printf(Locale.ROOT, "  %-28s %8.4f s  %6.2f x plain%n", names.get(i), m,
              m / plain);
        }
        System.out.printf(Locale.ROOT, "  engine statements per run: %d (%d DESCRIBE)%n",
            sent.size(), sent.stream().filter(x -> x.startsWith("DESCRIBE")).count());
        if (analyze) {
          for (int i = 0; i < statements.size(); i++) {
            System.out.println("-- EXPLAIN ANALYZE " + names.get(i) + "\n" + statements.get(i));
            try (ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + statements.get(i))) {
              while (rs.next()) {
                System.out.println(rs.getString(2));
              }
            }
          }
        }
      }
    }
  }
}
