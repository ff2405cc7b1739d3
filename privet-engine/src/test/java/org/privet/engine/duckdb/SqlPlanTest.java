package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;

/**
 * The L0 = 1 minimum-hash join plan must compute exactly what the pair-window plan computes (the
 * {@code BoundedAggregation} contract), ties at the smallest hash included; ties are provoked by
 * reducing the salted hash modulo a small number. DOUBLE pair sums must equal the 128-bit ones, and
 * fall back to them when a pair has too many values for an exact DOUBLE sum.
 */
class SqlPlanTest {
  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
    // 300 units, 1–12 rows each over two group columns (with NULL keys), values with NULL/NaN.
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 300; u++) {
      int n = (int) (1 + (u * 7) % 12);
      for (int r = 0; r < n; r++) {
        long k = (u * 31 + r * 17) % 11;
        String g1 = k == 10 ? null : "a" + (k % 4);
        Long g2 = k == 9 ? null : (long) (k % 3);
        Double x = r % 9 == 4 ? null : r % 13 == 6 ? Double.NaN : (double) ((u + 5 * r) % 23) - 3;
        rows.add(Arrays.asList(u, g1, g2, x));
      }
    }
    db.registerTable("t", List.of("uid", "g1", "g2", "x"), List.of(ColumnType.INTEGER,
        ColumnType.STRING, ColumnType.INTEGER, ColumnType.FLOATING), rows);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private static BoundedAggregation spec(int lInf, long salt) {
    return new BoundedAggregation(Source.table("t"), Optional.empty(), Optional.of("uid"),
        List.of("g1", "g2"), Optional.empty(), 1, lInf, salt,
        List.of(new Measure.FixedPointSum("x", -2, 15, 3, 0, false),
            new Measure.FixedPointSum("x", -2, 15, 3, 50, true)));
  }

  private List<String> rows(String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder s = new StringBuilder();
        for (int i = 1; i <= n; i++) {
          s.append(rs.getObject(i)).append('|');
        }
        out.add(s.toString());
      }
    }
    return out;
  }

  private long unitsReleased(List<String> rows) {
    // __units is the third column (two group columns first).
    return rows.stream().mapToLong(r -> Long.parseLong(r.split("\\|", -1)[2])).sum();
  }

  @Test
  void mainStatement_l0OneMinHashJoin_equalsPairWindowPlan() throws SQLException {
    var schema = db.describe(Source.table("t"));
    boolean sawTies = false;
    for (long modulus : new long[] {0, 2, 3, 7}) {
      for (int lInf : new int[] {1, 3}) {
        for (long salt = 1; salt <= 3; salt++) {
          SqlPlan fast = new SqlPlan(spec(lInf, salt), schema, modulus, true, salt % 2 == 1);
          SqlPlan window = new SqlPlan(spec(lInf, salt), schema, modulus, false, false);
          assertTrue(fast.usesMinHashJoin());
          assertFalse(window.usesMinHashJoin());
          List<String> a = rows(fast.mainStatement());
          List<String> b = rows(window.mainStatement());
          assertEquals(b, a, "modulus " + modulus + ", L∞ " + lInf + ", salt " + salt);
          assertTrue(unitsReleased(a) <= 300, "at most one group per unit");
          sawTies |= unitsReleased(a) < 300;
        }
      }
    }
    assertTrue(sawTies, "small moduli must produce dropped ties, else the test shows nothing");
  }

  @Test
  void mainStatement_allHashesTied_keepsExactlyTheSingleGroupUnits() throws SQLException {
    var schema = db.describe(Source.table("t"));
    Map<Long, Set<List<Object>>> pairsPerUnit = new HashMap<>();
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet rs = st.executeQuery("SELECT DISTINCT uid, g1, g2 FROM t")) {
      while (rs.next()) {
        pairsPerUnit.computeIfAbsent(rs.getLong(1), k -> new HashSet<>())
            .add(Arrays.asList(rs.getObject(2), rs.getObject(3)));
      }
    }
    long singles = pairsPerUnit.values().stream().filter(p -> p.size() == 1).count();
    assertTrue(singles > 0 && singles < 300, "the table must have both kinds of unit");
    // Modulus 1: every pair hash is 0, so a unit with two or more pairs is tied and dropped.
    for (boolean minHash : new boolean[] {true, false}) {
      SqlPlan plan = new SqlPlan(spec(2, 9), schema, 1, minHash, minHash);
      assertEquals(singles, unitsReleased(rows(plan.mainStatement())), "minHash " + minHash);
    }
  }

  /**
   * Values at 2^62 (far beyond what the compiler allows, |v| ≤ 2^31): a pair of two such rows sums
   * to 2^63, past the 64-bit range, yet with L∞ = 1 the kept pair sum is exactly 2^62 = L∞·b in
   * both plans (the 128-bit pair arithmetic does not wrap); two such units in one group sum to
   * 2^63, beyond 64 bits, and the group's sum saturates at the public cap 2^62 instead of failing
   * after the charge (issue 10, item 3).
   */
  @Test
  void aggregate_extremeValues_keepTheBoundOrSaturateAtTheCap() throws SQLException {
    double big = Math.scalb(1.0, 62);
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 3; u++) {
      rows.add(Arrays.asList(u, u == 0 ? "solo" : "shared", big));
      rows.add(Arrays.asList(u, u == 0 ? "solo" : "shared", Double.POSITIVE_INFINITY));
    }
    db.registerTable("big", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows);
    BoundedAggregation spec = new BoundedAggregation(Source.table("big"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.of(List.of(List.of("solo"))), 1, 1, 5,
        List.of(new Measure.FixedPointSum("x", 0, big, 0, 0, false)));
    var schema = db.describe(Source.table("big"));
    for (boolean minHash : new boolean[] {true, false}) {
      List<String> out = rows(new SqlPlan(spec, schema, 0, minHash, true).mainStatement());
      assertEquals(List.of("solo|1|1|" + (1L << 62) + "|1|"), out, "minHash " + minHash);
    }
    List<GroupAggregate> solo = new ArrayList<>();
    db.aggregate(spec, solo::add);
    assertEquals(1L << 62, solo.get(0).sums()[0]);
    BoundedAggregation all = new BoundedAggregation(Source.table("big"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 1, 1, 5, spec.measures());
    Map<Object, Long> sums = new HashMap<>();
    db.aggregate(all, g -> sums.put(g.key().get(0), g.sums()[0]));
    assertEquals(Map.of("solo", 1L << 62, "shared", Measure.SUM_CAP), sums);
  }

  /**
   * Values up to M = 2^50 allow exact DOUBLE pair sums of at most 2^53 / M = 8 values. A unit with
   * 9 rows in one group makes the DOUBLE plan fail with the guard's message (no value in it), and
   * the backend then returns exactly what the 128-bit plan returns; without that unit the DOUBLE
   * plan runs and agrees with the 128-bit plan.
   */
  @Test
  void aggregate_pairBeyondExactDoubleRange_fallsBackToExactSums() throws SQLException {
    double big = Math.scalb(1.0, 50);
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 20; u++) {
      int n = u == 0 ? 9 : (int) (1 + u % 8);
      for (int r = 0; r < n; r++) {
        rows.add(Arrays.asList(u, "g" + (u % 3), big - r * 1001.0 * u));
      }
    }
    List<List<?>> withoutUnit0 = rows.subList(9, rows.size());
    db.registerTable("wide", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), rows);
    db.registerTable("narrow", List.of("uid", "g", "x"),
        List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING), withoutUnit0);
    Measure.FixedPointSum f = new Measure.FixedPointSum("x", 0, big, 0, 0, false);
    assertEquals(8, SqlPlan.exactDoubleCount(f));
    for (String table : List.of("wide", "narrow")) {
      BoundedAggregation spec = new BoundedAggregation(Source.table(table), Optional.empty(),
          Optional.of("uid"), List.of("g"), Optional.empty(), 1, 3, 11, List.of(f));
      var schema = db.describe(Source.table(table));
      SqlPlan fast = new SqlPlan(spec, schema);
      List<String> exact = rows(fast.withExactPairSums().mainStatement());
      if (table.equals("wide")) {
        SQLException e = assertThrows(SQLException.class, () -> rows(fast.mainStatement()));
        assertTrue(e.getMessage().contains(SqlPlan.DOUBLE_SUM_GUARD));
        assertFalse(e.getMessage().matches("(?s).*\\d{4,}.*"), "no value in: " + e.getMessage());
      } else {
        assertEquals(exact, rows(fast.mainStatement()), "DOUBLE and 128-bit pair sums");
      }
      List<String> viaBackend = new ArrayList<>();
      db.aggregate(spec, g -> viaBackend.add(g.key().get(0) + "|" + g.units() + "|" + g.rows()
          + "|" + g.sums()[0] + "|" + g.counts()[0] + "|"));
      viaBackend.sort(null);
      assertEquals(exact, viaBackend, table);
    }
  }
}
