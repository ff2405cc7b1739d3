package org.privet.bench.joins;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Locale;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.random.RandomSource;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DpSql;

/**
 * Issue 25: the default L∞ estimate for a query with a SUM beside other aggregates (a harness,
 * not JMH), on TPC-H over DuckDB with customer as the unit, at R2T's ε = 0.8: {@code COUNT(*),
 * SUM(l_quantity)} and {@code SUM(l_quantity), SUM(l_extendedprice)} over customer ⋈ orders ⋈
 * lineitem (Q18's join), no bound given. Reported per output: the median relative error of RUNS
 * releases against the plain answer computed here, and the released L∞ (min / median / max).
 * Run it on main's code and on a change to compare (docs/benchmarks.md).
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.joins.TpchMultiAggregateBench DIR [RUNS]} (DIR from {@code privet data tpch};
 * RUNS default 61).
 */
public final class TpchMultiAggregateBench {
  private static final String FROM = " FROM customer, orders, lineitem WHERE c_custkey = o_custkey"
      + " AND o_orderkey = l_orderkey";
  private static final String[][] QUERIES = {
      {"COUNT(*) AS a, SUM(l_quantity, contribution_bounds_per_row => (0, 50)) AS b",
          "COUNT(*)", "SUM(l_quantity)"},
      {"SUM(l_quantity, contribution_bounds_per_row => (0, 50)) AS a, SUM(l_extendedprice,"
          + " contribution_bounds_per_row => (0, 105000)) AS b", "SUM(l_quantity)",
          "SUM(l_extendedprice)"},
  };

  private TpchMultiAggregateBench() {}

  public static void main(String[] args) throws SQLException {
    Path dir = Path.of(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 61;
    try (DuckDbBackend db = DuckDbBackend.inMemory();
        Statement s = db.trustedConnection().createStatement()) {
      for (String table : TpchJoinBench.TABLES) {
        Path csv = dir.resolve(table + ".csv");
        if (java.nio.file.Files.exists(csv)) {
          s.execute("CREATE TABLE " + table + " AS SELECT * FROM read_csv('" + csv
              + "', header = true)");
        }
      }
      DatasetCatalog catalog = TpchJoinBench.catalog(db);
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).build();
      System.out.println("| query | output | plain | median relative error | L∞ min / median / "
          + "max |");
      System.out.println("|---|---|---|---|---|");
      for (String[] q : QUERIES) {
        double[] truth = new double[2];
        try (ResultSet rs = s.executeQuery("SELECT " + q[1] + ", " + q[2] + FROM)) {
          rs.next();
          truth[0] = rs.getDouble(1);
          truth[1] = rs.getDouble(2);
        }
        Query dp = DpSql.parse("SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = "
            + TpchJoinBench.EPSILON + ") " + q[0] + FROM, catalog).query();
        double[][] err = new double[2][runs];
        double[] linf = new double[runs];
        for (int i = 0; i < runs; i++) {
          Result r = session.run(dp);
          err[0][i] = Math.abs(r.rows().get(0).get("a").value() - truth[0]) / truth[0];
          err[1][i] = Math.abs(r.rows().get(0).get("b").value() - truth[1]) / truth[1];
          linf[i] = r.estimatedMaxRowsPerGroup();
        }
        Arrays.sort(linf);
        for (int k = 0; k < 2; k++) {
          System.out.printf(Locale.ROOT, "| %s, %s | %s | %,.0f | %.2e | %.0f / %.0f / %.0f |%n",
              q[1], q[2], q[1 + k], truth[k], TpchJoinBench.median(err[k]), linf[0],
              TpchJoinBench.median(linf), linf[runs - 1]);
        }
      }
    }
  }
}
