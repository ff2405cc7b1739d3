package org.privet.bench.joins;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.postgres.PostgresBackend;
import org.privet.random.RandomSource;
import org.privet.sql.DatasetCatalog;

/**
 * The time part of {@link TpchJoinBench} on PostgreSQL (issue 25's time target: the DP query
 * within 3× of the same join without DP): the TPC-H tables copied from the CSV files into a
 * PostgreSQL server (column types as DuckDB reads the files), then per query the plain join, the
 * engine's DP SQL on {@link PostgresBackend} and the harness's {@code GROUP BY unit} summary,
 * interleaved, medians ({@link TpchJoinBench#timingRow}). With {@code -Dtpch.declareKeys=true}
 * orders' key is declared as in {@link TpchJoinBench#declareKeysIfAsked}.
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.joins.TpchJoinPostgresBench SF=DIR[,SF=DIR...] [ROUNDS [QUERIES]]}. The
 * server is {@code $PRIVET_BENCH_POSTGRES_URL} (a JDBC URL of a superuser, which server-side
 * {@code COPY} needs) when set, else an embedded PostgreSQL started here. Wall time only.
 */
public final class TpchJoinPostgresBench {
  private TpchJoinPostgresBench() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    java.util.Set<String> only = args.length > 2 && !args[2].equals("all")
        ? java.util.Set.of(args[2].split(",")) : null;
    String url = System.getenv("PRIVET_BENCH_POSTGRES_URL");
    EmbeddedPostgres embedded = null;
    if (url == null || url.isBlank()) {
      embedded = EmbeddedPostgres.builder().setServerConfig("shared_buffers", "512MB").start();
      url = embedded.getJdbcUrl("postgres", "postgres");
    }
    RandomSource random = RandomSource.secure();
    List<String> timing = new ArrayList<>();
    timing.add("| SF | query | plain join (s) | engine DP SQL (s) | engine ÷ plain | harness DP (s)"
        + " | of which release (s) | harness ÷ plain |");
    timing.add("|---|---|---|---|---|---|---|---|");
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      for (String pair : args[0].split(",")) {
        String[] p = pair.split("=", 2);
        long start = System.nanoTime();
        load(s, Path.of(p[1]));
        TpchJoinBench.declareKeysIfAsked(s);
        System.err.printf(Locale.ROOT, "SF %s loaded in %.1f s%n", p[0],
            (System.nanoTime() - start) / 1e9);
        try (PostgresBackend pg = PostgresBackend.connect(url, new Properties())) {
          DatasetCatalog catalog = TpchJoinBench.catalog(pg);
          Session session = Session.builder().backend(pg)
              .budgetCharger(BudgetCharger.unlimited()).randomSource(random).build();
          for (TpchQuery q : TpchQuery.all()) {
            if (only != null && !only.contains(q.name())) {
              continue;
            }
            timing.add(TpchJoinBench.timingRow(p[0], q, s, session, catalog, rounds, random));
            System.err.println(timing.get(timing.size() - 1));
          }
        }
      }
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
    System.out.println(String.join("\n", timing));
  }

  /** Replaces the TPC-H tables with the CSV files of {@code dir}, then ANALYZE. */
  private static void load(Statement s, Path dir) throws SQLException {
    try (DuckDbBackend duck = DuckDbBackend.inMemory();
        Statement d = duck.trustedConnection().createStatement()) {
      for (String table : TpchJoinBench.TABLES) {
        Path csv = dir.resolve(table + ".csv").toAbsolutePath();
        s.execute("DROP TABLE IF EXISTS " + table);
        if (!Files.exists(csv)) {
          continue;
        }
        List<String> cols = new ArrayList<>();
        try (ResultSet rs = d.executeQuery("DESCRIBE SELECT * FROM read_csv('" + csv
            + "', header = true)")) {
          while (rs.next()) {
            cols.add(rs.getString("column_name") + " " + switch (rs.getString("column_type")) {
              case "BIGINT", "INTEGER" -> "bigint";
              case "DOUBLE" -> "double precision";
              case "DATE" -> "date";
              default -> "text";
            });
          }
        }
        s.execute("CREATE TABLE " + table + " (" + String.join(", ", cols) + ")");
        s.execute("COPY " + table + " FROM '" + csv + "' WITH (FORMAT csv, HEADER true)");
        s.execute("ANALYZE " + table);
      }
    }
  }
}
