package org.privet.cli.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;
import org.privet.cli.ExitCodes;

/**
 * Issue 25, item 6, through the command line: the README's multi-table dataset registered from
 * {@code privet data tpch} at SF 0.01 (D′) and from the same files plus a victim customer with
 * 2,500 orders and 10,000 line items (D; D′ is D minus the victim and every row referencing it).
 * Every join query below, refused or released, and its EXPLAIN, must give the same exit code, the
 * same stderr and, for releases, the same output shape (columns and rows; the noisy values aside)
 * on both; a refusal must charge nothing.
 */
class JoinNeighboursCliTest {
  @TempDir static Path dir;

  static final String DP = "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5, delta = 1e-6)";
  static final String CHAIN = " FROM lineitem JOIN orders ON l_orderkey = o_orderkey"
      + " JOIN customer ON o_custkey = c_custkey";

  /** {released?, SQL}. */
  static final String[][] CASES = {
      {"released", DP + " COUNT(*) AS n" + CHAIN},
      {"released", DP + " n_name, COUNT(*) AS n, SUM(l_quantity, contribution_bounds_per_row =>"
          + " (0, 50)) AS q" + CHAIN + " JOIN nation ON c_nationkey = n_nationkey GROUP BY n_name"},
      {"released", DP + " COUNT(*) AS n FROM orders, customer WHERE o_custkey = c_custkey"
          + " AND c_custkey = 7777777"},
      {"released", DP.replace(")", ", max_groups_contributed = 2)") + " l_returnflag, COUNT(*) AS n"
          + CHAIN + " GROUP BY l_returnflag"},
      {"released", DP + " COUNT(*) AS n FROM orders o1 JOIN orders o2 ON o1.o_custkey ="
          + " o2.o_custkey"},
      {"refused", DP + " COUNT(*) AS n FROM orders o1 JOIN orders o2 ON o1.o_orderdate ="
          + " o2.o_orderdate"},
      {"refused", DP + " COUNT(*) AS n FROM lineitem JOIN orders ON l_linenumber = o_orderkey"},
      {"refused", DP + " COUNT(*) AS n FROM customer, orders"},
      {"refused", DP + " SUM(l_shipmode) AS s" + CHAIN},
      {"refused", DP + " COUNT(*) AS n FROM lineitem JOIN shipments ON l_orderkey = s_orderkey"},
      {"refused", "SELECT COUNT(*)" + CHAIN},
      {"refused", DP.replace("0.5", "1000") + " COUNT(*) AS n" + CHAIN}};

  static Path withVictim;
  static Path without;
  static Path dataWith;
  static Path dataWithout;

  @BeforeAll
  static void datasets() throws IOException {
    Path data = dir.resolve("tpch");
    CliRun g = CliRun.of("data", "tpch", "--scale-factor", "0.01", "--out", data.toString(),
        "--tables", "customer,orders,lineitem,nation");
    assertEquals(ExitCodes.OK, g.code(), g.toString());
    Path victimData = dir.resolve("tpch-victim");
    Files.createDirectories(victimData);
    for (String t : List.of("customer", "orders", "lineitem", "nation")) {
      Files.copy(data.resolve(t + ".csv"), victimData.resolve(t + ".csv"));
    }
    // The victim: customer 7777777 with 2,500 orders of 4 line items each, cloned from the first
    // rows with new keys (typed as the generated columns, so both registrations infer one schema).
    String customer = Files.readAllLines(data.resolve("customer.csv")).get(1);
    String order = Files.readAllLines(data.resolve("orders.csv")).get(1);
    String item = Files.readAllLines(data.resolve("lineitem.csv")).get(1);
    StringBuilder c = new StringBuilder("7777777" + customer.substring(customer.indexOf(',')) + "\n");
    StringBuilder o = new StringBuilder();
    StringBuilder l = new StringBuilder();
    String orderRest = order.substring(order.indexOf(',', order.indexOf(',') + 1));
    String itemRest = item.substring(item.indexOf(','));
    for (int i = 0; i < 2_500; i++) {
      long key = 1_000_000_000L + i;
      o.append(key).append(",7777777").append(orderRest).append('\n');
      for (int j = 0; j < 4; j++) {
        l.append(key).append(itemRest).append('\n');
      }
    }
    Files.writeString(victimData.resolve("customer.csv"), c, java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(victimData.resolve("orders.csv"), o, java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(victimData.resolve("lineitem.csv"), l, java.nio.file.StandardOpenOption.APPEND);
    without = register(data, dir.resolve("ws-without"));
    withVictim = register(victimData, dir.resolve("ws-with"));
    dataWithout = data;
    dataWith = victimData;
  }

  private static Path register(Path data, Path ws) {
    String w = ws.toString();
    List<String[]> commands = List.of(
        new String[] {"dataset", "register", "--name", "shop", "--source",
            data.resolve("customer.csv").toString(), "--table-name", "customer", "--privacy-unit",
            "c_custkey", "--epsilon", "100", "--delta", "1e-3", "--workspace", w},
        new String[] {"dataset", "add-table", "--dataset", "shop", "--name", "orders", "--source",
            data.resolve("orders.csv").toString(), "--references", "o_custkey=customer.c_custkey",
            "--workspace", w},
        new String[] {"dataset", "add-table", "--dataset", "shop", "--name", "lineitem",
            "--source", data.resolve("lineitem.csv").toString(), "--references",
            "l_orderkey=orders.o_orderkey", "--workspace", w},
        new String[] {"dataset", "add-table", "--dataset", "shop", "--name", "nation", "--source",
            data.resolve("nation.csv").toString(), "--public", "--workspace", w});
    for (String[] args : commands) {
      CliRun r = CliRun.of(args);
      assertEquals(ExitCodes.OK, r.code(), String.join(" ", args) + "\n" + r);
    }
    return ws;
  }

  /**
   * Exit code, stderr, and the output's shape (JSON with the noisy numbers and the charge time
   * blanked), with the registered files' folder (public metadata that differs between the two
   * registrations, e.g. in EXPLAIN's physical plan) written as {@code <DATA>}; and the budget
   * left.
   */
  private static List<Object> observe(Path ws, Path data, String sql, boolean explain)
      throws IOException {
    List<String> args = new ArrayList<>(List.of("query", sql, "--workspace", ws.toString(),
        "--format", "json"));
    if (explain) {
      args.add("--explain");
    }
    CliRun r = CliRun.of(args.toArray(String[]::new));
    String shape = r.out().replace(data.toString(), "<DATA>");
    if (r.code() == ExitCodes.OK && !explain) {
      shape = blankNumbers(new ObjectMapper().readTree(shape)).toString();
    }
    String budget = CliRun.of("budget", "show", "--dataset", "shop", "--workspace", ws.toString())
        .out();
    return List.of(r.code(), r.err().replace(data.toString(), "<DATA>"), shape, budget);
  }

  private static JsonNode blankNumbers(JsonNode n) {
    if (n.isNumber()) {
      return com.fasterxml.jackson.databind.node.TextNode.valueOf("#");
    }
    if (n.isObject()) {
      var o = (com.fasterxml.jackson.databind.node.ObjectNode) n;
      List<String> names = new ArrayList<>();
      o.fieldNames().forEachRemaining(names::add);
      for (String f : names) {
        o.set(f, f.equals("time") ? com.fasterxml.jackson.databind.node.TextNode.valueOf("#")
            : blankNumbers(o.get(f)));
      }
    } else if (n.isArray()) {
      var a = (com.fasterxml.jackson.databind.node.ArrayNode) n;
      for (int i = 0; i < a.size(); i++) {
        a.set(i, blankNumbers(a.get(i)));
      }
    }
    return n;
  }

  @Test
  void joinQueries_onCliNeighbours_sameExitCodesErrorsShapesAndExplain() throws IOException {
    for (String[] c : CASES) {
      for (boolean explain : List.of(true, false)) {
        List<Object> a = observe(without, dataWithout, c[1], explain);
        List<Object> b = observe(withVictim, dataWith, c[1], explain);
        assertEquals(a, b, (explain ? "EXPLAIN " : "") + c[1]);
        if (explain) {
          continue; // EXPLAIN charges nothing, so it does not check the budget
        }
        if (c[0].equals("refused")) {
          assertNotEquals(ExitCodes.OK, b.get(0), c[1] + "\n" + b);
        } else {
          assertEquals(ExitCodes.OK, b.get(0), c[1] + "\n" + b);
        }
      }
    }
  }
}
