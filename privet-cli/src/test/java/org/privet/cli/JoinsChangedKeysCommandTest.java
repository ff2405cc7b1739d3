package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files changed after registration so that a reference's target is no longer a key (issue 25;
 * docs/proofs/engine-joins.md, "Keys"): {@code dataset add-table} checked the keys, then the
 * curator's orders file gained key 10 on orders of customers 1..5. A line item with key 10 meets
 * parents of five units; the neighbour D' lacks customer 5 and, transitively, its orders and every
 * line item referencing them. Through the CLI on both workspaces: released counts at L0 = L∞ = 1
 * differ by at most 1 (before the remedy: 5 units on D, none on D'), and EXPLAIN, a refusal and the
 * output's columns are identical.
 *
 * <p>False-failure probability: ε = 10^6 for counts with sensitivity 1 (discrete noise of scale
 * 10^-6): the released values are exact except with probability below 10^-100000.
 */
class JoinsChangedKeysCommandTest {
  @TempDir Path dir;

  private static final String COUNT = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
      + " max_groups_contributed = 1, max_rows_per_group = 1) COUNT(*) AS n FROM lineitem";
  private static final String JOINED = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1000000,"
      + " max_groups_contributed = 1, max_rows_per_group = 1) COUNT(*) AS n FROM lineitem JOIN orders"
      + " ON l_orderkey = o_orderkey";

  /** Registers shop in its own workspace with unique keys, then rewrites orders and line items. */
  private Path shop(String name, int customers, String ordersAfter, String lineitemAfter) throws Exception {
    Path d = Files.createDirectories(dir.resolve(name));
    Path ws = d.resolve("ws");
    StringBuilder c = new StringBuilder("c_custkey,c_nationkey\n");
    StringBuilder o = new StringBuilder("o_orderkey,o_custkey\n");
    for (int i = 1; i <= customers; i++) {
      c.append(i).append(',').append(i % 2).append('\n');
      o.append(10 + i).append(',').append(i).append('\n');
    }
    Files.writeString(d.resolve("customer.csv"), c);
    Files.writeString(d.resolve("orders.csv"), o);
    Files.writeString(d.resolve("lineitem.csv"), "l_orderkey,l_quantity\n11,1\n99,1\n");
    ok(dataset(ws, "register", "--name", "shop", "--source", d.resolve("customer.csv").toString(),
        "--table-name", "customer", "--privacy-unit", "c_custkey", "--epsilon", "100000000",
        "--delta", "1e-5"));
    ok(dataset(ws, "add-table", "--dataset", "shop", "--name", "orders", "--source",
        d.resolve("orders.csv").toString(), "--references", "o_custkey=customer.c_custkey"));
    ok(dataset(ws, "add-table", "--dataset", "shop", "--name", "lineitem", "--source",
        d.resolve("lineitem.csv").toString(), "--references", "l_orderkey=orders.o_orderkey"));
    Files.writeString(d.resolve("orders.csv"), "o_orderkey,o_custkey\n" + ordersAfter);
    Files.writeString(d.resolve("lineitem.csv"), "l_orderkey,l_quantity\n" + lineitemAfter);
    return ws;
  }

  private static CliRun dataset(Path ws, String... args) {
    List<String> a = new ArrayList<>(List.of("dataset", args[0], "--workspace", ws.toString()));
    a.addAll(List.of(args).subList(1, args.length));
    return CliRun.of(a.toArray(String[]::new));
  }

  private static CliRun ok(CliRun r) {
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    return r;
  }

  private static CliRun query(Path ws, String... args) {
    List<String> a = new ArrayList<>(List.of("query", "--workspace", ws.toString(), "--analyst", "ann"));
    a.addAll(List.of(args));
    return CliRun.of(a.toArray(String[]::new));
  }

  private static JsonNode json(Path ws, String sql) throws Exception {
    return new ObjectMapper().readTree(ok(query(ws, "--format", "json", sql)).out());
  }

  @Test
  void keysBrokenAfterRegistration_neighboursDifferByAtMostTheSensitivity() throws Exception {
    // D: key 10 on orders of customers 1..5; customer 5 also has order 15 with a line item
    Path d = shop("d", 5, "10,1\n10,2\n10,3\n10,4\n10,5\n15,5\n", "10,3\n15,1\n99,1\n");
    // D': without customer 5, its orders (10 and 15) and the line items referencing them
    Path n = shop("n", 4, "10,1\n10,2\n10,3\n10,4\n", "99,1\n");
    for (String sql : List.of(COUNT, JOINED)) {
      JsonNode a = json(d, sql);
      JsonNode b = json(n, sql);
      double va = a.get("rows").get(0).get("n").get("value").asDouble();
      double vb = b.get("rows").get(0).get("n").get("value").asDouble();
      // the line item of key 10 counts for no unit: D releases customer 5's own line item only
      assertEquals(1.0, va, 1e-3, a.toString());
      assertEquals(0.0, vb, 1e-3, b.toString());
      assertTrue(Math.abs(va - vb) <= 1.0 + 1e-3, sql);
      assertEquals(a.get("columns").toString(), b.get("columns").toString());
      String ea = ok(query(d, "--explain", sql)).out();
      String eb = ok(query(n, "--explain", sql)).out();
      assertEquals(ea.replace(d.getParent().toString(), "X").replaceAll("salt=-?[0-9]+", "salt"),
          eb.replace(n.getParent().toString(), "X").replaceAll("salt=-?[0-9]+", "salt"), sql);
    }
    String refused = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM lineitem"
        + " JOIN customer ON l_orderkey = c_custkey";
    CliRun ra = query(d, refused);
    CliRun rb = query(n, refused);
    assertEquals(ExitCodes.REFUSED, ra.code(), ra.toString());
    assertEquals(ra.code(), rb.code());
    assertEquals(ra.err(), rb.err());
  }
}
