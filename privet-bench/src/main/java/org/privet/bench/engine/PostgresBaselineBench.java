package org.privet.bench.engine;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.postgres.PostgresBackend;

/**
 * The PostgreSQL baseline of the engine benchmark (issue 15): the table of {@link EngineBench}
 * (10,000,000 rows, {@code uid = i / 10}, 1,000 groups, {@code amount} in [0, 1000)) generated in a
 * PostgreSQL server, and the same hand-written queries in PostgreSQL SQL: (a) the plain aggregate,
 * (b) per-unit bounding with a window over a salted pair hash, (c) the minimum-hash bounding (each
 * unit keeps the group of its smallest pair hash, joined back, clamped per-unit-per-group sums).
 * The hash is {@code hash_record_extended((uid, grp), 17)} (PostgreSQL 14+).
 *
 * <p>DP: the engine's group-by of {@link EngineBench} (count, sum and mean, L0 = 1, L∞ = 1, private
 * partition selection, ε = 1, δ = 1e-6) on the PostgreSQL data backend ({@link PostgresBackend}:
 * the whole bounding runs in the server as one statement), timed in the same interleaved rounds;
 * the harness reports DP/(c) (issue 15 target ≤ 1.25).
 *
 * <p>Arguments: {@code [rows [rounds]]}. The server is {@code $PRIVET_BENCH_POSTGRES_URL} (a JDBC
 * URL with user and password options) when set, else an embedded server started here. Wall time
 * only: the work runs in the server's processes, not this JVM.
 */
public final class PostgresBaselineBench {
  private PostgresBaselineBench() {}

  private static final String PAIR_HASH = "hash_record_extended((uid, grp), 17)";

  private static final String[][] QUERIES = {
    {"(a) plain", "SELECT grp, COUNT(*), SUM(amount), AVG(amount) FROM events GROUP BY grp"},
    {"(b) by hand", "WITH pairs AS (SELECT uid, grp, COUNT(*) AS n,"
        + " SUM(LEAST(GREATEST(amount, 0), 500)) AS s FROM events GROUP BY uid, grp),"
        + " ranked AS (SELECT grp, LEAST(n, 1) AS n, CASE WHEN n <= 1 THEN s ELSE s / n END AS s,"
        + " ROW_NUMBER() OVER (PARTITION BY uid ORDER BY " + PAIR_HASH + ") AS r FROM pairs)"
        + " SELECT grp, COUNT(*), SUM(n), SUM(s), SUM(s) / SUM(n) FROM ranked WHERE r <= 1 GROUP BY grp"},
    {"(c) min-hash", "WITH src AS NOT MATERIALIZED (SELECT uid, grp, amount, " + PAIR_HASH
        + " AS h FROM events),"
        + " firsth AS (SELECT uid, MIN(h) AS h FROM src GROUP BY uid),"
        + " pairs AS (SELECT uid, grp, COUNT(*) AS n, SUM(LEAST(GREATEST(amount, 0), 500)) AS s"
        + " FROM src JOIN firsth USING (uid, h) GROUP BY uid, grp),"
        + " kept AS (SELECT grp, LEAST(n, 1) AS n, CASE WHEN n <= 1 THEN s ELSE s / n END AS s,"
        + " COUNT(*) OVER (PARTITION BY uid) AS pairs_of_unit FROM pairs)"
        + " SELECT grp, COUNT(*), SUM(n), SUM(s), SUM(s) / SUM(n) FROM kept WHERE pairs_of_unit = 1"
        + " GROUP BY grp"},
  };

  public static void main(String[] args) throws Exception {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
    int reps = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    String url = System.getenv("PRIVET_BENCH_POSTGRES_URL");
    EmbeddedPostgres embedded = null;
    if (url == null || url.isBlank()) {
      embedded = EmbeddedPostgres.builder().setServerConfig("shared_buffers", "512MB").start();
      url = embedded.getJdbcUrl("postgres", "postgres");
    }
    String loadBefore = EngineBench.loadAverage();
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      try (ResultSet v = st.executeQuery("SELECT version()")) {
        v.next();
        System.out.println(v.getString(1) + (embedded != null ? " (embedded)" : ""));
      }
      st.execute("SET work_mem = '256MB'");
      long t0 = System.nanoTime();
      st.execute("DROP TABLE IF EXISTS events");
      st.execute("CREATE UNLOGGED TABLE events AS SELECT (i / 10)::bigint AS uid,"
          + " (abs(hashint8extended(i, 17)) % 1000)::bigint AS grp,"
          + " (abs(hashint8extended(i, 29)) % 100000)::double precision / 100.0 AS amount"
          + " FROM generate_series(0::bigint, " + (rows - 1) + ") AS t(i)");
      st.execute("ANALYZE events");
      System.out.printf("generated %,d rows (%,d units, 1000 groups) in %.1f s%n", rows, rows / 10,
          (System.nanoTime() - t0) / 1e9);
      PostgresBackend pg = PostgresBackend.connect(url, new Properties());
      Session session = Session.builder().backend(pg).budgetCharger(BudgetCharger.unlimited())
          .build();
      Query dp = Query.from("events").privacyUnit("uid").maxGroupsContributed(1)
          .maxRowsPerGroup(1).groupBy("grp").count("n").sum("total", "amount", 0, 500)
          .mean("avg", "amount", 0, 500).epsilonDelta(1.0, 1e-6).build();
      int n = QUERIES.length + 1; // the hand-written queries, then DP
      EngineBench.Body[] bodies = new EngineBench.Body[n];
      for (int q = 0; q < QUERIES.length; q++) {
        String sql = QUERIES[q][1];
        bodies[q] = () -> drain(st, sql);
      }
      if (Boolean.getBoolean("privet.bench.skipWindow")) {
        bodies[1] = () -> { }; // (b) takes minutes at 10M rows and is not in DP/(c)
      }
      long[] released = new long[1];
      bodies[QUERIES.length] = () -> released[0] = session.run(dp).rows().size();
      List<List<Double>> wall = new ArrayList<>();
      for (int q = 0; q < n; q++) {
        wall.add(new ArrayList<>());
      }
      // One warm-up round, then interleaved rounds; odd rounds run the queries in reverse order.
      for (int r = -1; r < reps; r++) {
        StringBuilder line = new StringBuilder("round " + r + ":");
        double[] w = new double[n];
        for (int k = 0; k < n; k++) {
          int q = (r & 1) == 0 ? k : n - 1 - k;
          w[q] = EngineBench.time(bodies[q]);
        }
        for (int q = 0; q < n; q++) {
          line.append(String.format("  %s %.3f s", name(q), w[q]));
          if (r >= 0) {
            wall.get(q).add(w[q]);
          }
        }
        System.out.println(line.append(String.format("  (%d groups released)", released[0])));
      }
      System.out.printf("%d rounds (+1 warm-up), %,d rows; load average before %s, after %s%n",
          reps, rows, loadBefore, EngineBench.loadAverage());
      System.out.println("query            wall median    wall min");
      for (int q = 0; q < n; q++) {
        System.out.printf("%-14s %11.3f s %9.3f s%n", name(q), EngineBench.median(wall.get(q)),
            EngineBench.min(wall.get(q)));
      }
      System.out.printf("(b)/(a) %.2f; (c)/(a) %.2f; (c)/(b) %.3f; DP/(c) %.3f (medians), %.3f (minima)%n",
          EngineBench.median(wall.get(1)) / EngineBench.median(wall.get(0)),
          EngineBench.median(wall.get(2)) / EngineBench.median(wall.get(0)),
          EngineBench.median(wall.get(2)) / EngineBench.median(wall.get(1)),
          EngineBench.median(wall.get(3)) / EngineBench.median(wall.get(2)),
          EngineBench.min(wall.get(3)) / EngineBench.min(wall.get(2)));
      System.out.println(session.explain(dp).render());
      pg.close();
      st.execute("DROP TABLE events");
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }

  private static String name(int q) {
    return q < QUERIES.length ? QUERIES[q][0] : "DP";
  }

  private static void drain(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      long groups = 0;
      while (rs.next()) {
        groups += rs.getLong(2) >= 0 ? 1 : 0;
      }
      if (groups > 1000) {
        throw new IllegalStateException("more groups than generated: " + groups);
      }
    }
  }
}
