package org.privet.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.privet.accounting.PureDp;

/**
 * Multi-table datasets (issue 25, item 1) in the ledger, on each store: tables kept in order with
 * their schemas, references and public flags; append-only; every refusal names its parameter and
 * stores nothing.
 */
class DatasetTablesTest extends OnEachStore {
  static final RegisteredSchema CUSTOMER = RegisteredSchemaTest.schema(
      "c_custkey:integer,c_name:string,c_nationkey:integer", RegisteredSchema.Origin.INFERRED);
  static final RegisteredSchema ORDERS = RegisteredSchemaTest.schema(
      "o_orderkey:integer,o_custkey:integer,o_totalprice:double", RegisteredSchema.Origin.INFERRED);
  static final RegisteredSchema LINEITEM = RegisteredSchemaTest.schema(
      "l_orderkey:integer,l_quantity:double,l_comment:string", RegisteredSchema.Origin.INFERRED);
  static final RegisteredSchema NATION = RegisteredSchemaTest.schema(
      "n_nationkey:integer,n_name:string", RegisteredSchema.Origin.DECLARED);

  static DatasetSpec shop(String name) {
    return DatasetSpec.builder().name(name).source("/data/customer.csv")
        .privacyUnit(PrivacyUnit.column("c_custkey")).budget(new PureDp(10)).build();
  }

  static TableSpec file(String name, boolean isPublic, String... references) {
    return new TableSpec(name, "/data/" + name + ".csv", SourceFormat.CSV, CsvOptions.DEFAULT,
        Optional.empty(), java.util.Arrays.stream(references).map(TableReference::parse).toList(), isPublic);
  }

  /** The four commands of the README's "Several tables", through the ledger. */
  private void registerShop() {
    ledger.register(shop("shop"), CUSTOMER, "customer");
    ledger.addTable("shop", file("orders", false, "o_custkey=customer.c_custkey"), ORDERS);
    ledger.addTable("shop", file("lineitem", false, "l_orderkey=orders.o_orderkey"), LINEITEM);
    ledger.addTable("shop", file("nation", true), NATION);
  }

  @Test
  void addTable_chainOfReferencesAndAPublicTable_roundTripsInOrder() {
    registerShop();
    ledger.close();
    ledger = where.open();
    List<DatasetTable> tables = ledger.tables("SHOP");
    assertEquals(List.of("customer", "orders", "lineitem", "nation"),
        tables.stream().map(DatasetTable::name).toList());
    assertTrue(tables.get(0).unitTable());
    assertEquals("/data/customer.csv", tables.get(0).spec().source());
    assertEquals(Optional.of(CUSTOMER), tables.get(0).schema());
    assertEquals(List.of(new TableReference("o_custkey", "customer", "c_custkey")),
        tables.get(1).spec().references());
    assertEquals(Optional.of(ORDERS), tables.get(1).schema());
    assertEquals(List.of(new TableReference("l_orderkey", "orders", "o_orderkey")),
        tables.get(2).spec().references());
    assertTrue(tables.get(3).spec().isPublic());
    assertEquals(List.of(), tables.get(3).spec().references());
    assertEquals(Optional.of(NATION), tables.get(3).schema());
    assertFalse(tables.get(1).unitTable() || tables.get(1).spec().isPublic());
    // One dataset, one budget: the tables add nothing to the datasets' list.
    assertEquals(List.of("shop"), ledger.datasets().stream().map(DatasetSpec::name).toList());
  }

  @Test
  void addTable_privateTableReferencingAPublicOneToo_keepsBothReferences() {
    registerShop();
    ledger.addTable("shop", file("supplier", false, "s_nationkey=nation.n_nationkey", "s_custkey=customer.c_custkey"),
        RegisteredSchemaTest.schema("s_custkey:integer,s_nationkey:integer", RegisteredSchema.Origin.DECLARED));
    assertEquals(List.of(new TableReference("s_nationkey", "nation", "n_nationkey"),
        new TableReference("s_custkey", "customer", "c_custkey")), ledger.tables("shop").get(4).spec().references());
  }

  @Test
  void addTable_referencesSpelledOtherwise_storedAsTheSchemasSpellThem() {
    ledger.register(shop("shop"), CUSTOMER, "customer");
    DatasetTable t = ledger.addTable("shop", file("orders", false, "O_CUSTKEY=Customer.C_CustKey"), ORDERS);
    assertEquals(List.of(new TableReference("o_custkey", "customer", "c_custkey")), t.spec().references());
    assertEquals(t.spec().references(), ledger.tables("shop").get(1).spec().references());
  }

  /**
   * A dataset registered without a table name: its one table follows its name until a table is
   * added; from then on the unit table keeps the name its references were checked against.
   */
  @Test
  void tables_datasetWithoutTableName_unitTableNamedAsTheDatasetWhenItsFirstTableIsAdded() {
    ledger.register(shop("customer"), CUSTOMER);
    ledger.renameDataset("customer", "Customer2");
    assertEquals(List.of("Customer2"), names("customer2"), "one table: named as the dataset");
    ledger.addTable("customer2", file("orders", false, "o_custkey=Customer2.c_custkey"), ORDERS);
    ledger.renameDataset("Customer2", "clients");
    ledger.close();
    ledger = where.open();
    assertEquals(List.of("Customer2", "orders"), names("clients"));
    assertEquals(List.of(new TableReference("o_custkey", "Customer2", "c_custkey")),
        ledger.tables("clients").get(1).spec().references());
    ledger.addTable("clients", file("nation", true), NATION);
    assertEquals(List.of("clients"), ledger.datasetsWithTable("CUSTOMER2"));
    assertRefused("name", () -> ledger.renameDataset("clients", "Orders"));
    assertRefused("references: dataset 'clients' has no table 'clients'", () -> ledger.addTable("clients",
        file("lineitem", false, "l_orderkey=clients.c_custkey"), LINEITEM));
  }

  /**
   * A ledger written before the unit table's name was stored (no unit row; tables added across
   * renames, each checked against the dataset's name then): the unit table is named as the dataset
   * was when its first table was added (the rename history says which), every reference to it,
   * under either name, resolves to it, and the next added table stores that name.
   */
  @Test
  void tables_legacyLedgerRenamedBetweenAdds_unitTableNamedAtTheFirstAdd() throws SQLException {
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      legacyCustomerRenamedBetweenAdds(s);
      // Added after the rename under the dataset's former name (the old rules let it): a table of its own.
      legacyAdd(s, "Customer", "2026-01-04T00:00:00Z", file("Customer", true), NATION);
      legacyAdd(s, "refunds", "2026-01-05T00:00:00Z", file("refunds", false, "r_custkey=orders.o_custkey"),
          RegisteredSchemaTest.schema("r_custkey:integer", RegisteredSchema.Origin.DECLARED));
    }
    ledger.renameDataset("clients", "buyers");
    List<DatasetTable> tables = ledger.tables("buyers");
    // 'customer' was the unit table's name at the first add, but a table now goes by it: the
    // current name, never a table's, names the unit table.
    assertEquals(List.of("buyers", "orders", "payments", "Customer", "refunds"),
        tables.stream().map(DatasetTable::name).toList());
    assertEquals("o_custkey=buyers.c_custkey", tables.get(1).spec().references().get(0).toString());
    assertEquals("p_custkey=buyers.c_custkey", tables.get(2).spec().references().get(0).toString());
    assertEquals("r_custkey=orders.o_custkey", tables.get(4).spec().references().get(0).toString());
  }

  @Test
  void tables_legacyLedger_unitTableNamedAtTheFirstAddAndStoredWithTheNext() throws SQLException {
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      legacyCustomerRenamedBetweenAdds(s);
    }
    assertEquals(List.of("customer", "orders", "payments"), names("clients"));
    assertEquals("p_custkey=customer.c_custkey", ledger.tables("clients").get(2).spec().references().get(0).toString());
    ledger.addTable("clients", file("nation", true), NATION);
    ledger.renameDataset("clients", "buyers");
    assertEquals(List.of("customer", "orders", "payments", "nation"), names("buyers"));
    try (Connection c = where.raw(); Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery("SELECT name FROM dataset_tables WHERE spec IS NULL")) {
      assertTrue(r.next());
      assertEquals("customer", r.getString(1), "the derived name, stored with the next added table");
    }
    assertEquals(List.of("buyers"), ledger.datasetsWithTable("customer"));
  }

  /**
   * A ledger of the previous version: {@code customer} registered without a table name, orders
   * added referencing {@code customer}, the rename to {@code clients}, then payments added
   * referencing {@code clients} (checked against the then name); no unit-table row.
   */
  private void legacyCustomerRenamedBetweenAdds(Statement s) throws SQLException {
    ledger.register(shop("customer"), CUSTOMER);
    legacyAdd(s, "orders", "2026-01-01T00:00:00Z", file("orders", false, "o_custkey=customer.c_custkey"), ORDERS);
    s.executeUpdate("INSERT INTO dataset_renames(dataset, name, renamed_at)"
        + " VALUES ('customer', 'clients', '2026-01-02T00:00:00Z')");
    legacyAdd(s, "payments", "2026-01-03T00:00:00Z", file("payments", false, "p_custkey=clients.c_custkey"),
        RegisteredSchemaTest.schema("p_custkey:integer,p_amount:double", RegisteredSchema.Origin.DECLARED));
  }

  private static void legacyAdd(Statement s, String name, String time, TableSpec table, RegisteredSchema schema)
      throws SQLException {
    s.executeUpdate("INSERT INTO dataset_tables(dataset, name, spec, schema, added_at) VALUES ('customer', '"
        + name + "', '" + LedgerJson.write(LedgerJson.table(table)) + "', '"
        + LedgerJson.write(LedgerJson.schema(schema)) + "', '" + time + "')");
  }

  private List<String> names(String dataset) {
    return ledger.tables(dataset).stream().map(DatasetTable::name).toList();
  }

  @Test
  void addTable_refusals_nameTheParameterAndStoreNothing() {
    registerShop();
    List<DatasetTable> before = ledger.tables("shop");
    assertRefused("references: dataset 'shop' has no table 'order'",
        () -> ledger.addTable("shop", file("x", false, "l_orderkey=order.o_orderkey"), LINEITEM));
    assertRefused("references: column 'l_ordrkey' is not in the schema of table 'x'",
        () -> ledger.addTable("shop", file("x", false, "l_ordrkey=orders.o_orderkey"), LINEITEM));
    assertRefused("references: column 'o_key' is not in the schema of table 'orders'",
        () -> ledger.addTable("shop", file("x", false, "l_orderkey=orders.o_key"), LINEITEM));
    assertRefused("references: x.l_comment (string) cannot reference orders.o_orderkey (integer)",
        () -> ledger.addTable("shop", file("x", false, "l_comment=orders.o_orderkey"), LINEITEM));
    assertRefused("references: x.l_quantity (double) -> orders.o_orderkey (integer): a reference and its"
        + " target must not be of a floating type", () -> ledger.addTable("shop",
            file("x", false, "l_quantity=orders.o_orderkey"), LINEITEM));
    assertRefused("references: x.s_key (integer) -> orders.o_totalprice (double): a reference and its"
        + " target must not be of a floating type", () -> ledger.addTable("shop",
            file("x", false, "s_key=orders.o_totalprice"),
            RegisteredSchemaTest.schema("s_key:integer", RegisteredSchema.Origin.DECLARED)));
    assertRefused("references: table 'x' cannot reference itself",
        () -> ledger.addTable("shop", file("x", false, "l_orderkey=x.l_orderkey"), LINEITEM));
    assertRefused("references: a private table must reach the privacy unit",
        () -> ledger.addTable("shop", file("x", false), LINEITEM));
    assertRefused("references: a private table must reach the privacy unit",
        () -> ledger.addTable("shop", file("x", false, "l_orderkey=nation.n_nationkey"), LINEITEM));
    assertRefused("references: a private table reaches the privacy unit through exactly one reference"
        + " to a private table", () -> ledger.addTable("shop",
            file("x", false, "l_orderkey=orders.o_orderkey", "l_orderkey=customer.c_custkey"), LINEITEM));
    assertRefused("references: l_orderkey=nation.n_nationkey is given twice", () -> ledger.addTable("shop",
        file("x", false, "l_orderkey=orders.o_orderkey", "l_orderkey=nation.n_nationkey",
            "L_ORDERKEY=nation.n_nationkey"), LINEITEM));
    assertRefused("references: x.l_orderkey references the unit table 'customer', so it must reference"
        + " its privacy unit column customer.c_custkey, not customer.c_nationkey", () -> ledger.addTable("shop",
            file("x", false, "l_orderkey=customer.c_nationkey"), LINEITEM));
    assertRefused("references: x.l_orderkey references the unit table", () -> ledger.checkTable("shop",
        file("x", false, "l_orderkey=customer.c_nationkey"), LINEITEM));
    assertRefused("name: dataset 'shop' has a table named 'orders' already",
        () -> ledger.addTable("shop", file("ORDERS", false, "o_custkey=customer.c_custkey"), ORDERS));
    assertRefused("name: dataset 'shop' has a table named 'customer' already",
        () -> ledger.addTable("shop", file("Customer", true), NATION));
    assertRefused("name: a table cannot be named as its dataset",
        () -> ledger.addTable("shop", file("Shop", true), NATION));
    assertRefused("references: a public table has no references",
        () -> ledger.addTable("shop", file("x", true, "l_orderkey=orders.o_orderkey"), LINEITEM));
    assertRefused("jdbc-url: the tables of dataset 'shop' are files", () -> ledger.addTable("shop",
        new TableSpec("x", "public.x", SourceFormat.POSTGRES, CsvOptions.DEFAULT,
            Optional.of(new DatabaseSource("jdbc:postgresql://localhost:5432/shop", Optional.empty(),
                Optional.empty(), Optional.empty())), List.of(), true), NATION));
    assertRefused("name must be an identifier", () -> file("1x", true));
    assertRefused("references must look like COLUMN=TABLE.COLUMN", () -> TableReference.parse("a=b"));
    assertRefused("references must look like COLUMN=TABLE.COLUMN", () -> TableReference.parse("a=b.c.d"));
    assertThrows(UnknownDatasetException.class, () -> ledger.addTable("nope", file("x", true), NATION));
    assertEquals(before, ledger.tables("shop"), "a refused table stores nothing");
  }

  @Test
  void addTable_rowPrivacyDataset_takesPublicTablesOnly() {
    ledger.register(DatasetSpec.builder().name("people").source("/data/people.csv")
        .privacyUnit(PrivacyUnit.row()).budget(new PureDp(1)).build(), CUSTOMER);
    assertRefused("references: dataset 'people' protects each row (--row-privacy)",
        () -> ledger.addTable("people", file("orders", false, "o_custkey=people.c_custkey"), ORDERS));
    ledger.addTable("people", file("nation", true), NATION);
    assertEquals(List.of("people", "nation"), ledger.tables("people").stream().map(DatasetTable::name).toList());
  }

  @Test
  void addTable_datasetWithoutSchema_refusedUntilTheCuratorFixesOne() {
    ledger.register(shop("old"));
    assertRefused("dataset: 'old' has no public schema",
        () -> ledger.addTable("old", file("nation", true), NATION));
    assertEquals(1, ledger.tables("old").size());
    ledger.fixSchema("old", CUSTOMER);
    ledger.addTable("old", file("nation", true), NATION);
    assertEquals(2, ledger.tables("old").size());
  }

  @Test
  void register_badTableName_refusedNamingTheParameter() {
    assertRefused("tableName must be an identifier",
        () -> ledger.register(shop("shop"), CUSTOMER, "customer table"));
    assertEquals(List.of(), ledger.datasets());
  }

  @Test
  void datasetTables_updateAndDelete_refusedByTheStore() throws SQLException {
    registerShop();
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE dataset_tables SET name = 'x'"));
      assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE dataset_tables SET spec = NULL"));
      assertThrows(SQLException.class, () -> s.executeUpdate("DELETE FROM dataset_tables"));
      if (kind == TestLedger.Kind.POSTGRES) {
        assertThrows(SQLException.class, () -> s.executeUpdate("TRUNCATE dataset_tables"));
      }
      // A second unit-table row, or a name equal ignoring case, is refused by the store itself.
      assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO dataset_tables(dataset, name,"
          + " spec, schema, added_at) VALUES ('shop', 'other', NULL, NULL, 'now')"));
      assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO dataset_tables(dataset, name,"
          + " spec, schema, added_at) VALUES ('shop', 'ORDERS', '{}', '{}', 'now')"));
    }
    assertEquals(4, ledger.tables("shop").size());
  }

  @Test
  void addTable_sameNameFromSeveralConnectionsAtOnce_storedOnce() throws Exception {
    ledger.register(shop("shop"), CUSTOMER, "customer");
    int writers = 6;
    List<Ledger> ledgers = new java.util.ArrayList<>();
    for (int i = 0; i < writers; i++) {
      ledgers.add(where.open()); // a connection each, as separate processes would have
    }
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
    try {
      java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
      List<java.util.concurrent.Future<Boolean>> added = new java.util.ArrayList<>();
      for (int i = 0; i < writers; i++) {
        Ledger l = ledgers.get(i);
        String name = i % 2 == 0 ? "orders" : "ORDERS";
        added.add(pool.submit(() -> {
          go.await();
          try {
            l.addTable("shop", file(name, false, "o_custkey=customer.c_custkey"), ORDERS);
            return true;
          } catch (IllegalArgumentException e) {
            assertTrue(e.getMessage().startsWith("name: dataset 'shop' has a table named"), e.getMessage());
            return false;
          }
        }));
      }
      go.countDown();
      int successes = 0;
      for (var f : added) {
        successes += f.get() ? 1 : 0;
      }
      assertEquals(1, successes);
      assertEquals(2, ledger.tables("shop").size());
    } finally {
      pool.shutdownNow();
      ledgers.forEach(Ledger::close);
    }
  }

  /**
   * A dataset registered with its tables in one call (the server's POST /v1/datasets): stored
   * whole and read back as added one by one would be, the public table's referencedBy included;
   * a refused table anywhere in the list stores nothing, not even the dataset.
   */
  @Test
  void register_withTables_storedWholeOrNotAtAll() {
    TableSpec nation = new TableSpec("nation", "/data/nation.csv", SourceFormat.CSV, CsvOptions.DEFAULT,
        Optional.empty(), List.of(), true, List.of(TableReference.parse("N_NationKey=Customer.C_NationKey")));
    assertRefused("references: lineitem.l_quantity (double) -> orders.o_orderkey (integer)",
        () -> ledger.register(shop("shop"), CUSTOMER, "customer", List.of(
            new Ledger.NewTable(file("orders", false, "o_custkey=customer.c_custkey"), ORDERS),
            new Ledger.NewTable(nation, NATION),
            new Ledger.NewTable(file("lineitem", false, "l_quantity=orders.o_orderkey"), LINEITEM))));
    assertEquals(List.of(), ledger.datasets(), "nothing stored");
    List<DatasetTable> registered = ledger.register(shop("shop"), CUSTOMER, "customer", List.of(
        new Ledger.NewTable(file("orders", false, "o_custkey=customer.c_custkey"), ORDERS),
        new Ledger.NewTable(nation, NATION),
        new Ledger.NewTable(file("lineitem", false, "l_orderkey=orders.o_orderkey"), LINEITEM)));
    ledger.close();
    ledger = where.open();
    assertEquals(registered, ledger.tables("shop"));
    assertEquals(List.of(new TableReference("n_nationkey", "customer", "c_nationkey")),
        ledger.tables("shop").get(2).spec().referencedBy(), "spelled as the schemas spell the names");
    assertRefused("name: a dataset named 'shop' is already registered",
        () -> ledger.register(shop("shop"), CUSTOMER, "customer", List.of()));
  }

  @Test
  void open_ledgerWrittenBeforeTables_gainsTheTableAndKeepsItsDatasets() throws SQLException {
    ledger.register(shop("shop"), CUSTOMER);
    ledger.close();
    try (Connection c = where.raw(); Statement s = c.createStatement()) {
      s.executeUpdate("DROP TABLE dataset_tables"); // as a ledger of the previous version has none
    }
    ledger = where.open();
    assertEquals(List.of("shop"), ledger.tables("shop").stream().map(DatasetTable::name).toList());
    ledger.addTable("shop", file("orders", false, "o_custkey=shop.c_custkey"), ORDERS);
    assertEquals(2, ledger.tables("shop").size());
  }

  private static void assertRefused(String start, Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().startsWith(start), x.getMessage());
  }
}
