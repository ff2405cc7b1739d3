package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privet.hostile.CliCommands.ok;
import static org.privet.hostile.CliCommands.privet;
import static org.privet.hostile.CliCommands.released;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.ExitCodes;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.hostile.CliCommands.Run;
import org.privet.ledger.Ledger;

/**
 * Parquet <em>directories</em> as {@code --source} (issue 25): a table written by real Spark
 * ({@code DataFrameWriter.parquet}: part files, {@code _SUCCESS}, {@code .crc} files) registered
 * with {@code dataset register}, one written by DuckDB's {@code COPY ... (FORMAT PARQUET,
 * PER_THREAD_OUTPUT)} and another Spark one added with {@code dataset add-table}; the dataset
 * queried on DuckDB and on Spark ({@code --spark-master local[2]}) releases the plain join's
 * counts computed here by DuckDB SQL over the original CSV files, and still does on both backends
 * after stray files are dropped into the registered directories. Bad directories (empty, only
 * Spark's marker files, no Parquet file, mixed schemas, a subdirectory) are refused at
 * registration with an error naming {@code --source}, exit code USAGE, and nothing stored.
 */
class ParquetDirectorySourceTest {
  @TempDir Path dir;

  /** Writes {@code csv} as Parquet with real Spark, in two part files. */
  private Path sparkParquet(Path csv, String name) {
    Path out = dir.resolve(name);
    LocalSpark.session().read().option("header", "true").option("inferSchema", "true")
        .csv(csv.toString()).repartition(2).write().parquet(out.toString());
    return out;
  }

  private static List<String> entries(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void registerAndAddTable_parquetDirectoriesOfSparkAndDuckDb_queryLikeThePlainJoinOnBothBackends()
      throws Exception {
    Files.writeString(dir.resolve("customer.csv"),
        "c_custkey,c_name,c_nationkey\n1,a,7\n2,b,8\n3,c,7\n4,d,9\n5,e,7\n");
    Files.writeString(dir.resolve("orders.csv"), "o_orderkey,o_custkey,o_totalprice\n10,1,9.5\n"
        + "11,1,3.0\n12,3,4.25\n13,2,1.0\n14,4,2.0\n15,5,8.0\n16,5,1.5\n");
    Files.writeString(dir.resolve("lineitem.csv"), "l_orderkey,l_quantity\n10,3\n10,1\n11,2\n"
        + "12,7\n13,1\n13,5\n14,2\n15,4\n16,1\n16,2\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n8,PERU\n9,CHINA\n"
        + "10,KENYA\n");
    Path customer = sparkParquet(dir.resolve("customer.csv"), "customer_spark");
    Path lineitem = sparkParquet(dir.resolve("lineitem.csv"), "lineitem_spark");
    List<String> written = entries(customer);
    assertTrue(written.contains("_SUCCESS") && written.stream().anyMatch(n -> n.endsWith(".crc"))
        && written.stream().filter(n -> n.startsWith("part-") && n.endsWith(".parquet")).count()
        == 2, "Spark's layout: two part files, _SUCCESS and .crc files: " + written);
    Path orders = dir.resolve("orders_duckdb");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("SET threads = 2");
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("orders.csv") + "', header = true))"
          + " TO '" + orders + "' (FORMAT PARQUET, PER_THREAD_OUTPUT)");
    }
    assertTrue(entries(orders).stream().allMatch(n -> n.endsWith(".parquet")), "" + entries(orders));

    String ws = dir.resolve("ws").toString();
    ok("dataset", "register", "--workspace", ws, "--name", "shop", "--table-name", "customer",
        "--source", customer.toString(), "--privacy-unit", "c_custkey", "--epsilon", "10000000");
    ok("dataset", "add-table", "--workspace", ws, "--dataset", "shop", "--name", "orders",
        "--source", orders.toString(), "--references", "o_custkey=customer.c_custkey");
    ok("dataset", "add-table", "--workspace", ws, "--dataset", "shop", "--name", "lineitem",
        "--source", lineitem.toString(), "--references", "l_orderkey=orders.o_orderkey");
    ok("dataset", "add-table", "--workspace", ws, "--dataset", "shop", "--name", "nation",
        "--source", dir.resolve("nation.csv").toString(), "--public", "--referenced-by",
        "n_nationkey=customer.c_nationkey");

    // The reference: the plain join over the original CSV files.
    Map<String, Long> expected = new TreeMap<>();
    try (DuckDbBackend db = DuckDbBackend.inMemory();
        java.sql.Statement st = db.trustedConnection().createStatement();
        java.sql.ResultSet r = st.executeQuery("SELECT n.n_name, COUNT(l.l_orderkey) FROM read_csv('"
            + dir.resolve("nation.csv") + "') n LEFT JOIN read_csv('" + dir.resolve("customer.csv")
            + "') c ON c.c_nationkey = n.n_nationkey LEFT JOIN read_csv('" + dir.resolve("orders.csv")
            + "') o ON o.o_custkey = c.c_custkey LEFT JOIN read_csv('" + dir.resolve("lineitem.csv")
            + "') l ON l.l_orderkey = o.o_orderkey GROUP BY n.n_name")) {
      while (r.next()) {
        expected.put(r.getString(1), r.getLong(2));
      }
    }
    assertEquals(Map.of("CHINA", 1L, "FRANCE", 7L, "KENYA", 0L, "PERU", 2L), expected);
    // At ε = 10^6 with at most 1 group and 4 rows per unit the counts' noise is 0 except with
    // probability below 10^-100000; every customer has at most 4 line items (nothing truncated).
    String sql = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
        + " max_groups_contributed = 1, max_rows_per_group = 4) n_name, COUNT(*) AS items FROM"
        + " lineitem JOIN orders ON l_orderkey = o_orderkey JOIN customer ON o_custkey = c_custkey"
        + " JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name";
    Run duck = ok("query", "--workspace", ws, "--analyst", "ann", "--format", "json", sql);
    Run spark = ok("query", "--workspace", ws, "--analyst", "ann", "--format", "json",
        "--spark-master", "local[2]", sql);
    assertEquals(expected, released(duck.out(), "n_name", "items"), duck.out());
    assertEquals(expected, released(spark.out(), "n_name", "items"), spark.out());

    // Files the curator drops into registered directories later (a text file, a subdirectory
    // holding a copy of a part file): both backends read exactly the part files listed at query
    // time (Source.ParquetFile#partFiles), so both still answer, equal to the reference; Spark
    // reading the whole directory failed on them, after the charge.
    Files.writeString(customer.resolve("notes.txt"), "not parquet");
    Path staging = Files.createDirectory(lineitem.resolve("staging"));
    try (Stream<Path> parts = Files.list(lineitem)) {
      Path part = parts.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
      Files.copy(part, staging.resolve(part.getFileName()));
    }
    Run duckAfter = ok("query", "--workspace", ws, "--analyst", "ann", "--format", "json", sql);
    Run sparkAfter = ok("query", "--workspace", ws, "--analyst", "ann", "--format", "json",
        "--spark-master", "local[2]", sql);
    assertEquals(expected, released(duckAfter.out(), "n_name", "items"), duckAfter.out());
    assertEquals(expected, released(sparkAfter.out(), "n_name", "items"), sparkAfter.out());
  }

  @Test
  void register_badParquetDirectories_refusedNamingSourceAndNothingStored() throws Exception {
    Files.writeString(dir.resolve("a.csv"), "k,v\n1,x\n2,y\n");
    Files.writeString(dir.resolve("b.csv"), "k,w\n1,2.5\n");
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Path markers = Files.createDirectory(dir.resolve("markers"));
    Files.writeString(markers.resolve("_SUCCESS"), "");
    Files.writeString(markers.resolve(".part-0.parquet.crc"), "crc");
    Path text = Files.createDirectory(dir.resolve("text"));
    Files.writeString(text.resolve("notes.txt"), "not parquet");
    Path mixed = Files.createDirectory(dir.resolve("mixed"));
    Path nested = Files.createDirectory(dir.resolve("nested"));
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("a.csv") + "')) TO '"
          + mixed.resolve("part-0.parquet") + "' (FORMAT PARQUET)");
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("b.csv") + "')) TO '"
          + mixed.resolve("part-1.parquet") + "' (FORMAT PARQUET)");
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("a.csv") + "')) TO '"
          + nested.resolve("part-0.parquet") + "' (FORMAT PARQUET)");
      Files.createDirectory(nested.resolve("k=1"));
    }
    String ws = dir.resolve("ws").toString();
    Map<Path, String> cases = Map.of(
        empty, "--source: directory 'empty' holds no Parquet part file",
        markers, "--source: directory 'markers' holds no Parquet part file",
        text, "--source: directory 'text' holds 'notes.txt', which is not a Parquet part file",
        mixed, "--source: the part files of directory 'mixed' do not all have the same columns",
        nested, "--source: directory 'nested' holds a subdirectory 'k=1'");
    for (Map.Entry<Path, String> c : cases.entrySet()) {
      Run r = privet("dataset", "register", "--workspace", ws, "--name", "d", "--source",
          c.getKey().toString(), "--privacy-unit", "k", "--epsilon", "1");
      assertEquals(ExitCodes.USAGE, r.code(), r.toString());
      assertTrue(r.err().contains(c.getValue()), r.err());
      assertFalse(r.err().contains("x") && r.err().contains("2.5"), "no value: " + r.err());
    }
    // A directory with --source-format csv is refused too.
    Run csv = privet("dataset", "register", "--workspace", ws, "--name", "d", "--source",
        mixed.toString(), "--source-format", "csv", "--privacy-unit", "k", "--epsilon", "1");
    assertEquals(ExitCodes.USAGE, csv.code(), csv.toString());
    assertTrue(csv.err().contains("--source: a directory is read as Parquet part files"), csv.err());
    if (Files.exists(Path.of(ws))) {
      try (Ledger ledger = Ledger.open(Path.of(ws))) {
        assertTrue(ledger.datasets().isEmpty(), "nothing stored");
      }
    }
  }
}
