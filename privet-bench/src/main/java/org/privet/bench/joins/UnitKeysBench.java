package org.privet.bench.joins;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.privet.random.RandomSource;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.sql.DatasetCatalog;
import org.privet.sql.DatasetDescriptor;
import org.privet.sql.DatasetDescriptor.Reference;
import org.privet.sql.DatasetDescriptor.TableDescriptor;
import org.privet.sql.DpSql;
import org.privet.sql.DpStatement;

/**
 * The cost of deriving each line item's unit from its order key's one unit ({@code
 * Relation.KeyUnit}: docs/proofs/engine-joins.md, "Keys") instead of a plain join to orders, on
 * TPC-H CSVs ({@code privet data tpch}) in DuckDB, interleaved rounds, medians:
 *
 * <ul>
 *   <li>{@code plain}: {@code COUNT(*), SUM(l_quantity)} of lineitem ⋈ orders (no unit);
 *   <li>{@code unit by join}: the same per {@code o_custkey} (the unit as derived before);
 *   <li>{@code unit by key}: the same per the key's one unit (GROUP BY o_orderkey HAVING one
 *       unit), as the engine now renders it;
 *   <li>{@code DP}: the engine's DP query {@code COUNT(*), SUM(l_quantity) FROM lineitem} (L0 = 1,
 *       L∞ = 8), parse, plan, bounding and noise.
 * </ul>
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar org.privet.bench.joins.UnitKeysBench
 * DIR [ROUNDS [THREADS]]} (defaults 7, 2).
 */
public final class UnitKeysBench {
  private UnitKeysBench() {}

  public static void main(String[] args) throws SQLException {
    Path dir = Path.of(args[0]);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Connection c = db.trustedConnection();
      try (Statement s = c.createStatement()) {
        s.execute("SET threads = " + threads);
        for (String t : List.of("customer", "orders", "lineitem")) {
          s.execute("CREATE TABLE " + t + " AS SELECT * FROM read_csv('" + dir.resolve(t + ".csv")
              + "', header = true)");
        }
      }
      DatasetDescriptor shop = DatasetDescriptor.builder("shop", Source.table("customer"),
              db.describe(Source.table("customer"))).privacyUnit("c_custkey")
          .unitTable("customer", List.of())
          .addTable(new TableDescriptor("orders", Source.table("orders"), db.describe(Source.table("orders")),
              List.of(new Reference("o_custkey", "customer", "c_custkey")), false))
          .addTable(new TableDescriptor("lineitem", Source.table("lineitem"),
              db.describe(Source.table("lineitem")),
              List.of(new Reference("l_orderkey", "orders", "o_orderkey")), false))
          .build();
      DatasetCatalog catalog = new DatasetCatalog() {
        @Override
        public Optional<DatasetDescriptor> find(String name) {
          return name.equals("shop") ? Optional.of(shop) : Optional.empty();
        }

        @Override
        public List<String> datasetsWithTable(String table) {
          return shop.table(table).isPresent() ? List.of("shop") : List.of();
        }

        @Override
        public Optional<List<Object>> publicValues(String dataset, String table, String column) {
          return Optional.empty();
        }
      };
      String plain = "SELECT COUNT(*), SUM(l_quantity) FROM lineitem JOIN orders ON l_orderkey = o_orderkey";
      String byJoin = "SELECT COUNT(*) FROM (SELECT o_custkey AS u, COUNT(*), SUM(l_quantity) FROM lineitem"
          + " JOIN orders ON l_orderkey = o_orderkey GROUP BY o_custkey)";
      String byKey = "SELECT COUNT(*) FROM (SELECT k.u, COUNT(*), SUM(l_quantity) FROM lineitem JOIN"
          + " (SELECT o_orderkey AS k, MIN(o_custkey) AS u FROM orders GROUP BY o_orderkey HAVING"
          + " COUNT(*) = COUNT(o_custkey) AND MIN(o_custkey) = MAX(o_custkey)) k ON l_orderkey = k.k"
          + " GROUP BY k.u)";
      String dp = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_groups_contributed = 1,"
          + " max_rows_per_group = 8) COUNT(*) AS n, SUM(l_quantity, contribution_bounds_per_row =>"
          + " (0, 50)) AS q FROM lineitem";
      Session session = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).build();
      String[] names = {"plain", "unit by join", "unit by key", "DP"};
      List<double[]> times = new ArrayList<>();
      for (int r = 0; r <= rounds; r++) {
        double[] t = new double[4];
        t[0] = timed(c, plain);
        t[1] = timed(c, byJoin);
        t[2] = timed(c, byKey);
        long start = System.nanoTime();
        DpStatement st = DpSql.parse(dp, catalog);
        st.present(session.run(st.query()));
        t[3] = (System.nanoTime() - start) / 1e9;
        if (r > 0) {
          times.add(t); // round 0 warms up
        }
      }
      double base = median(times, 0);
      System.out.println("| statement | median (s) | ÷ plain |");
      System.out.println("|---|---|---|");
      for (int i = 0; i < 4; i++) {
        System.out.printf(Locale.ROOT, "| %s | %.3f | %.2f |%n", names[i], median(times, i),
            median(times, i) / base);
      }
    }
  }

  private static double timed(Connection c, String sql) throws SQLException {
    long start = System.nanoTime();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getObject(1);
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static double median(List<double[]> times, int i) {
    double[] v = times.stream().mapToDouble(t -> t[i]).sorted().toArray();
    return v[v.length / 2];
  }
}
