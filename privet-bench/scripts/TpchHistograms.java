import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Writes the exact per-customer contribution histograms of R2T's TPC-H queries (the lines of
 * tpch-queries.txt) for linf_rule_sim.py: QUERY.rows ("row count, customers" per line) and
 * Q18.joint (one "rows sum(l_quantity)" line per customer). Data from `privet data tpch`.
 *
 * <p>Usage (single-file source launch, DuckDB from the bench jar):
 * {@code java -cp privet-bench/target/benchmarks.jar privet-bench/scripts/TpchHistograms.java
 * DATA_DIR OUT_DIR privet-bench/src/main/resources/org/privet/bench/joins/tpch-queries.txt}
 */
public class TpchHistograms {
  public static void main(String[] a) throws Exception {
    Class.forName("org.duckdb.DuckDBDriver");
    Files.createDirectories(Path.of(a[1]));
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      for (String t : new String[] {"customer", "orders", "lineitem", "nation", "region",
          "supplier"}) {
        s.execute("CREATE TABLE " + t + " AS SELECT * FROM read_csv('" + a[0] + "/" + t
            + ".csv', header = true)");
      }
      for (String line : Files.readAllLines(Path.of(a[2]))) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split(" \\| ", 5);
        String unit = f[1].strip();
        dump(s, "SELECT c, COUNT(*) FROM (SELECT " + unit + " u, COUNT(*) c " + f[4].strip()
            + " GROUP BY " + unit + ") GROUP BY c ORDER BY c", Path.of(a[1], f[0].strip()
            + ".rows"));
      }
      dump(s, "SELECT COUNT(*), CAST(SUM(l_quantity) AS BIGINT) FROM customer, orders, lineitem"
          + " WHERE c_custkey = o_custkey AND o_orderkey = l_orderkey GROUP BY o_custkey",
          Path.of(a[1], "Q18.joint"));
    }
  }

  private static void dump(Statement s, String q, Path file) throws Exception {
    StringBuilder b = new StringBuilder();
    try (ResultSet rs = s.executeQuery(q)) {
      while (rs.next()) {
        b.append(rs.getLong(1)).append(' ').append(rs.getLong(2)).append('\n');
      }
    }
    Files.writeString(file, b);
  }
}
