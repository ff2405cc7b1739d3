package org.privet.engine.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;

/**
 * {@link PairRowsHistogram#aggregate} on hand-made histograms (the backends' histograms are
 * checked against the rows in {@code BackendContractTest}): the cells, rows and units by hand; one
 * SQL group returned as several Java values (0.0 and −0.0, NUMERIC 1.0 and 1.00) is one group, as
 * the statement's GROUP BY makes it; counts beyond 2^63 saturate instead of throwing (totality
 * after the charge); and which specs the histogram serves.
 */
class PairRowsHistogramAggregateTest {
  private static final Source SOURCE = Source.table("t");

  private static BoundedAggregation spec(List<String> groupBy, Optional<List<List<Object>>> keys,
      int l0, int lInf, List<Measure> measures) {
    return new BoundedAggregation(SOURCE, Optional.empty(), Optional.of("uid"), groupBy, keys,
        l0, lInf, 7, measures);
  }

  @Test
  void aggregate_scalar_cellsRowsAndUnitsByHand() {
    BoundedAggregation estimate = spec(List.of(), Optional.empty(), 1, 1,
        List.of(new Measure.PairRows("uid", 5)));
    List<PairRowsCount> h = List.of(new PairRowsCount(List.of(), 1, 4),
        new PairRowsCount(List.of(), 3, 2), new PairRowsCount(List.of(), 4, 1),
        new PairRowsCount(List.of(), 100, 1));
    GroupAggregate g = PairRowsHistogram.aggregate(estimate, h).get(0);
    assertEquals(8, g.units());
    assertEquals(8, g.rows(), "Σ min(n, 1)");
    // cells: n = 1 → 0; n = 3, 4 → 2 (n ≤ 4); n = 100 → the last (4)
    assertArrayEquals(new long[] {4, 0, 3, 0, 1}, g.bins()[0]);
    BoundedAggregation main = spec(List.of(), Optional.empty(), 1, 4, List.of());
    GroupAggregate m = PairRowsHistogram.aggregate(main, h).get(0);
    assertEquals(4 + 2 * 3 + 4 + 4, m.rows(), "Σ min(n, 4)");
    assertEquals(0, m.bins().length);
    // no pairs: still one group, as the statement's aggregate without GROUP BY returns one row
    List<GroupAggregate> none = PairRowsHistogram.aggregate(main, List.of());
    assertEquals(1, none.size());
    assertEquals(List.of(), none.get(0).key());
    assertEquals(0, none.get(0).units());
    assertEquals(0, none.get(0).rows());
  }

  @Test
  void aggregate_oneSqlGroupAsSeveralJavaValues_isOneGroup() {
    List<List<Object>> keys = List.of(List.of(0.0), List.of(new BigDecimal("1.0")));
    BoundedAggregation main = spec(List.of("g"), Optional.of(keys), 2, 2, List.of());
    List<PairRowsCount> h = List.of(new PairRowsCount(List.of(0.0), 1, 2),
        new PairRowsCount(List.of(-0.0), 5, 3), new PairRowsCount(List.of(new BigDecimal("1.0")),
            1, 1), new PairRowsCount(List.of(new BigDecimal("1.00")), 2, 1));
    List<GroupAggregate> groups = PairRowsHistogram.aggregate(main, h);
    assertEquals(2, groups.size(), groups.toString());
    assertEquals(5, groups.get(0).units());
    assertEquals(2 + 3 * 2, groups.get(0).rows());
    assertEquals(2, groups.get(1).units());
    assertEquals(3, groups.get(1).rows());
  }

  @Test
  void aggregate_countsBeyondLong_saturateWithoutThrowing() {
    BoundedAggregation main = spec(List.of(), Optional.empty(), 1, 1 << 20, List.of());
    long big = Long.MAX_VALUE / 2;
    GroupAggregate g = PairRowsHistogram.aggregate(main, List.of(new PairRowsCount(List.of(),
        1 << 19, big), new PairRowsCount(List.of(), 1, big), new PairRowsCount(List.of(), 2,
            big))).get(0);
    assertEquals(Long.MAX_VALUE, g.units());
    assertEquals(Long.MAX_VALUE, g.rows());
  }

  @Test
  void serves_countsWithoutSaltDependentPairsOnly() {
    Measure rows = new Measure.PairRows("uid", 20);
    List<List<Object>> two = List.of(List.of("a"), List.of("b"));
    BoundedAggregation scalar = spec(List.of(), Optional.empty(), 1, 1, List.of(rows));
    BoundedAggregation listed = spec(List.of("g"), Optional.of(two), 2, 1, List.of(rows));
    assertTrue(PairRowsHistogram.serves(scalar, scalar));
    assertTrue(PairRowsHistogram.serves(scalar, spec(List.of(), Optional.empty(), 1, 64,
        List.of())));
    assertTrue(PairRowsHistogram.serves(listed, spec(List.of("g"), Optional.of(two), 2, 8,
        List.of())));
    // L0 = 1 over two listed keys: the kept pairs depend on the salt
    assertFalse(PairRowsHistogram.serves(spec(List.of("g"), Optional.of(two), 1, 1,
        List.of(rows)), spec(List.of("g"), Optional.of(two), 1, 8, List.of())));
    // private groups, a sum, another L0
    assertFalse(PairRowsHistogram.serves(spec(List.of("g"), Optional.empty(), 5, 1,
        List.of(rows)), spec(List.of("g"), Optional.empty(), 5, 8, List.of())));
    assertFalse(PairRowsHistogram.serves(scalar, spec(List.of(), Optional.empty(), 1, 8,
        List.of(new Measure.FixedPointSum("x", 0, 10, 2, 0, false)))));
    assertFalse(PairRowsHistogram.serves(listed, spec(List.of("g"), Optional.of(two), 3, 8,
        List.of())));
    assertThrows(IllegalArgumentException.class, () -> PairRowsHistogram.aggregate(
        spec(List.of(), Optional.empty(), 1, 8,
            List.of(new Measure.FixedPointSum("x", 0, 10, 2, 0, false))), List.of()));
  }
}
