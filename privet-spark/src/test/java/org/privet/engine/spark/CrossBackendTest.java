package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.Filter;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.testing.SeededRandomSource;

/**
 * The same {@link BoundedAggregation} on DuckDB and on Spark: identical exact aggregates whenever
 * the result does not depend on the (backend-specific) hash, i.e. when L0 is not binding (sums
 * are rescaled deterministically, so L∞ may bind for them; binned measures compare only when L∞
 * does not bind); and the L0/L∞ bounds hold on Spark when they bind.
 */
class CrossBackendTest {
  private static final List<String> COLS = List.of("uid", "g", "h", "x", "label");
  private static final List<ColumnType> TYPES = List.of(ColumnType.INTEGER, ColumnType.STRING,
      ColumnType.INTEGER, ColumnType.FLOATING, ColumnType.STRING);
  /** Values with exact halves on the grids used (rounding must agree), and specials. */
  private static final double[] VALUES = {0.0, 2.5, 3.5, -0.5, 0.125, -7.25, 12.75, 99.0, 1e9,
      -1e9, 1.0 / 3, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};

  private static SparkBackend spark;
  private static DuckDbBackend duck;

  @BeforeAll
  static void open() {
    spark = SparkBackend.on(LocalSpark.session());
    duck = DuckDbBackend.inMemory();
    List<List<?>> crafted = crafted();
    register("crafted", crafted);
    register("empty", List.of());
    register("heavy", heavyUnitTable());
  }

  @AfterAll
  static void close() {
    duck.close();
    spark.close();
  }

  private static void register(String name, List<List<?>> rows) {
    duck.registerTable(name, COLS, TYPES, rows);
    spark.registerTable(name, COLS, TYPES, rows);
  }

  /**
   * 300 units with 1 to 40 rows each over up to 9 of 12 groups (g) and 3 sub-groups (h), with
   * NULL units, NULL group values, NULL/NaN/±∞ values.
   */
  private static List<List<?>> crafted() {
    SeededRandomSource r = new SeededRandomSource(20261126L);
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < 300; u++) {
      int n = 1 + (int) r.nextLong(40);
      int spread = 1 + (int) r.nextLong(9);
      long first = r.nextLong(12);
      for (int i = 0; i < n; i++) {
        long g = (first + r.nextLong(spread)) % 12;
        Object group = g == 11 ? null : "g" + g;
        Object value = r.nextLong(10) == 0 ? null : VALUES[(int) r.nextLong(VALUES.length)];
        if (value != null && r.nextBoolean()) {
          value = (double) r.nextLong(200) / 4 - 10; // quarters in [-10, 40)
        }
        rows.add(Arrays.asList(u % 97 == 5 ? null : u, group, r.nextLong(3), value,
            r.nextLong(5) == 0 ? "it's" : "plain"));
      }
    }
    return rows;
  }

  /** Unit 1: 5 rows in each of 10 groups, value 100; unit 2: one row in g0, value 5. */
  private static List<List<?>> heavyUnitTable() {
    List<List<?>> rows = new ArrayList<>();
    for (int g = 0; g < 10; g++) {
      for (int r = 0; r < 5; r++) {
        rows.add(Arrays.asList(1L, "g" + g, 0L, 100.0, "plain"));
      }
    }
    rows.add(Arrays.asList(2L, "g0", 0L, 5.0, "plain"));
    return rows;
  }

  private static final List<Measure> MEASURES = List.of(
      new Measure.FixedPointSum("x", 0, 10, 0, 0, false),
      new Measure.FixedPointSum("x", -20, 50, 2, 60, true),
      new Measure.FixedPointSum("x", -1e9, 1e9, 1, 0, false),
      new Measure.Bins("x", -10, 40, 7));

  /** Measures on non-negative values only. */
  private static final List<Measure> NON_NEGATIVE = List.of(
      new Measure.FixedPointSum("x", 0, 10, 0, 0, false),
      new Measure.FixedPointSum("x", 0, 50, 3, 0, true),
      new Measure.Bins("x", -10, 40, 7));

  /** Pair-clamped sums (Measure.PairClamp): after scaling to L∞ rows, and over all rows. */
  private static final List<Measure> PAIR_CLAMPED = List.of(
      new Measure.FixedPointSum("x", -20, 50, 2, 0, false, new Measure.PairClamp(-30, 90, false)),
      new Measure.FixedPointSum("x", -20, 50, 0, 0, false, new Measure.PairClamp(-5, 60, true)));

  private static BoundedAggregation spec(String table, Optional<String> unit, List<String> groupBy,
      int l0, int lInf, long salt, Optional<Filter> filter,
      Optional<List<List<Object>>> publicGroups) {
    return spec(table, unit, groupBy, l0, lInf, salt, filter, publicGroups, MEASURES);
  }

  private static BoundedAggregation spec(String table, Optional<String> unit, List<String> groupBy,
      int l0, int lInf, long salt, Optional<Filter> filter,
      Optional<List<List<Object>>> publicGroups, List<Measure> measures) {
    return new BoundedAggregation(Source.table(table), filter, unit, groupBy, publicGroups, l0,
        lInf, salt, measures);
  }

  private static Map<List<Object>, GroupAggregate> run(Backend b, BoundedAggregation spec) {
    Map<List<Object>, GroupAggregate> out = new TreeMap<>((x, y) -> x.toString().compareTo(y.toString()));
    b.aggregate(spec, g -> assertEquals(null, out.put(g.key(), g), "one row per group"));
    return out;
  }

  private static void assertSame(BoundedAggregation spec, boolean compareBins) {
    Map<List<Object>, GroupAggregate> d = run(duck, spec);
    Map<List<Object>, GroupAggregate> s = run(spark, spec);
    assertEquals(d.keySet(), s.keySet(), "groups");
    for (List<Object> key : d.keySet()) {
      GroupAggregate a = d.get(key);
      GroupAggregate b = s.get(key);
      String where = "group " + key;
      assertEquals(a.units(), b.units(), where + " units");
      assertEquals(a.rows(), b.rows(), where + " rows");
      assertArrayEquals(a.sums(), b.sums(), where + " sums");
      assertArrayEquals(a.counts(), b.counts(), where + " counts");
      assertArrayEquals(a.squares(), b.squares(), where + " squares");
      if (compareBins) {
        for (int i = 0; i < spec.measures().size(); i++) {
          assertArrayEquals(a.bins()[i], b.bins()[i], where + " bins of measure " + i);
        }
      }
    }
  }

  @Test
  void aggregate_l0NotBinding_sameExactAggregatesAsDuckDb() {
    // At most 9 groups per unit: L0 = 12 never binds; L∞ = 1000 never binds.
    assertSame(spec("crafted", Optional.of("uid"), List.of("g"), 12, 1000, 7, Optional.empty(),
        Optional.empty()), true);
  }

  @Test
  void aggregate_linfBindingForSums_sameExactSumsAsDuckDb() {
    // L∞ = 3 binds: pair sums are rescaled ⌊s·L∞/c⌋ (negative ones too), deterministically.
    assertSame(spec("crafted", Optional.of("uid"), List.of("g", "h"), 40, 3, 11, Optional.empty(),
        Optional.empty(), NON_NEGATIVE), false);
  }

  @Test
  void aggregate_linfBindingWithNegativeSums_sameExactSumsAsDuckDb() {
    // Both backends floor ⌊s·L∞/c⌋ (DuckDB's // alone truncates; SqlPlan.floorDiv corrects it).
    assertSame(spec("crafted", Optional.of("uid"), List.of("g", "h"), 40, 3, 11, Optional.empty(),
        Optional.empty()), false);
  }

  @Test
  void aggregate_pairClampedSums_sameExactSumsAsDuckDb() {
    assertSame(spec("crafted", Optional.of("uid"), List.of("g"), 12, 2, 5, Optional.empty(),
        Optional.empty(), PAIR_CLAMPED), false);
    assertSame(spec("crafted", Optional.of("uid"), List.of("g", "h"), 40, 1, 9, Optional.empty(),
        Optional.empty(), PAIR_CLAMPED), false);
    assertSame(spec("crafted", Optional.empty(), List.of("g"), 1, 1, 3, Optional.empty(),
        Optional.empty(), PAIR_CLAMPED), false);
  }

  @Test
  void aggregate_negativePairSumAboveLinf_floorsAsTheContractSays() {
    List<List<?>> rows = List.of(Arrays.asList(1L, "g", 0L, -1.0, "plain"),
        Arrays.asList(1L, "g", 0L, 0.0, "plain"), Arrays.asList(1L, "g", 0L, 0.0, "plain"),
        Arrays.asList(2L, "g", 0L, -7.0, "plain"), Arrays.asList(2L, "g", 0L, -8.0, "plain"));
    spark.registerTable("negative", COLS, TYPES, rows);
    BoundedAggregation s = new BoundedAggregation(Source.table("negative"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 1, 1, 0,
        List.of(new Measure.FixedPointSum("x", -10, 10, 0, 0, true)));
    GroupAggregate g = run(spark, s).get(List.of("g"));
    // Unit 1: ⌊−1·1/3⌋ = −1 (truncation would give 0); unit 2: ⌊−15/2⌋ = −8; squares ⌊113/2⌋ = 56.
    assertEquals(-1 - 8, g.sums()[0]);
    assertEquals(0 + 56, g.squares()[0]);
    assertEquals(2, g.counts()[0]);
  }

  @Test
  void aggregate_withoutGroupsAndRowLevel_sameExactAggregatesAsDuckDb() {
    assertSame(spec("crafted", Optional.of("uid"), List.of(), 1, 1000, 3, Optional.empty(),
        Optional.empty()), true);
    assertSame(spec("crafted", Optional.of("uid"), List.of(), 1, 2, 3, Optional.empty(),
        Optional.empty(), NON_NEGATIVE), false);
    assertSame(spec("crafted", Optional.empty(), List.of("g"), 1, 1, 3, Optional.empty(),
        Optional.empty()), true);
    assertSame(spec("crafted", Optional.empty(), List.of(), 1, 1, 3, Optional.empty(),
        Optional.empty()), true);
  }

  @Test
  void aggregate_filterWithQuoteAndPublicGroups_sameExactAggregatesAsDuckDb() {
    Optional<Filter> f = Optional.of(Filter.or(Filter.eq("label", "it's"), Filter.gt("h", java.math.BigDecimal.ONE)));
    List<List<Object>> keys = new ArrayList<>();
    keys.add(List.of("g1"));
    keys.add(List.of("g4"));
    keys.add(Arrays.asList((Object) null));
    keys.add(List.of("nobody"));
    BoundedAggregation s = spec("crafted", Optional.of("uid"), List.of("g"), 12, 1000, 5, f,
        Optional.of(keys));
    assertSame(s, true);
    Map<List<Object>, GroupAggregate> out = run(spark, s);
    assertEquals(3, out.size(), "listed groups with rows only; 'nobody' is filled by the engine");
    assertTrue(out.containsKey(Arrays.asList((Object) null)), "NULL key matches NULL");
  }

  @Test
  void aggregate_emptyTable_sameAsDuckDb() {
    assertSame(spec("empty", Optional.of("uid"), List.of("g"), 2, 2, 1, Optional.empty(),
        Optional.empty()), true);
    assertSame(spec("empty", Optional.of("uid"), List.of("g"), 2, 2, 1, Optional.empty(),
        Optional.of(List.of(List.of("g1")))), true);
    Map<List<Object>, GroupAggregate> global = run(spark, spec("empty", Optional.of("uid"),
        List.of(), 2, 2, 1, Optional.empty(), Optional.empty()));
    assertEquals(1, global.size(), "without GROUP BY one (zero) row");
    GroupAggregate g = global.values().iterator().next();
    assertEquals(0, g.units());
    assertEquals(0, g.sums()[1]);
    assertEquals(0, Arrays.stream(g.bins()[3]).sum());
  }

  @Test
  void aggregate_unitExceedingBounds_contributesAtMostL0GroupsAndLinfRows() {
    for (long salt = 0; salt < 4; salt++) {
      Map<List<Object>, GroupAggregate> groups = run(spark, spec("heavy", Optional.of("uid"),
          List.of("g"), 3, 2, salt, Optional.empty(), Optional.empty()));
      long units = groups.values().stream().mapToLong(GroupAggregate::units).sum();
      long rows = groups.values().stream().mapToLong(GroupAggregate::rows).sum();
      long sum = groups.values().stream().mapToLong(g -> g.sums()[0]).sum();
      long binned = groups.values().stream().mapToLong(g -> Arrays.stream(g.bins()[3]).sum())
          .sum();
      // Unit 2 contributes 1 unit, 1 row, value 5 to g0; unit 1 at most 3 groups × 2 rows × 10.
      assertEquals(4, units, "units, salt " + salt);
      assertEquals(3 * 2 + 1, rows, "rows, salt " + salt);
      assertEquals(3 * 2 * 10 + 5, sum, "sum (5 rows of 10 scaled to L∞ = 2 rows), salt " + salt);
      assertEquals(3 * 2 + 1, binned, "binned rows, salt " + salt);
      for (GroupAggregate g : groups.values()) {
        assertTrue(g.units() <= 2 && g.rows() <= 3, "per-group bound");
      }
    }
  }

  @Test
  void aggregate_differentSalts_chooseDifferentGroups() {
    Set<Set<List<Object>>> choices = new HashSet<>();
    for (long salt = 10; salt < 16; salt++) {
      choices.add(run(spark, spec("heavy", Optional.of("uid"), List.of("g"), 3, 2, salt,
          Optional.empty(), Optional.empty())).keySet());
    }
    assertTrue(choices.size() > 2, "group choice should depend on the salt: " + choices.size());
  }

  @Test
  void aggregate_l0Binding_boundsEachUnitsContribution() {
    // Per unit, the kept pairs are at most L0 and each keeps at most L∞ rows; so the totals over
    // all groups are bounded by the per-unit sums of min(pairs, L0)·L∞, and every group's
    // binned count by L∞ per unit.
    BoundedAggregation s = spec("crafted", Optional.of("uid"), List.of("g"), 2, 3, 99,
        Optional.empty(), Optional.empty());
    Map<List<Object>, GroupAggregate> out = run(spark, s);
    Map<List<Object>, GroupAggregate> unbounded = run(spark, spec("crafted", Optional.of("uid"),
        List.of("g"), 12, 1_000_000, 99, Optional.empty(), Optional.empty()));
    long units = out.values().stream().mapToLong(GroupAggregate::units).sum();
    long distinctUnits = 300 - 4; // units 5, 102, 199, 296 have NULL ids
    assertTrue(units <= 2 * distinctUnits, "at most L0 pairs per unit: " + units);
    for (Map.Entry<List<Object>, GroupAggregate> e : out.entrySet()) {
      GroupAggregate g = e.getValue();
      GroupAggregate all = unbounded.get(e.getKey());
      assertTrue(g.units() <= all.units(), "a group keeps a subset of its units");
      assertTrue(g.rows() <= 3 * g.units(), "L∞ rows per kept pair");
      assertTrue(g.counts()[0] <= 3 * g.units(), "L∞ values per kept pair");
      assertTrue(Math.abs(g.sums()[0]) <= 3 * 10 * g.units(), "|sum| ≤ L∞·M per pair");
      assertTrue(Arrays.stream(g.bins()[3]).sum() <= 3 * g.units(), "binned rows per pair");
    }
    assertFalse(out.equals(unbounded), "L0 = 2 binds on this table");
  }

  @Test
  void aggregate_addingOneUnit_changesOnlyThatUnitsContributions() {
    List<List<?>> base = new ArrayList<>();
    for (long u = 0; u < 200; u++) {
      for (int r = 0; r < 6; r++) {
        base.add(Arrays.asList(u, "g" + ((u * 7 + r * 3) % 13), 0L, (double) ((u + r) % 12),
            "plain"));
      }
    }
    List<List<?>> plus = new ArrayList<>(base);
    for (int r = 0; r < 40; r++) {
      plus.add(Arrays.asList(999L, "g" + (r % 13), 0L, 50.0, "plain"));
    }
    spark.registerTable("base", COLS, TYPES, base);
    spark.registerTable("plus", COLS, TYPES, plus);
    for (long salt = 1; salt <= 2; salt++) {
      Map<List<Object>, GroupAggregate> a = run(spark, spec("base", Optional.of("uid"),
          List.of("g"), 2, 3, salt, Optional.empty(), Optional.empty()));
      Map<List<Object>, GroupAggregate> b = run(spark, spec("plus", Optional.of("uid"),
          List.of("g"), 2, 3, salt, Optional.empty(), Optional.empty()));
      long unitDiff = 0;
      long rowDiff = 0;
      long sumDiff = 0;
      for (List<Object> key : b.keySet()) {
        GroupAggregate gb = b.get(key);
        GroupAggregate ga = a.get(key);
        long ua = ga == null ? 0 : ga.units();
        assertTrue(gb.units() - ua >= 0 && gb.units() - ua <= 1, "per-group unit change");
        unitDiff += gb.units() - ua;
        rowDiff += gb.rows() - (ga == null ? 0 : ga.rows());
        sumDiff += Math.abs(gb.sums()[0] - (ga == null ? 0 : ga.sums()[0]));
      }
      assertEquals(2, unitDiff, "the added unit appears in exactly L0 groups");
      assertEquals(2 * 3, rowDiff, "and contributes L∞ rows to each");
      assertEquals(2 * 3 * 10, sumDiff, "its clamped sum is 2 groups × 3 rows × 10");
    }
  }

  @Test
  void aggregate_sumOfSquaresBeyond64Bits_saturatesAtTheCapAsOnDuckDb() {
    List<List<?>> rows = List.of(Arrays.asList(1L, "g", 0L, 3e9, "plain"),
        Arrays.asList(1L, "g", 0L, 3e9, "plain"));
    spark.registerTable("huge", COLS, TYPES, rows);
    BoundedAggregation s = new BoundedAggregation(Source.table("huge"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 1, 2, 0,
        List.of(new Measure.FixedPointSum("x", 0, Math.scalb(1.0, 31), 0, 0, true)));
    // Two values of 2^31 in one pair: Σv² = 2^63 leaves BIGINT; no failure after the charge
    // (issue 10, item 3): the group's sum of squares saturates at the public cap on both backends.
    duck.registerTable("huge", COLS, TYPES, rows);
    Map<List<Object>, GroupAggregate> out = run(spark, s);
    assertEquals(Measure.SUM_CAP, out.get(List.of("g")).squares()[0]);
    assertEquals(Measure.SUM_CAP, run(duck, s).get(List.of("g")).squares()[0]);
  }

  @Test
  void aggregate_valuesBeyondTwoToThe31_refusedBeforeRunning() {
    BoundedAggregation s = new BoundedAggregation(Source.table("crafted"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 1, 2, 0,
        List.of(new Measure.FixedPointSum("x", 0, 1e10, 0, 0, false)));
    assertThrows(IllegalArgumentException.class, () -> spark.aggregate(s, g -> { }));
  }

  @Test
  void describe_missingTable_throwsIllegalArgument() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> spark.describe(Source.table("no_such_table")));
    assertTrue(e.getMessage().contains("no_such_table"), e.getMessage());
  }
}
