package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;

/**
 * Multi-table datasets through the CLI (issue 25, item 1): {@code dataset register --table-name},
 * {@code dataset add-table} with references or {@code --public}, and {@code dataset show} in text
 * and JSON, on small TPC-H-shaped files written here (CSV, and one table as Parquet); every refusal
 * exits USAGE naming its parameter, stores nothing, and names no data value.
 */
class DatasetTablesCommandTest extends DatasetWorkspace {
  /** A value in the data that no message may repeat. */
  private static final String SECRET = "Customer#Secret77";

  @BeforeEach
  void files() throws Exception {
    Files.writeString(dir.resolve("customer.csv"),
        "c_custkey,c_name,c_nationkey\n1," + SECRET + ",7\n2,Customer#2,8\n3,Customer#3,7\n");
    Files.writeString(dir.resolve("orders.csv"),
        "o_orderkey,o_custkey,o_totalprice\n10,1,99.5\n11,1,12.0\n12,3,40.25\n");
    Files.writeString(dir.resolve("lineitem.csv"),
        "l_orderkey,l_quantity,l_comment\n10,3,fast\n10,1,slow\n12,7,none\n");
    Files.writeString(dir.resolve("nation.csv"), "n_nationkey,n_name\n7,FRANCE\n8,PERU\n");
  }

  /** The four commands of the README's "Several tables". */
  private void registerShop(String lineitemSource) {
    registerShop(lineitemSource, "10");
  }

  private void registerShop(String lineitemSource, String epsilon) {
    ok(run("register", "--name", "shop", "--source", file("customer.csv"), "--table-name", "customer",
        "--privacy-unit", "c_custkey", "--epsilon", epsilon, "--delta", "1e-5"));
    ok(run("add-table", "--dataset", "shop", "--name", "orders", "--source", file("orders.csv"),
        "--references", "o_custkey=customer.c_custkey"));
    ok(run("add-table", "--dataset", "shop", "--name", "lineitem", "--source", lineitemSource,
        "--references", "l_orderkey=orders.o_orderkey"));
    ok(run("add-table", "--dataset", "shop", "--name", "nation", "--source", file("nation.csv"), "--public"));
  }

  @Test
  void addTable_fourTables_showListsThemWithReferencesAndPublicFlags() throws Exception {
    registerShop(file("lineitem.csv"));
    CliRun show = ok(run("show", "--name", "shop"));
    assertTrue(show.out().contains("table customer") && show.out().contains("holds the privacy unit (column c_custkey)"),
        show.out());
    assertTrue(show.out().contains("private, references o_custkey=customer.c_custkey; " + file("orders.csv")
        + "; schema o_orderkey:integer,o_custkey:integer,o_totalprice:double"), show.out());
    assertTrue(show.out().contains("private, references l_orderkey=orders.o_orderkey"), show.out());
    assertTrue(show.out().contains("public; " + file("nation.csv") + "; schema n_nationkey:integer,n_name:string"),
        show.out());

    JsonNode json = new ObjectMapper().readTree(ok(run("show", "--name", "shop", "--format", "json")).out());
    JsonNode tables = json.get("tables");
    assertEquals(4, tables.size(), json.toPrettyString());
    assertEquals("customer", tables.get(0).get("name").asText());
    assertEquals("c_custkey", tables.get(0).get("privacyUnit").asText());
    assertEquals("orders", tables.get(1).get("name").asText());
    assertEquals("references", tables.get(1).get("privacyUnit").asText());
    JsonNode ref = tables.get(2).get("references").get(0);
    assertEquals(List.of("l_orderkey", "orders", "o_orderkey"),
        List.of(ref.get("column").asText(), ref.get("table").asText(), ref.get("targetColumn").asText()));
    assertTrue(tables.get(3).get("public").asBoolean());
    assertTrue(tables.get(3).get("privacyUnit").isNull());
    assertEquals("n_name", tables.get(3).get("schema").get("columns").get(1).get("name").asText());
    // One dataset, one budget.
    JsonNode list = new ObjectMapper().readTree(ok(run("list", "--format", "json")).out());
    assertEquals(1, list.size());
    assertEquals(4, list.get(0).get("tables").size());
  }

  /**
   * One DP query over the registered tables (the join engine's, issue 25 item 2), checked against
   * the same join computed by plain SQL here. At ε = 10^6 and contribution bounds of 3 rows, the
   * counts' discrete noise has scale 3·10^-6: it is 0 except with probability below 10^-100000.
   */
  @Test
  void query_joinOverRegisteredTables_matchesThePlainJoinAndChargesOnce() throws Exception {
    registerShop(file("lineitem.csv"), "10000000");
    String plainJoin = " FROM read_csv('%s') l JOIN read_csv('%s') o ON l.l_orderkey = o.o_orderkey"
        .formatted(file("lineitem.csv"), file("orders.csv"))
        + " JOIN read_csv('%s') c ON o.o_custkey = c.c_custkey".formatted(file("customer.csv"));
    java.util.Map<String, Long> expected = duckDbCounts(java.util.Map.of("FRANCE", 0L, "PERU", 0L),
        "SELECT n.n_name, COUNT(*)" + plainJoin + " JOIN read_csv('" + file("nation.csv")
            + "') n ON c.c_nationkey = n.n_nationkey GROUP BY n.n_name");
    CliRun q = jsonQuery(
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000, delta = 1e-6,"
            + " max_groups_contributed = 1, max_rows_per_group = 3) n_name, COUNT(*) AS items"
            + " FROM lineitem JOIN orders ON l_orderkey = o_orderkey JOIN customer ON o_custkey = c_custkey"
            + " JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name");
    assertEquals(expected, released(q, "n_name", "items"), q.out());
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(1, ledger.history("shop").size());
    }
  }

  @Test
  void addTable_parquetSource_schemaReadFromTheFile() {
    Path parquet = dir.resolve("lineitem.parquet");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT * FROM read_csv('" + file("lineitem.csv") + "', header = true)) TO '"
          + parquet + "' (FORMAT PARQUET)");
    }
    registerShop(parquet.toString());
    DatasetTable lineitem = tables("shop").get(2);
    assertEquals(org.privet.ledger.SourceFormat.PARQUET, lineitem.spec().format());
    assertEquals("l_orderkey:integer,l_quantity:integer,l_comment:string", lineitem.schema().orElseThrow().toString());
  }

  @Test
  void addTable_refusals_exitUsageNameTheParameterStoreNothingAndShowNoData() {
    registerShop(file("lineitem.csv"));
    List<DatasetTable> before = tables("shop");
    assertRefused("references: dataset 'shop' has no table 'order'",
        "--name", "x", "--source", file("lineitem.csv"), "--references", "l_orderkey=order.o_orderkey");
    assertRefused("references: column 'o_key' is not in the schema of table 'orders'",
        "--name", "x", "--source", file("lineitem.csv"), "--references", "l_orderkey=orders.o_key");
    assertRefused("references: column 'l_key' is not in the schema of table 'x'",
        "--name", "x", "--source", file("lineitem.csv"), "--references", "l_key=orders.o_orderkey");
    assertRefused("references: x.l_comment (string) cannot reference orders.o_orderkey (integer)",
        "--name", "x", "--source", file("lineitem.csv"), "--references", "l_comment=orders.o_orderkey");
    assertRefused("references: table 'x' cannot reference itself",
        "--name", "x", "--source", file("lineitem.csv"), "--references", "l_orderkey=x.l_orderkey");
    assertRefused("references: a private table must reach the privacy unit",
        "--name", "x", "--source", file("lineitem.csv"));
    assertRefused("name: dataset 'shop' has a table named 'orders' already",
        "--name", "Orders", "--source", file("orders.csv"), "--references", "o_custkey=customer.c_custkey");
    assertRefused("references: a public table has no references",
        "--name", "x", "--source", file("nation.csv"), "--public", "--references", "n_nationkey=customer.c_nationkey");
    assertRefused("references must look like COLUMN=TABLE.COLUMN",
        "--name", "x", "--source", file("lineitem.csv"), "--references", "l_orderkey=orders");
    assertRefused("--table, --db-user and --db-password-* need --jdbc-url",
        "--name", "x", "--source", file("nation.csv"), "--public", "--table", "public.nation");
    CliRun unknown = run("add-table", "--dataset", "nope", "--name", "x", "--source", file("nation.csv"), "--public");
    assertEquals(ExitCodes.NOT_FOUND, unknown.code(), unknown.toString());
    assertEquals(before, tables("shop"), "a refused table stores nothing");
  }

  @Test
  void register_tableNameNotAnIdentifier_refusedAndNothingRegistered() {
    CliRun r = run("register", "--name", "shop", "--source", file("customer.csv"), "--table-name", "my table",
        "--privacy-unit", "c_custkey", "--epsilon", "1");
    assertEquals(ExitCodes.USAGE, r.code(), r.toString());
    assertTrue(r.err().contains("tableName must be an identifier"), r.err());
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(List.of(), ledger.datasets());
    }
  }

  private void assertRefused(String message, String... args) {
    assertAddTableRefused(SECRET, message, args);
  }
}
