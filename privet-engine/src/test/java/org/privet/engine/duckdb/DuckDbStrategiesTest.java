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
import org.privet.engine.spi.BoundingPlan;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.Measure;

/**
 * DuckDB's strategies ({@link DuckDbDialect}) of the one {@link BoundingPlan}: the L0 = 1
 * minimum-hash join plan must compute exactly what the pair-window plan computes (the {@code
 * BoundedAggregation} contract), ties at the smallest hash included; ties are provoked by reducing
 * the salted hash modulo a small number. DOUBLE pair sums must equal the 128-bit ones, and fall
 * back to them when a pair has too many values for an exact DOUBLE sum.
 */
class DuckDbStrategiesTest {
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

  private BoundingPlan plan(BoundedAggregation spec, DuckDbDialect dialect) {
    return new BoundingPlan(spec, db.describe(spec.source()), SqlText.from(spec.source()), dialect);
  }

  @Test
  void statement_l0OneMinHashJoin_equalsPairWindowPlan() throws SQLException {
    boolean sawTies = false;
    for (long modulus : new long[] {0, 2, 3, 7}) {
      for (int lInf : new int[] {1, 3}) {
        for (long salt = 1; salt <= 3; salt++) {
          BoundingPlan fast = plan(spec(lInf, salt), new DuckDbDialect(modulus, true, salt % 2 == 1));
          BoundingPlan window = plan(spec(lInf, salt), new DuckDbDialect(modulus, false, false));
          assertTrue(fast.usesMinHashJoin());
          assertFalse(window.usesMinHashJoin());
          List<String> a = rows(fast.statement());
          List<String> b = rows(window.statement());
          assertEquals(b, a, "modulus " + modulus + ", L∞ " + lInf + ", salt " + salt);
          assertTrue(unitsReleased(a) <= 300, "at most one group per unit");
          sawTies |= unitsReleased(a) < 300;
        }
      }
    }
    assertTrue(sawTies, "small moduli must produce dropped ties, else the test shows nothing");
  }

  /**
   * The minimum-hash plan computes the per-row values after its join, from the source columns it
   * carries: measures over the group column, the unit column, the same column twice (with and
   * without a pair clamp) and a binned measure must give what the pair-window plan gives.
   */
  @Test
  void statement_minHashJoinMeasuresOnKeyColumns_equalsPairWindowPlan() throws SQLException {
    List<Measure> measures = List.of(new Measure.FixedPointSum("g2", 0, 2, 0, 1, true),
        new Measure.FixedPointSum("uid", 0, 299, 0, 0, false),
        new Measure.FixedPointSum("x", -2, 15, 3, 0, false, new Measure.PairClamp(-5, 40, false)),
        new Measure.Bins("x", -2, 15, 5),
        new Measure.FixedPointSum("x", -2, 15, 3, 7, false));
    for (long modulus : new long[] {0, 3}) {
      for (int lInf : new int[] {1, 2}) {
        BoundedAggregation spec = new BoundedAggregation(Source.table("t"), Optional.empty(),
            Optional.of("uid"), List.of("g1", "g2"), Optional.empty(), 1, lInf, 5, measures);
        BoundingPlan fast = plan(spec, new DuckDbDialect(modulus, true, true));
        assertTrue(fast.usesMinHashJoin());
        assertEquals(cellsSorted(rows(plan(spec, new DuckDbDialect(modulus, false, false))
            .statement())), cellsSorted(rows(fast.statement())), "modulus " + modulus + ", L∞ "
            + lInf);
      }
    }
  }

  /**
   * The minimum-hash plan aggregates each unit's joined rows at once and calls them one pair when
   * every group column has MIN = MAX (NULL on all rows or none). That must be GROUP BY's equality
   * on every group type: DOUBLE keys with 0.0 and -0.0 and NaNs of both signs (one group each in
   * DuckDB), BOOLEAN keys and NULLs, with and without forced ties, against the pair-window plan.
   */
  @Test
  void statement_minHashUnitAggregate_floatAndBooleanKeys_equalsPairWindowPlan()
      throws SQLException {
    db.execute("CREATE TABLE f AS SELECT CAST(u AS BIGINT) AS uid, CASE (u * 7 + r * 3) % 6 "
        + "WHEN 0 THEN CAST('0.0' AS DOUBLE) WHEN 1 THEN CAST('-0.0' AS DOUBLE) WHEN 2 THEN "
        + "CAST('NaN' AS DOUBLE) WHEN 3 THEN -CAST('NaN' AS DOUBLE) WHEN 4 THEN NULL ELSE "
        + "CAST(1.5 AS DOUBLE) END AS g, CASE (u + r) % 3 WHEN 0 THEN true WHEN 1 THEN false "
        + "ELSE NULL END AS b, CAST((u * 5 + r) % 9 AS DOUBLE) AS x FROM range(0, 400) t1(u), "
        + "range(0, 4) t2(r) WHERE r <= u % 4");
    List<List<String>> keySets = List.of(List.of("g"), List.of("g", "b"), List.of("b"));
    boolean sawTies = false;
    for (List<String> keys : keySets) {
      for (long modulus : new long[] {0, 1, 2, 5}) {
        BoundedAggregation spec = new BoundedAggregation(Source.table("f"), Optional.empty(),
            Optional.of("uid"), keys, Optional.empty(), 1, 2, 13,
            List.of(new Measure.FixedPointSum("x", 0, 8, 2, 0, true)));
        BoundingPlan fast = plan(spec, new DuckDbDialect(modulus, true, true));
        assertTrue(fast.statement().contains("HAVING"), "the per-unit aggregate is used");
        List<String> a = rows(fast.statement());
        List<String> b = rows(plan(spec, new DuckDbDialect(modulus, false, false)).statement());
        assertEquals(normalizedZeros(b), normalizedZeros(a), keys + ", modulus " + modulus);
        long units = a.stream().mapToLong(r -> Long.parseLong(r.split("\\|", -1)[keys.size()]))
            .sum();
        sawTies |= units < 400;
      }
    }
    assertTrue(sawTies, "forced ties must drop units, else the test shows nothing");
  }

  /** -0.0 and 0.0 are one group; which of the two spellings a GROUP BY prints is not specified. */
  private static List<String> normalizedZeros(List<String> rows) {
    return rows.stream().map(r -> r.replace("-0.0|", "0.0|")).toList();
  }

  /** The rows with each cell list ("cell:count,...", in any order by contract) sorted. */
  private static List<String> cellsSorted(List<String> rows) {
    List<String> out = new ArrayList<>();
    for (String r : rows) {
      String[] f = r.split("\\|", -1);
      for (int i = 0; i < f.length; i++) {
        if (f[i].contains(":")) {
          String[] cells = f[i].split(",");
          Arrays.sort(cells);
          f[i] = String.join(",", cells);
        }
      }
      out.add(String.join("|", f));
    }
    return out;
  }

  @Test
  void statement_allHashesTied_keepsExactlyTheSingleGroupUnits() throws SQLException {
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
      BoundingPlan plan = plan(spec(2, 9), new DuckDbDialect(1, minHash, minHash));
      assertEquals(singles, unitsReleased(rows(plan.statement())), "minHash " + minHash);
    }
  }

  /**
   * Values at 2^62 are far beyond what the contract allows (|v| ≤ 2^31, on which the no-overflow
   * arguments rest): the measure itself refuses them, for every backend, before anything runs.
   */
  @Test
  void measure_valuesBeyondTwoToThe31_refusedByTheSpi() {
    assertThrows(IllegalArgumentException.class,
        () -> new Measure.FixedPointSum("x", 0, Math.scalb(1.0, 62), 0, 0, false));
    assertThrows(IllegalArgumentException.class,
        () -> new Measure.FixedPointSum("x", 0, 1e10, 0, 0, false));
    assertThrows(IllegalArgumentException.class,
        () -> new Measure.FixedPointSum("x", 0, 1, 32, 0, false));
    assertThrows(IllegalArgumentException.class,
        () -> new Measure.FixedPointSum("x", 0, Double.POSITIVE_INFINITY, 0, 0, false));
    assertThrows(IllegalArgumentException.class, () -> new Measure.PairClamp(0, Long.MAX_VALUE, false));
    new Measure.FixedPointSum("x", -Math.scalb(1.0, 31), Math.scalb(1.0, 31), 0, 0, true);
  }

  /**
   * Values up to M = 2^31 allow exact DOUBLE pair sums of at most 2^53 / M = 2^22 values. A unit
   * with 2^22 + 1 rows in one group makes the DOUBLE plan fail with the guard's message (no value
   * in it), and the backend then returns exactly what the 128-bit plan returns; without that unit
   * the DOUBLE plan runs and agrees with the 128-bit plan.
   */
  @Test
  void aggregate_pairBeyondExactDoubleRange_fallsBackToExactSums() throws SQLException {
    double big = Math.scalb(1.0, 31);
    long limit = 1L << 22;
    db.execute("CREATE TABLE narrow AS SELECT CAST(u AS BIGINT) AS uid, concat('g', u % 3) AS g, "
        + "CAST(" + big + " - r * 1001.0 * u AS DOUBLE) AS x FROM range(1, 20) t1(u), "
        + "range(0, 8) t2(r) WHERE r <= u % 8");
    db.execute("CREATE TABLE wide AS SELECT * FROM narrow UNION ALL SELECT CAST(0 AS BIGINT), "
        + "'g0', CAST(" + big + " - (r % 5) AS DOUBLE) FROM range(0, " + (limit + 1) + ") t(r)");
    Measure.FixedPointSum f = new Measure.FixedPointSum("x", 0, big, 0, 0, false);
    assertEquals(limit, BoundingPlan.exactDoubleCount(f));
    for (String table : List.of("wide", "narrow")) {
      BoundedAggregation spec = new BoundedAggregation(Source.table(table), Optional.empty(),
          Optional.of("uid"), List.of("g"), Optional.empty(), 1, 3, 11, List.of(f));
      BoundingPlan fast = plan(spec, DuckDbDialect.FAST);
      List<String> exact = rows(plan(spec, DuckDbDialect.FAST.withExactPairSums()).statement());
      if (table.equals("wide")) {
        SQLException e = assertThrows(SQLException.class, () -> rows(fast.statement()));
        assertTrue(e.getMessage().contains(BoundingPlan.DOUBLE_SUM_GUARD));
        assertFalse(e.getMessage().matches("(?s).*\\d{4,}.*"), "no value in: " + e.getMessage());
      } else {
        assertEquals(exact, rows(fast.statement()), "DOUBLE and 128-bit pair sums");
      }
      List<String> viaBackend = new ArrayList<>();
      db.aggregate(spec, g -> viaBackend.add(g.key().get(0) + "|" + g.units() + "|" + g.rows()
          + "|" + g.sums()[0] + "|" + g.counts()[0] + "|"));
      viaBackend.sort(null);
      assertEquals(exact, viaBackend, table);
    }
  }

  /**
   * A total row cap m = 4 ({@link BoundedAggregation#maxRowsContributed()}) with every salted hash
   * reduced modulo 1 (all of a unit's pairs tie): a unit of at most m rows keeps them all, a unit
   * of one group keeps m, a unit past m over several groups keeps nothing (a tie that crosses m is
   * dropped whole, so Σ kept ≤ m always). With the real hash, the unit past m keeps exactly m.
   * Unit 1: x, y, z one row each; unit 2: x, y, z two rows each; unit 3: six rows in y; unit 4:
   * two rows in x, five in z.
   */
  @Test
  void statement_rowsCapWithTiedHashes_dropsATieThatCrossesTheCap() throws SQLException {
    List<List<?>> rows = new ArrayList<>();
    for (String g : List.of("x", "y", "z")) {
      rows.add(Arrays.asList(1L, g, 0L, 1.0));
      rows.add(Arrays.asList(2L, g, 0L, 1.0));
      rows.add(Arrays.asList(2L, g, 0L, 1.0));
    }
    for (int r = 0; r < 6; r++) {
      rows.add(Arrays.asList(3L, "y", 0L, 1.0));
    }
    for (int r = 0; r < 7; r++) {
      rows.add(Arrays.asList(4L, r < 2 ? "x" : "z", 0L, 1.0));
    }
    db.registerTable("ties", List.of("uid", "g1", "g2", "x"), List.of(ColumnType.INTEGER,
        ColumnType.STRING, ColumnType.INTEGER, ColumnType.FLOATING), rows);
    BoundedAggregation spec = new BoundedAggregation(Source.table("ties"), Optional.empty(),
        Optional.of("uid"), List.of("g1"), Optional.empty(), 4, 4, 3,
        List.of(new Measure.FixedPointSum("x", 0, 1, 0, 0, false), new Measure.Bins("x", 0, 2, 2)),
        4);
    // group | units | rows | sum | count | cells: unit 1 everywhere, unit 3's 4 rows in y.
    assertEquals(List.of("x|1|1|1|1|1:1|", "y|2|5|5|5|1:5|", "z|1|1|1|1|1:1|"),
        cellsSorted(rows(plan(spec, new DuckDbDialect(1, true, true)).statement())));
    for (long salt = 1; salt <= 5; salt++) {
      BoundedAggregation s = new BoundedAggregation(Source.table("ties"), Optional.empty(),
          Optional.of("uid"), List.of("g1"), Optional.empty(), 4, 4, salt, spec.measures(), 4);
      List<String> out = rows(plan(s, DuckDbDialect.FAST).statement());
      long total = out.stream().mapToLong(r -> Long.parseLong(r.split("\\|", -1)[2])).sum();
      assertEquals(3 + 4 + 4 + 4, total, "each unit past the cap keeps exactly 4, salt " + salt);
    }
  }
}
