package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;
import org.privet.testing.TestPostgres;

/**
 * {@code dataset add-table} checks on the data that each reference's target column is a key of its
 * table (the joins proof's precondition, docs/proofs/engine-joins.md): a target with a duplicate
 * non-NULL value is refused (exit USAGE, naming {@code references} and the column, never the
 * value) and nothing is stored; NULL targets are allowed. On CSV (compared as the registered types
 * read them), Parquet, and PostgreSQL tables (TestPostgres, the check runs in the database). The
 * README's TPC-H tables pass the check in {@code ReadmeSeveralTablesTest}.
 */
class ReferenceKeysCommandTest {
  /** The duplicated key: no message may repeat it. */
  private static final String DUPLICATE = "987654";

  @TempDir Path dir;
  Path ws;

  @BeforeEach
  void files() throws Exception {
    ws = dir.resolve("ws");
    Files.writeString(dir.resolve("customer.csv"), "c_custkey,c_name\n1,Customer#1\n2,Customer#2\n3,Customer#3\n");
    Files.writeString(dir.resolve("lineitem.csv"), "l_orderkey,l_quantity\n" + DUPLICATE + ",3\n11,1\n12,7\n");
  }

  private Path file(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  private CliRun run(String... args) {
    List<String> a = new ArrayList<>(List.of("dataset", args[0], "--workspace", ws.toString()));
    a.addAll(List.of(args).subList(1, args.length));
    return CliRun.of(a.toArray(String[]::new));
  }

  private static CliRun ok(CliRun r) {
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return r;
  }

  private void registerCustomer(Path customer) {
    ok(run("register", "--name", "shop", "--source", customer.toString(), "--table-name", "customer",
        "--privacy-unit", "c_custkey", "--epsilon", "10"));
  }

  private List<String> tableNames() {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.tables("shop").stream().map(DatasetTable::name).toList();
    }
  }

  private static void assertNotAKey(CliRun r, String column, String table) {
    assertEquals(ExitCodes.USAGE, r.code(), r.toString());
    assertTrue(r.err().contains("references: " + column + " is not a key of " + table
        + ": it has duplicate values"), r.err());
    assertFalse(r.err().contains(DUPLICATE) || r.out().contains(DUPLICATE), "no data value: " + r);
  }

  @Test
  void addTable_csvTargetWithDuplicateKey_refusedNothingStored() throws Exception {
    registerCustomer(dir.resolve("customer.csv"));
    // Two orders of two customers share a key; " 0987654" is the same integer as the registered
    // type reads it (a join compares typed values), so the text differs but the key does not.
    ok(run("add-table", "--dataset", "shop", "--name", "orders", "--source",
        file("orders.csv", "o_orderkey,o_custkey\n" + DUPLICATE + ",1\n11,1\n\" 0" + DUPLICATE + "\",2\n").toString(),
        "--schema", "o_orderkey:integer,o_custkey:integer", "--references", "o_custkey=customer.c_custkey"));
    CliRun r = run("add-table", "--dataset", "shop", "--name", "lineitem", "--source",
        dir.resolve("lineitem.csv").toString(), "--references", "l_orderkey=orders.o_orderkey");
    assertNotAKey(r, "orders.o_orderkey", "orders");
    assertEquals(List.of("customer", "orders"), tableNames(), "a refused table stores nothing");
    // The same table, referencing a key, is then added.
    ok(run("add-table", "--dataset", "shop", "--name", "lineitem", "--source",
        dir.resolve("lineitem.csv").toString(), "--references", "l_orderkey=customer.c_custkey"));
    assertEquals(List.of("customer", "orders", "lineitem"), tableNames());
  }

  @Test
  void addTable_unitTableWithDuplicateUnit_refused() throws Exception {
    registerCustomer(file("customer2.csv", "c_custkey,c_name\n" + DUPLICATE + ",a\n2,b\n" + DUPLICATE + ",c\n"));
    CliRun r = run("add-table", "--dataset", "shop", "--name", "orders", "--source",
        file("orders.csv", "o_orderkey,o_custkey\n10,2\n").toString(), "--references", "o_custkey=customer.c_custkey");
    assertNotAKey(r, "customer.c_custkey", "customer");
    assertEquals(List.of("customer"), tableNames());
  }

  /**
   * The engine reads a row's unit from its reference to the unit table. Were that reference to name
   * another key of the unit table (each customer row's c_name here), a unit with three rows would
   * count as three units, its COUNT contribution 3 under a bound of 1: so it is refused, from the
   * registration alone, before the data is read.
   */
  @Test
  void addTable_referenceToUnitTableNotItsUnitColumn_refused() throws Exception {
    registerCustomer(file("customer3.csv", "c_custkey,c_name\n1,a\n1,b\n1,c\n2,d\n"));
    CliRun r = run("add-table", "--dataset", "shop", "--name", "orders", "--source",
        file("orders.csv", "o_orderkey,o_name\n10,a\n11,b\n12,c\n13,d\n").toString(),
        "--references", "o_name=customer.c_name");
    assertEquals(ExitCodes.USAGE, r.code(), r.toString());
    assertTrue(r.err().contains("references: orders.o_name references the unit table 'customer', so it must"
        + " reference its privacy unit column customer.c_custkey, not customer.c_name"), r.err());
    assertEquals(List.of("customer"), tableNames());
  }

  @Test
  void addTable_nullTargetsAndUniqueValues_accepted() throws Exception {
    registerCustomer(dir.resolve("customer.csv"));
    // Two NULL keys (an empty field, and text that is no integer, read as NULL) match nothing.
    ok(run("add-table", "--dataset", "shop", "--name", "orders", "--source",
        file("orders.csv", "o_orderkey,o_custkey\n" + DUPLICATE + ",1\n,1\nnone,2\n11,3\n").toString(),
        "--schema", "o_orderkey:integer,o_custkey:integer", "--references", "o_custkey=customer.c_custkey"));
    ok(run("add-table", "--dataset", "shop", "--name", "lineitem", "--source",
        dir.resolve("lineitem.csv").toString(), "--references", "l_orderkey=orders.o_orderkey"));
    assertEquals(List.of("customer", "orders", "lineitem"), tableNames());
  }

  @Test
  void addTable_publicTargetWithDuplicateKey_refused() throws Exception {
    registerCustomer(dir.resolve("customer.csv"));
    ok(run("add-table", "--dataset", "shop", "--name", "nation", "--source",
        file("nation.csv", "n_nationkey,n_name\n7,FRANCE\n7,PERU\n").toString(), "--public"));
    CliRun r = run("add-table", "--dataset", "shop", "--name", "orders", "--source",
        file("orders.csv", "o_orderkey,o_custkey,o_nation\n10,1,7\n").toString(),
        "--references", "o_custkey=customer.c_custkey", "--references", "o_nation=nation.n_nationkey");
    assertNotAKey(r, "nation.n_nationkey", "nation");
    assertEquals(List.of("customer", "nation"), tableNames());
  }

  @Test
  void addTable_parquetTargetWithDuplicateKey_refused() throws Exception {
    registerCustomer(dir.resolve("customer.csv"));
    Path parquet = dir.resolve("orders.parquet");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT * FROM (VALUES (" + DUPLICATE + ", 1), (11, 2), (" + DUPLICATE + ", 3))"
          + " AS t(o_orderkey, o_custkey)) TO '" + parquet + "' (FORMAT PARQUET)");
    }
    ok(run("add-table", "--dataset", "shop", "--name", "orders", "--source", parquet.toString(),
        "--references", "o_custkey=customer.c_custkey"));
    assertNotAKey(run("add-table", "--dataset", "shop", "--name", "lineitem", "--source",
        dir.resolve("lineitem.csv").toString(), "--references", "l_orderkey=orders.o_orderkey"),
        "orders.o_orderkey", "orders");
    assertEquals(List.of("customer", "orders"), tableNames());
  }

  @Test
  void addTable_postgresTargetWithDuplicateKey_refusedInTheDatabase_thenAcceptedOnceUnique() throws Exception {
    String full = TestPostgres.server().newDatabase();
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA tpch");
      s.execute("CREATE TABLE tpch.customer (c_custkey bigint, c_name text)");
      s.execute("CREATE TABLE tpch.orders (\"O_OrderKey\" bigint, o_custkey bigint)");
      s.execute("CREATE TABLE tpch.lineitem (l_orderkey bigint, l_quantity integer)");
      s.execute("INSERT INTO tpch.customer VALUES (1, 'a'), (2, 'b'), (3, 'c')");
      s.execute("INSERT INTO tpch.orders VALUES (" + DUPLICATE + ", 1), (11, 1), (" + DUPLICATE + ", 2),"
          + " (NULL, 3), (NULL, 3)");
      s.execute("INSERT INTO tpch.lineitem VALUES (" + DUPLICATE + ", 3), (11, 1)");
    }
    String url = full.substring(0, full.indexOf('?'));
    ok(run("register", "--name", "shop", "--table-name", "customer", "--jdbc-url", url, "--table", "tpch.customer",
        "--db-user", "postgres", "--privacy-unit", "c_custkey", "--epsilon", "10"));
    ok(run("add-table", "--dataset", "shop", "--name", "orders", "--table", "tpch.orders",
        "--references", "o_custkey=customer.c_custkey"));
    assertNotAKey(run("add-table", "--dataset", "shop", "--name", "lineitem", "--table", "tpch.lineitem",
        "--references", "l_orderkey=orders.o_orderkey"), "orders.O_OrderKey", "orders");
    assertEquals(List.of("customer", "orders"), tableNames());
    try (Connection c = DriverManager.getConnection(full); Statement s = c.createStatement()) {
      s.execute("DELETE FROM tpch.orders WHERE o_custkey = 2");
    }
    ok(run("add-table", "--dataset", "shop", "--name", "lineitem", "--table", "tpch.lineitem",
        "--references", "l_orderkey=orders.o_orderkey"));
    assertEquals(List.of("customer", "orders", "lineitem"), tableNames());
  }
}
