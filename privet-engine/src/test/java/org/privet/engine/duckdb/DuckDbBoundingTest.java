package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;

/** Contribution bounding on crafted tables: exact (noise-free) backend aggregates. */
class DuckDbBoundingTest {
  private static final List<String> COLS = List.of("uid", "g", "x");
  private static final List<ColumnType> TYPES =
      List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING);

  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
  }

  @AfterEach
  void close() {
    db.close();
  }

  /** Unit 1: 5 rows in each of 10 groups, value 100; unit 2: one row in g0, value 5. */
  private static List<List<?>> heavyUnitTable() {
    List<List<?>> rows = new ArrayList<>();
    for (int g = 0; g < 10; g++) {
      for (int r = 0; r < 5; r++) {
        rows.add(Arrays.asList(1L, "g" + g, 100.0));
      }
    }
    rows.add(Arrays.asList(2L, "g0", 5.0));
    return rows;
  }

  private static BoundedAggregation spec(String table, int l0, int lInf, long salt,
      Optional<List<List<Object>>> publicGroups) {
    return new BoundedAggregation(Source.table(table), Optional.empty(), Optional.of("uid"),
        List.of("g"), publicGroups, l0, lInf, salt,
        List.of(new Measure.FixedPointSum("x", 0, 10, 0, 0, true), new Measure.Bins("x", 0, 10, 2)));
  }

  private Map<List<Object>, GroupAggregate> run(BoundedAggregation spec) {
    Map<List<Object>, GroupAggregate> out = new HashMap<>();
    db.aggregate(spec, g -> out.put(g.key(), g));
    return out;
  }

  @Test
  void aggregate_unitExceedingBounds_contributesAtMostL0GroupsAndLinfRows() {
    db.registerTable("t", COLS, TYPES, heavyUnitTable());
    for (long salt = 0; salt < 20; salt++) {
      Map<List<Object>, GroupAggregate> groups = run(spec("t", 3, 2, salt, Optional.empty()));
      long units = groups.values().stream().mapToLong(GroupAggregate::units).sum();
      long rows = groups.values().stream().mapToLong(GroupAggregate::rows).sum();
      long sum = groups.values().stream().mapToLong(g -> g.sums()[0]).sum();
      long binned = groups.values().stream().mapToLong(g -> g.bins()[1][0] + g.bins()[1][1]).sum();
      // Unit 2 contributes 1 unit, 1 row, value 5 to g0; unit 1 at most 3 groups × 2 rows × 10.
      assertEquals(4, units, "units, salt " + salt);
      assertEquals(3 * 2 + 1, rows, "rows, salt " + salt);
      assertEquals(3 * 2 * 10 + 5, sum, "sum (5 rows of 10 scaled to L∞ = 2 rows), salt " + salt);
      assertEquals(3 * 2 + 1, binned, "binned rows, salt " + salt);
      for (GroupAggregate g : groups.values()) {
        assertTrue(g.units() <= 2 && g.rows() <= 3, "per-group bound");
        assertTrue(g.squares()[0] <= 2 * 100 + 25, "per-group sum of squares bound");
      }
    }
  }

  @Test
  void aggregate_differentSalts_chooseDifferentGroups() {
    db.registerTable("t", COLS, TYPES, heavyUnitTable());
    java.util.Set<java.util.Set<List<Object>>> choices = new java.util.HashSet<>();
    for (long salt = 0; salt < 20; salt++) {
      choices.add(run(spec("t", 3, 2, salt, Optional.empty())).keySet());
    }
    assertTrue(choices.size() > 5, "group choice should depend on the salt");
  }

  @Test
  void aggregate_addingOneUnit_changesOnlyThatUnitsContributions() {
    List<List<?>> base = new ArrayList<>();
    for (long u = 0; u < 200; u++) {
      for (int r = 0; r < 6; r++) {
        base.add(Arrays.asList(u, "g" + ((u * 7 + r * 3) % 13), (double) ((u + r) % 12)));
      }
    }
    List<List<?>> plus = new ArrayList<>(base);
    for (int r = 0; r < 40; r++) {
      plus.add(Arrays.asList(999L, "g" + (r % 13), 50.0));
    }
    db.registerTable("a", COLS, TYPES, base);
    db.registerTable("b", COLS, TYPES, plus);
    for (long salt = 1; salt <= 5; salt++) {
      Map<List<Object>, GroupAggregate> a = run(spec("a", 2, 3, salt, Optional.empty()));
      Map<List<Object>, GroupAggregate> b = run(spec("b", 2, 3, salt, Optional.empty()));
      long unitDiff = 0;
      long rowDiff = 0;
      long sumDiff = 0;
      for (List<Object> key : b.keySet()) {
        GroupAggregate gb = b.get(key);
        GroupAggregate ga = a.get(key);
        long ua = ga == null ? 0 : ga.units();
        long ra = ga == null ? 0 : ga.rows();
        long sa = ga == null ? 0 : ga.sums()[0];
        assertTrue(gb.units() - ua >= 0 && gb.units() - ua <= 1, "per-group unit change");
        unitDiff += gb.units() - ua;
        rowDiff += gb.rows() - ra;
        sumDiff += Math.abs(gb.sums()[0] - sa);
      }
      assertEquals(2, unitDiff, "the added unit appears in exactly L0 groups");
      assertEquals(2 * 3, rowDiff, "and contributes L∞ rows to each");
      assertEquals(2 * 3 * 10, sumDiff, "its clamped sum is 2 groups × 3 rows × 10");
      assertEquals(a.keySet().size(), b.keySet().stream().filter(a::containsKey).count());
    }
  }

  @Test
  void aggregate_nullsNanAndInfinities_followTheDocumentedRules() {
    List<List<?>> rows = new ArrayList<>();
    rows.add(Arrays.asList(1L, "g", 4.0));
    rows.add(Arrays.asList(2L, "g", null)); // ignored by the sum, counted as a row
    rows.add(Arrays.asList(3L, "g", Double.NaN)); // ignored by the sum, counted as a row
    rows.add(Arrays.asList(4L, "g", Double.POSITIVE_INFINITY)); // clamped to 10
    rows.add(Arrays.asList(5L, "g", Double.NEGATIVE_INFINITY)); // clamped to 0
    rows.add(Arrays.asList(null, "g", 7.0)); // no unit: dropped
    rows.add(Arrays.asList(6L, null, 3.0)); // NULL group is a group
    db.registerTable("t", COLS, TYPES, rows);
    Map<List<Object>, GroupAggregate> groups = run(spec("t", 1, 1, 42, Optional.empty()));
    GroupAggregate g = groups.get(List.of("g"));
    assertEquals(5, g.units());
    assertEquals(5, g.rows());
    assertEquals(4 + 10 + 0, g.sums()[0]);
    assertEquals(3, g.counts()[0]);
    assertEquals(3, g.bins()[1][0] + g.bins()[1][1]);
    GroupAggregate nullGroup = groups.get(Arrays.asList((Object) null));
    assertEquals(1, nullGroup.units());
    assertEquals(3, nullGroup.sums()[0]);
  }

  @Test
  void aggregate_publicGroups_filterRowsBeforeGroupSelection() {
    db.registerTable("t", COLS, TYPES, heavyUnitTable());
    for (long salt = 0; salt < 10; salt++) {
      Map<List<Object>, GroupAggregate> groups =
          run(spec("t", 1, 1, salt, Optional.of(List.of(List.of("g7"), List.of("zz")))));
      assertEquals(1, groups.size());
      assertEquals(1, groups.get(List.of("g7")).units(), "unit 1 must spend its L0 on g7");
      assertFalse(groups.containsKey(List.of("g0")));
    }
  }

  @Test
  void aggregate_rowLevelUnits_countEveryRowOnce() {
    db.registerTable("t", COLS, TYPES, heavyUnitTable());
    BoundedAggregation spec = new BoundedAggregation(Source.table("t"), Optional.empty(),
        Optional.empty(), List.of(), Optional.empty(), 1, 1, 0,
        List.of(new Measure.FixedPointSum("x", 0, 10, 1, 0, false)));
    List<GroupAggregate> out = new ArrayList<>();
    db.aggregate(spec, out::add);
    assertEquals(1, out.size());
    assertEquals(51, out.get(0).units());
    assertEquals(51, out.get(0).rows());
    assertEquals(50 * 20 + 10, out.get(0).sums()[0], "values clamped to 10 on the grid 2^-1");
  }

  @Test
  void aggregate_emptyTable_withoutGroupsReturnsOneZeroRow() {
    db.registerTable("t", COLS, TYPES, List.of());
    BoundedAggregation spec = new BoundedAggregation(Source.table("t"), Optional.empty(),
        Optional.of("uid"), List.of(), Optional.empty(), 1, 1, 0,
        List.of(new Measure.FixedPointSum("x", 0, 10, 0, 0, false)));
    List<GroupAggregate> out = new ArrayList<>();
    db.aggregate(spec, out::add);
    assertEquals(1, out.size());
    assertEquals(0, out.get(0).units());
    assertEquals(0, out.get(0).sums()[0]);
  }

  @Test
  void aggregate_negativePairSumOverLinf_scaledByFloorAsTheContractSays() {
    // One unit, one group, values −1, −1, 0 (scale 2^0): s = −2, c = 3 > L∞ = 2, so the contract
    // gives ⌊−2·2/3⌋ = ⌊−4/3⌋ = −2 (DuckDB's // alone would truncate to −1).
    db.registerTable("neg", COLS, TYPES, List.of(Arrays.asList(1L, "g0", -1.0),
        Arrays.asList(1L, "g0", -1.0), Arrays.asList(1L, "g0", 0.0)));
    BoundedAggregation spec = new BoundedAggregation(Source.table("neg"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 1, 2, 7L,
        List.of(new Measure.FixedPointSum("x", -1, 1, 0, 0, false)));
    GroupAggregate g = run(spec).get(List.of("g0"));
    assertEquals(-2, g.sums()[0]);
    assertEquals(2, g.counts()[0]);
  }
}
