package org.privet.cli.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;
import org.privet.cli.ExitCodes;

/**
 * {@code privet data tpch} at SF 0.01, checked against the outside world: the TPC-H
 * specification's table cardinalities (clause 4.2.5: SF × 150,000 customers, SF × 1,500,000
 * orders, 25 nations, 5 regions, SF × 10,000 suppliers, SF × 200,000 parts, 4 partsupp rows per
 * part), dbgen's own first rows of customer and nation, dbgen's 60,175 line items at SF 0.01, and
 * DuckDB's CSV reader reading the files back.
 */
class DataTpchCommandTest {
  @TempDir Path dir;

  static final Map<String, Long> SPEC_ROWS_SF001 = Map.of(
      "customer", 1_500L, "orders", 15_000L, "nation", 25L, "region", 5L,
      "supplier", 100L, "part", 2_000L, "partsupp", 8_000L, "lineitem", 60_175L);

  @Test
  void tpch_sf001_rowCountsAndFirstRowsAsDbgen() throws Exception {
    Path out = dir.resolve("tpch");
    CliRun r = CliRun.of("data", "tpch", "--scale-factor", "0.01", "--out", out.toString());
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertTrue(r.err().contains("not TPC-H benchmark results"), r.err());
    assertTrue(Files.readString(out.resolve("README.txt")).contains("Fair Use"));
    for (Map.Entry<String, Long> t : SPEC_ROWS_SF001.entrySet()) {
      Path csv = out.resolve(t.getKey() + ".csv");
      assertTrue(r.out().contains(csv.toString()), r.out());
      try (var lines = Files.lines(csv)) {
        assertEquals(t.getValue() + 1, lines.count(), t.getKey() + ": header + rows");
      }
    }
    List<String> customer = Files.readAllLines(out.resolve("customer.csv"));
    assertEquals("c_custkey,c_name,c_address,c_nationkey,c_phone,c_acctbal,c_mktsegment,c_comment",
        customer.get(0));
    // dbgen's customer.tbl line 1: 1|Customer#000000001|IVhzIApeRb ot,c,E|15|25-989-741-2988|
    // 711.56|BUILDING|to the even, regular platelets. regular, ironic epitaphs nag e|
    assertEquals("1,Customer#000000001,\"IVhzIApeRb ot,c,E\",15,25-989-741-2988,711.56,BUILDING,"
        + "\"to the even, regular platelets. regular, ironic epitaphs nag e\"", customer.get(1));
    assertEquals("0,ALGERIA,0, haggle. carefully final deposits detect slyly agai",
        Files.readAllLines(out.resolve("nation.csv")).get(1));

    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      for (Map.Entry<String, Long> t : SPEC_ROWS_SF001.entrySet()) {
        try (ResultSet rs = s.executeQuery("SELECT count(*) FROM read_csv('"
            + out.resolve(t.getKey() + ".csv") + "', header = true)")) {
          rs.next();
          assertEquals(t.getValue(), rs.getLong(1), t.getKey() + " read back by DuckDB");
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT c_address, c_acctbal FROM read_csv('"
          + out.resolve("customer.csv") + "', header = true) WHERE c_custkey = 1")) {
        rs.next();
        assertEquals("IVhzIApeRb ot,c,E", rs.getString(1));
        assertEquals(711.56, rs.getDouble(2));
      }
      // Every order has 1 to 7 line items and every line item an order (TPC-H 4.2.3).
      try (ResultSet rs = s.executeQuery("SELECT min(n), max(n), count(*) FROM (SELECT o_orderkey,"
          + " count(l_orderkey) AS n FROM read_csv('" + out.resolve("orders.csv") + "', header ="
          + " true) LEFT JOIN read_csv('" + out.resolve("lineitem.csv") + "', header = true) ON"
          + " l_orderkey = o_orderkey GROUP BY o_orderkey)")) {
        rs.next();
        assertEquals(1, rs.getLong(1));
        assertEquals(7, rs.getLong(2));
        assertEquals(15_000, rs.getLong(3));
      }
    }
  }

  @Test
  void tpch_twice_sameBytes() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    for (Path p : List.of(a, b)) {
      CliRun r = CliRun.of("data", "tpch", "--scale-factor", "0.01", "--out", p.toString(),
          "--tables", "customer,orders");
      assertEquals(ExitCodes.OK, r.code(), r.toString());
    }
    for (String t : List.of("customer.csv", "orders.csv")) {
      assertArrayEquals(Files.readAllBytes(a.resolve(t)), Files.readAllBytes(b.resolve(t)), t);
    }
    assertFalse(Files.exists(a.resolve("lineitem.csv")), "only the tables asked for");
  }

  @Test
  void tpch_badParameters_refusedNamingThem() throws Exception {
    for (String sf : List.of("0", "-1", "NaN", "Infinity", "11")) {
      CliRun r = CliRun.of("data", "tpch", "--scale-factor", sf, "--out", dir.toString());
      assertEquals(ExitCodes.USAGE, r.code(), r.toString());
      assertTrue(r.err().contains("--scale-factor"), r.err());
    }
    CliRun r = CliRun.of("data", "tpch", "--scale-factor", "0.01", "--out", dir.toString(),
        "--tables", "customer,people");
    assertEquals(ExitCodes.USAGE, r.code(), r.toString());
    assertTrue(r.err().contains("--tables") && r.err().contains("people"), r.err());
    assertFalse(Files.exists(dir.resolve("customer.csv")), "nothing written before the refusal");

    Files.writeString(dir.resolve("nation.csv"), "mine");
    r = CliRun.of("data", "tpch", "--scale-factor", "0.01", "--out", dir.toString(),
        "--tables", "nation");
    assertEquals(ExitCodes.USAGE, r.code(), r.toString());
    assertTrue(r.err().contains("--force"), r.err());
    assertEquals("mine", Files.readString(dir.resolve("nation.csv")));
    r = CliRun.of("data", "tpch", "--scale-factor", "0.01", "--out", dir.toString(),
        "--tables", "nation", "--force");
    assertEquals(ExitCodes.OK, r.code(), r.toString());
    assertEquals(26, Files.readAllLines(dir.resolve("nation.csv")).size());
  }
}
