package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privet.hostile.CliCommands.ok;
import static org.privet.hostile.CliCommands.privet;
import static org.privet.hostile.CliCommands.released;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.ExitCodes;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.hostile.CliCommands.Run;
import org.privet.ledger.Ledger;
import org.privet.ledger.TableReference;

/**
 * A multi-table dataset registered through the CLI and queried with {@code privet query
 * --spark-master local[2]} (issue 25): Spark reads every table (CSV and Parquet), the join answer
 * equals the plain join computed by DuckDB SQL here, and a refused join is refused on Spark with
 * the same message and exit code as on DuckDB, charging nothing. Runs in this module, whose
 * classpath has Spark and the jackson version Spark needs (the CLI's own tests have no Spark).
 */
class SparkTablesCommandTest {
  @TempDir Path dir;

  /**
   * At ε = 10^6 and bounds of 1 group and 4 rows per unit, the counts' discrete noise has scale
   * 4·10^-6: it is 0 except with probability below 10^-100000, so both backends release the plain
   * join's counts (every unit has at most 4 line items here, so nothing is truncated).
   */
  @Test
  void query_sparkMaster_joinsTheDatasetsTablesLikeDuckDb() throws Exception {
    LocalSpark.session(); // the module's one session: the CLI's getOrCreate reuses it
    Files.writeString(dir.resolve("customer.csv"),
        "c_custkey,c_name,c_nationkey\n1,a,7\n2,b,8\n3,c,7\n4,d,9\n");
    Files.writeString(dir.resolve("orders.csv"),
        "o_orderkey,o_custkey,o_totalprice\n10,1,9.5\n11,1,3.0\n12,3,4.25\n13,2,1.0\n14,4,2.0\n");
    Files.writeString(dir.resolve("lineitem.csv"),
        "l_orderkey,l_quantity\n10,3\n10,1\n11,2\n12,7\n13,1\n13,5\n14,2\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n8,PERU\n9,CHINA\n10,KENYA\n");
    Path lineitem = dir.resolve("lineitem.parquet");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("lineitem.csv") + "', header = true)) TO '"
          + lineitem + "' (FORMAT PARQUET)");
    }
    String ws = dir.resolve("ws").toString();
    ok("dataset", "register", "--workspace", ws, "--name", "shop", "--table-name", "customer", "--source",
        dir.resolve("customer.csv").toString(), "--privacy-unit", "c_custkey", "--epsilon", "10000000");
    ok("dataset", "add-table", "--workspace", ws, "--dataset", "shop", "--name", "orders", "--source",
        dir.resolve("orders.csv").toString(), "--references", "o_custkey=customer.c_custkey");
    ok("dataset", "add-table", "--workspace", ws, "--dataset", "shop", "--name", "lineitem", "--source",
        lineitem.toString(), "--references", "l_orderkey=orders.o_orderkey");
    ok("dataset", "add-table", "--workspace", ws, "--dataset", "shop", "--name", "nation", "--source",
        dir.resolve("nation.csv").toString(), "--public", "--referenced-by", "n_nationkey=customer.c_nationkey");

    Map<String, Long> expected = new TreeMap<>();
    try (DuckDbBackend db = DuckDbBackend.inMemory();
        java.sql.Statement st = db.trustedConnection().createStatement();
        java.sql.ResultSet r = st.executeQuery("SELECT n.n_name, COUNT(l.l_orderkey) FROM read_csv('"
            + dir.resolve("nation.csv") + "') n LEFT JOIN read_csv('" + dir.resolve("customer.csv")
            + "') c ON c.c_nationkey = n.n_nationkey LEFT JOIN read_csv('" + dir.resolve("orders.csv")
            + "') o ON o.o_custkey = c.c_custkey LEFT JOIN read_parquet('" + lineitem
            + "') l ON l.l_orderkey = o.o_orderkey GROUP BY n.n_name")) {
      while (r.next()) {
        expected.put(r.getString(1), r.getLong(2));
      }
    }
    assertEquals(0L, expected.get("KENYA"), "a nation without customers, released as a public group");
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000, max_groups_contributed = 1,"
        + " max_rows_per_group = 4) n_name, COUNT(*) AS items FROM lineitem JOIN orders ON l_orderkey = o_orderkey"
        + " JOIN customer ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name";
    Run spark = ok("query", "--workspace", ws, "--analyst", "ann", "--format", "json", "--spark-master", "local[2]", sql);
    Run duck = ok("query", "--workspace", ws, "--analyst", "ann", "--format", "json", sql);
    assertEquals(expected, released(spark.out(), "n_name", "items"), spark.out());
    assertEquals(expected, released(duck.out(), "n_name", "items"), duck.out());

    // A private–private join not along a reference: refused alike on both backends, nothing charged.
    String bad = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM lineitem"
        + " JOIN customer ON l_orderkey = c_custkey";
    Run refusedSpark = privet("query", "--workspace", ws, "--spark-master", "local[2]", bad);
    Run refusedDuck = privet("query", "--workspace", ws, bad);
    assertEquals(ExitCodes.REFUSED, refusedSpark.code(), refusedSpark.toString());
    assertEquals(refusedDuck, refusedSpark);
    assertTrue(refusedSpark.err().contains("only along a registered reference"), refusedSpark.err());
    try (Ledger ledger = Ledger.open(Path.of(ws))) {
      assertEquals(2, ledger.history("shop").size(), "the two queries charged; the refusals did not");
      assertEquals(List.of(new TableReference("c_nationkey", "customer", "n_nationkey")),
          ledger.tables("shop").get(3).spec().incoming());
    }
  }
}
