package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;

/**
 * A multi-table dataset renamed with {@code privet dataset rename} (issues 23 and 25): its tables'
 * names are fixed like its schema, so the references stored with them keep resolving. A dataset
 * registered without {@code --table-name} calls its one table by its own name; when its first
 * table is added, that name is the unit table's, fixed from then on. Every refusal names its
 * parameter (or SQL position), charges nothing and repeats no data value.
 */
class RenamedTablesCommandTest extends DatasetWorkspace {
  /** A value in the data that no message may repeat. */
  private static final String SECRET = "Customer#Secret91";

  @BeforeEach
  void files() throws Exception {
    write("customer.csv", "c_custkey,c_name,c_nationkey\n1," + SECRET
        + ",7\n2,Customer#2,8\n3,Customer#3,7\n4,Customer#4,7\n");
    write("orders.csv", ORDERS_CSV);
    write("nation.csv", NATION_CSV);
  }

  private void register(String name, String... more) {
    List<String> a = new ArrayList<>(List.of("register", "--name", name, "--source", file("customer.csv"),
        "--privacy-unit", "c_custkey", "--epsilon", "10000000", "--delta", "1e-5"));
    a.addAll(List.of(more));
    ok(run(a.toArray(String[]::new)));
  }

  private void addOrdersAndNation(String dataset, String unitTable) {
    ok(run("add-table", "--dataset", dataset, "--name", "orders", "--source", file("orders.csv"),
        "--references", "o_custkey=" + unitTable + ".c_custkey"));
    ok(run("add-table", "--dataset", dataset, "--name", "nation", "--source", file("nation.csv"),
        "--public", "--referenced-by", "n_nationkey=" + unitTable + ".c_nationkey"));
  }

  private List<String> tableNames(String dataset) {
    return tables(dataset).stream().map(DatasetTable::name).toList();
  }

  private int charges(String dataset) {
    try (Ledger ledger = Ledger.open(ws)) {
      return ledger.history(dataset).size();
    }
  }

  /** The plain join, computed by DuckDB on the files: the reference for the released counts. */
  private Map<String, Long> plainJoin() throws Exception {
    Map<String, Long> expected = duckDbCounts(Map.of("CHINA", 0L), "SELECT n.n_name, COUNT(*) FROM read_csv('"
        + file("orders.csv") + "') o JOIN read_csv('" + file("customer.csv") + "') c ON o.o_custkey = c.c_custkey"
        + " JOIN read_csv('" + file("nation.csv") + "') n ON c.c_nationkey = n.n_nationkey GROUP BY n.n_name");
    assertEquals(Map.of("CHINA", 0L, "FRANCE", 3L, "PERU", 1L), expected, "the plain join");
    return expected;
  }

  /**
   * The bug: {@code customer}, registered without {@code --table-name}, gains orders and nation
   * (whose references name {@code customer}), then is renamed {@code clients}. Its unit table
   * stays {@code customer}, so EXPLAIN and the join answer (equal to the plain join), charged
   * once to {@code clients}; the dataset's name alone is refused as any multi-table dataset's is.
   */
  @Test
  void rename_datasetRegisteredWithoutTableName_itsReferencesStillResolve() throws Exception {
    register("customer");
    addOrdersAndNation("customer", "customer");
    CliRun renamed = ok(run("rename", "--name", "customer", "--to", "clients"));
    assertTrue(renamed.out().contains("now named 'clients'"), renamed.out());
    CliRun explain = query("--explain", JOIN);
    assertEquals(ExitCodes.OK, explain.code(), explain.toString());
    assertEquals(List.of("customer", "orders", "nation"), tableNames("clients"));
    CliRun show = ok(run("show", "--name", "clients"));
    assertTrue(show.out().contains("customer"), show.out());
    assertEquals(0, charges("clients"), "EXPLAIN charges nothing");
    CliRun q = jsonQuery(JOIN);
    assertEquals(plainJoin(), released(q, "n_name", "n"), q.out());
    CliRun qualified = jsonQuery(JOIN.replace("FROM orders",
        "FROM clients.orders"));
    assertEquals(2, charges("clients"), "one charge per query, on the renamed dataset");

    CliRun alone = query("--analyst", "ann",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM clients");
    assertEquals(ExitCodes.REFUSED, alone.code(), alone.toString());
    assertTrue(alone.err().contains("has several tables (customer, orders, nation)"), alone.err());
    assertFalse(alone.err().contains(SECRET) || alone.out().contains(SECRET), alone.toString());
    assertEquals(2, charges("clients"), "a refusal charges nothing");
  }

  /**
   * A single-table dataset's one table follows its name (issue 23's rename), until its first
   * table is added: {@code customer} renamed {@code clients} before any table is added has one
   * table, {@code clients}; the added tables reference it by that name, fixed from then on.
   */
  @Test
  void rename_beforeTheFirstTableIsAdded_unitTableNamedAsTheDatasetWhenItIsAdded() throws Exception {
    register("customer");
    ok(run("rename", "--name", "customer", "--to", "clients"));
    assertEquals(List.of("clients"), tableNames("clients"));
    CliRun single = query("--analyst", "ann",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM clients");
    assertEquals(ExitCodes.OK, single.code(), single.toString());
    CliRun old = run("add-table", "--dataset", "clients", "--name", "orders", "--source", file("orders.csv"),
        "--references", "o_custkey=customer.c_custkey");
    assertEquals(ExitCodes.USAGE, old.code(), old.toString());
    assertTrue(old.err().contains("references: dataset 'clients' has no table 'customer'"), old.err());
    addOrdersAndNation("clients", "clients");
    ok(run("rename", "--name", "clients", "--to", "buyers"));
    assertEquals(List.of("clients", "orders", "nation"), tableNames("buyers"));
    CliRun q = jsonQuery(JOIN.replace("JOIN customer ON", "JOIN clients ON"));
    assertEquals(plainJoin(), released(q, "n_name", "n"), q.out());
    assertEquals(2, charges("buyers"));
  }

  /**
   * A rename to a name a table goes by: the dataset's own added table ({@code shop} to {@code
   * orders}), or another dataset's, is refused naming {@code name} (an unqualified FROM name would
   * otherwise find a table where the curator meant the dataset); a rename to its own unit table's
   * name is allowed and the join still answers under it.
   */
  @Test
  void rename_toATableName_refusedNamingTheParameterOrResolvedUnambiguously() throws Exception {
    register("shop", "--table-name", "customer");
    addOrdersAndNation("shop", "customer");
    register("people");
    for (String[] rename : new String[][] {{"shop", "orders"}, {"shop", "NATION"}, {"people", "Orders"}}) {
      CliRun r = run("rename", "--name", rename[0], "--to", rename[1]);
      assertEquals(ExitCodes.USAGE, r.code(), r.toString());
      assertTrue(r.err().contains("name: "), r.err());
      assertTrue(r.err().contains("table named"), r.err());
    }
    try (Ledger ledger = Ledger.open(ws)) {
      assertEquals(List.of("people", "shop"), ledger.datasets().stream().map(d -> d.name()).toList(),
          "a refused rename changes nothing");
    }
    ok(run("rename", "--name", "shop", "--to", "customer"));
    assertEquals(List.of("customer", "orders", "nation"), tableNames("customer"));
    CliRun q = jsonQuery(JOIN);
    assertEquals(plainJoin(), released(q, "n_name", "n"), q.out());
    assertEquals(1, charges("customer"));
    assertEquals(0, charges("people"));
  }
}
