package org.privet.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.accounting.PureDp;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.Role;
import org.privet.ledger.SourceFormat;

/**
 * POST /v1/datasets over real HTTP with Parquet <em>directories</em> as sources (issue 25), as
 * {@code --source DIR} on the CLI: the unit table and a further table written by real DuckDB's
 * {@code COPY ... (FORMAT PARQUET, PER_THREAD_OUTPUT)} (a table's format defaults to Parquet for a
 * directory). Bad directories (a stray text file, part files with different columns, no part
 * file, a directory given with format csv) are refused with 400 naming the JSON field ({@code
 * source}, {@code tables[1].source}), showing no data value, storing nothing. The registered
 * dataset's join releases the plain join's counts, computed here by DuckDB SQL over the original
 * CSV files.
 */
class ParquetDirectoryApiTest {
  @TempDir Path dir;

  /** Writes {@code csv} as a directory of Parquet part files with DuckDB's PER_THREAD_OUTPUT. */
  private Path duckDbParts(String csv, String name) {
    Path out = dir.resolve(name);
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("SET threads = 2");
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve(csv) + "', header = true)) TO '"
          + out + "' (FORMAT PARQUET, PER_THREAD_OUTPUT)");
    }
    return out;
  }

  private static boolean allParquet(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.allMatch(p -> p.getFileName().toString().endsWith(".parquet"));
    }
  }

  @Test
  void registerDataset_parquetDirectories_checkedLikeTheCliAndQueriedLikeThePlainJoin() throws Exception {
    Files.writeString(dir.resolve("customer.csv"),
        "c_custkey,c_name,c_nationkey\n1,Secret#1,7\n2,b,8\n3,c,7\n4,d,9\n5,e,7\n");
    Files.writeString(dir.resolve("orders.csv"), "o_orderkey,o_custkey,o_totalprice\n10,1,9.5\n"
        + "11,1,3.0\n12,3,4.25\n13,2,1.0\n14,4,2.0\n15,5,8.0\n16,5,1.5\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n8,PERU\n9,CHINA\n10,KENYA\n");
    Files.writeString(dir.resolve("other.csv"), "k,w\n1,2.5\n");
    Path customer = duckDbParts("customer.csv", "customer_parts");
    Path orders = duckDbParts("orders.csv", "orders_parts");
    assertTrue(allParquet(customer) && allParquet(orders), "DuckDB wrote part files only");
    Path text = duckDbParts("nation.csv", "text");
    Files.writeString(text.resolve("notes.txt"), "FRANCE");
    Path mixed = Files.createDirectory(dir.resolve("mixed"));
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("nation.csv") + "')) TO '"
          + mixed.resolve("part-0.parquet") + "' (FORMAT PARQUET)");
      db.execute("COPY (SELECT * FROM read_csv('" + dir.resolve("other.csv") + "')) TO '"
          + mixed.resolve("part-1.parquet") + "' (FORMAT PARQUET)");
    }
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Files.writeString(empty.resolve("_SUCCESS"), "");

    Path ws = dir.resolve("ws");
    String boss;
    String alice;
    try (Ledger ledger = Ledger.open(ws)) {
      boss = ledger.addAnalyst("boss", Role.CURATOR).apiKey();
      alice = ledger.addAnalyst("alice", Role.ANALYST).apiKey();
    }
    // The body: the unit table from `unit`, orders from `ordersSource` (no format: Parquet for a
    // directory), nation from `nationSource` (format from `nationFormat`, if given).
    java.util.function.Function<String[], String> body = s -> {
      ObjectNode b = LedgerJson.dataset(DatasetSpec.builder().name("shop").source(s[0])
          .format(s[0].endsWith(".csv") ? SourceFormat.CSV : SourceFormat.PARQUET)
          .privacyUnit(PrivacyUnit.column("c_custkey")).budget(new PureDp(10_000_000)).build());
      b.put("tableName", "customer");
      ArrayNode tables = b.putArray("tables");
      tables.addObject().put("name", "orders").put("source", s[1]).putArray("references")
          .add("o_custkey=customer.c_custkey");
      ObjectNode nation = tables.addObject().put("name", "nation").put("source", s[2]).put("public", true);
      if (s.length > 3) {
        nation.put("format", s[3]);
      }
      nation.putArray("referencedBy").add("n_nationkey=customer.c_nationkey");
      return b.toString();
    };
    String c = customer.toString();
    String o = orders.toString();
    String n = dir.resolve("nation.csv").toString();
    String[][] refused = {
        {body.apply(new String[] {empty.toString(), o, n}), "source: directory 'empty' holds no Parquet part file"},
        {body.apply(new String[] {c, o, text.toString()}),
            "tables[1].source: directory 'text' holds 'notes.txt', which is not a Parquet part file"},
        {body.apply(new String[] {c, mixed.toString(), n}),
            "tables[0].source: the part files of directory 'mixed' do not all have the same columns"},
        {body.apply(new String[] {c, o, customer.toString(), "csv"}),
            "tables[1].source: a directory is read as Parquet part files; format csv needs a file"},
        {body.apply(new String[] {c, o, dir.resolve("nowhere").toString()}),
            "tables: source of 'nation' must be an absolute path to a file"}};
    try (PrivetServer server = PrivetServer.start(ServerOptions.builder(ws).port(0).workers(1).build())) {
      Api api = new Api(server.url());
      for (String[] r : refused) {
        Api.Response res = api.post("/v1/datasets", boss, r[0]);
        assertEquals(400, res.status(), res.text());
        assertTrue(res.json().path("error").path("message").asText().contains(r[1]), res.text());
        assertFalse(res.text().contains("Secret") || res.text().contains("FRANCE")
            || res.text().contains("2.5"), "no value: " + res.text());
        assertEquals(0, api.get("/v1/datasets", boss).json().size(), "a refused registration stores nothing");
      }

      Api.Response reg = api.post("/v1/datasets", boss, body.apply(new String[] {c, o, n}));
      assertEquals(201, reg.status(), reg.text());
      JsonNode tables = reg.json().get("tables");
      assertEquals("parquet", tables.get(0).get("format").asText(), reg.text());
      assertEquals("parquet", tables.get(1).get("format").asText(), "a directory is Parquet: " + reg.text());
      assertEquals(201, api.post("/v1/grants", boss,
          "{\"dataset\":\"shop\",\"analyst\":\"alice\",\"epsilon\":1000000}").status());

      // The reference: the plain join over the original CSV files.
      Map<String, Long> expected = Fixture.plainCounts("SELECT n.n_name, COUNT(o.o_orderkey) FROM read_csv('"
          + dir.resolve("nation.csv") + "') n LEFT JOIN read_csv('" + dir.resolve("customer.csv")
          + "') c ON c.c_nationkey = n.n_nationkey LEFT JOIN read_csv('" + dir.resolve("orders.csv")
          + "') o ON o.o_custkey = c.c_custkey GROUP BY n.n_name");
      assertEquals(Map.of("CHINA", 1L, "FRANCE", 5L, "KENYA", 0L, "PERU", 1L), expected);
      // At ε = 10^6 with at most 1 group and 2 rows per unit the counts' noise is 0 except with
      // probability below 10^-100000; no customer has more than 2 orders (nothing truncated).
      Api.Response q = api.query(alice, "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
          + " max_groups_contributed = 1, max_rows_per_group = 2) n_name, COUNT(*) AS n FROM orders"
          + " JOIN customer ON o_custkey = c_custkey JOIN nation ON c_nationkey = n_nationkey"
          + " GROUP BY n_name", null);
      assertEquals(200, q.status(), q.text());
      assertEquals(expected, q.roundedByGroup("n_name", "n"), q.text());
    }
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(3, ledger.tables("shop").size());
    }
  }
}
