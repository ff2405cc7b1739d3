package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

/**
 * Per-unit-per-group clamping ({@link Measure.PairClamp}) on crafted tables: the backend's exact
 * bounded sums against hand computations.
 */
class DuckDbPairClampTest {
  private static final List<String> COLS = List.of("uid", "g", "x");
  private static final List<ColumnType> TYPES =
      List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING);

  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
    db.registerTable("t", COLS, TYPES, PairClampFixture.rows());
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Map<List<Object>, GroupAggregate> run(int lInf, Measure.PairClamp pc, boolean unitLevel) {
    BoundedAggregation spec = new BoundedAggregation(Source.table("t"), Optional.empty(),
        unitLevel ? Optional.of("uid") : Optional.empty(), List.of("g"), Optional.empty(),
        unitLevel ? 2 : 1, unitLevel ? lInf : 1, 7L,
        List.of(new Measure.FixedPointSum("x", 0, 10, 0, 0, false, pc)));
    Map<List<Object>, GroupAggregate> out = new HashMap<>();
    db.aggregate(spec, g -> out.put(g.key(), g));
    return out;
  }

  private static long sum(Map<List<Object>, GroupAggregate> groups, String g) {
    return groups.get(List.of(g)).sums()[0];
  }

  @Test
  void aggregate_cappedPairClamp_clampsEachUnitsScaledTotal() {
    Map<List<Object>, GroupAggregate> out = run(5, new Measure.PairClamp(5, 30, false), true);
    // Unit totals after L∞ = 5: 50, 6, 50, 2, (none), 10 → clamped to [5, 30]: 30, 6, 30, 5, 0, 10.
    assertEquals(30 + 6 + 30 + 5 + 0 + 10, sum(out, "g0"));
    assertEquals(27, sum(out, "g1"));
    // Counts are unchanged by the pair clamp: 5 + 2 + 5 + 1 + 0 + 2.
    assertEquals(15, out.get(List.of("g0")).counts()[0]);
  }

  @Test
  void aggregate_allRowsPairClamp_clampsEachUnitsWholeTotal() {
    Map<List<Object>, GroupAggregate> out = run(5, new Measure.PairClamp(5, 60, true), true);
    // Whole totals: 50, 6, 70, 2, (none), 10 → clamped to [5, 60]: 50, 6, 60, 5, 0, 10.
    assertEquals(50 + 6 + 60 + 5 + 0 + 10, sum(out, "g0"));
    // The capped variant scales unit 3 to 50 first: 50 + 6 + 50 + 5 + 10.
    assertEquals(50 + 6 + 50 + 5 + 10, sum(run(5, new Measure.PairClamp(5, 60, false), true), "g0"));
  }

  @Test
  void aggregate_negativePairBounds_clampBelowToo() {
    Map<List<Object>, GroupAggregate> out = run(5, new Measure.PairClamp(-4, 4, false), true);
    // 50, 6, 50, 2, (none), 10 → 4, 4, 4, 2, 0, 4.
    assertEquals(18, sum(out, "g0"));
    assertEquals(4, sum(out, "g1"));
  }

  @Test
  void aggregate_withoutPairClamp_matchesRowBoundsOnly() {
    Map<List<Object>, GroupAggregate> out = run(5, null, true);
    assertEquals(50 + 6 + 50 + 2 + 10, sum(out, "g0"));
  }

  @Test
  void aggregate_rowLevelPairClamp_clampsEachRow() {
    Map<List<Object>, GroupAggregate> out = run(1, new Measure.PairClamp(3, 8, false), false);
    // Rows after the row clamp [0, 10]: 5×10, 3, 3, 7×10, 2, NULL, 10, 0 → clamped to [3, 8]:
    // 12 × 8 + 3 + 3 + 3 + 8 + 3 (the NULL row is ignored).
    assertEquals(12 * 8 + 3 + 3 + 3 + 8 + 3, sum(out, "g0"));
    assertEquals(3 * 8, sum(out, "g1"));
  }

  @Test
  void aggregate_fractionalGrid_clampsExactlyInFixedPoint() {
    // Grid 2^-2: values 10 → 40, 3 → 12, 9 → 36; pair clamp [0, 22] grid units (= [0, 5.5]).
    BoundedAggregation spec = new BoundedAggregation(Source.table("t"), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 2, 5, 7L,
        List.of(new Measure.FixedPointSum("x", 0, 10, 2, 0, false,
            new Measure.PairClamp(0, 22, false))));
    Map<List<Object>, GroupAggregate> out = new HashMap<>();
    db.aggregate(spec, g -> out.put(g.key(), g));
    // g0 unit totals (grid): 200, 24, 200, 8, none, 40 → 22, 22, 22, 8, 0, 22.
    assertEquals(96, sum(out, "g0"));
    assertEquals(22, sum(out, "g1"));
  }

  @Test
  void pairClamp_allRowsWithCentreOrSquares_isRejected() {
    Measure.PairClamp pc = new Measure.PairClamp(0, 1, false);
    new Measure.FixedPointSum("x", 0, 1, 0, 1, false, pc); // centred after the clamp
    assertThrows(IllegalArgumentException.class, () -> new Measure.FixedPointSum("x", 0, 1, 0, 1,
        false, new Measure.PairClamp(0, 1, true)));
    assertThrows(IllegalArgumentException.class,
        () -> new Measure.FixedPointSum("x", 0, 1, 0, 0, true, pc));
    assertThrows(IllegalArgumentException.class, () -> new Measure.PairClamp(2, 1, false));
  }
}
