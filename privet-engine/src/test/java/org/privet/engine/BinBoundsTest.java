package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * Issue 10 item 2: bounds whose cell arithmetic (bins/(upper − lower)) is not finite and exact
 * enough made every non-null row fail after the charge, so an empty table and a one-row table were
 * told apart with certainty. Such bounds must be refused before the charge, identically on both.
 */
class BinBoundsTest {

  private static Observed run(List<List<?>> rows, Supplier<Query> query) {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      TestTables.register(db, "t", rows);
      return Observed.run(db, query);
    }
  }

  private static void assertNeighboursRefusedAlike(Supplier<Query> query) {
    List<List<?>> one = new ArrayList<>();
    one.add(Arrays.asList(1L, "a", 0.5));
    Observed empty = run(List.of(), query);
    Observed single = run(one, query);
    assertEquals(empty, single, "empty vs one-row table");
    assertEquals(IllegalArgumentException.class.getName(), single.kind(), single.toString());
    assertEquals(0, single.charges(), "a refusal charges nothing");
  }

  @Test
  void histogram_boundsNarrowerThanAnyCell_refusedBeforeTheChargeOnNeighbours() {
    assertNeighboursRefusedAlike(() -> Query.from("t").eachRowIsAUnit()
        .histogram("h", "x", 0, Double.MIN_VALUE, 4).epsilon(1).build());
  }

  @Test
  void quantiles_boundsWithInfiniteCellRate_refusedBeforeTheChargeOnNeighbours() {
    assertNeighboursRefusedAlike(() -> Query.from("t").eachRowIsAUnit()
        .quantiles("q", "x", 0, 1e-306, 0.5).epsilon(1).build());
  }

  @Test
  void histogram_cellsBelowTheDoubleResolution_refused() {
    // 1024 cells between 1e15 and 1e15 + 8: cells narrower than one ulp of the bounds.
    assertNeighboursRefusedAlike(() -> Query.from("t").eachRowIsAUnit()
        .histogram("h", "x", 1e15, 1e15 + 8, 1024).epsilon(1).build());
  }

  @Test
  void histogram_ordinaryBounds_released() {
    List<List<?>> one = new ArrayList<>();
    one.add(Arrays.asList(1L, "a", 0.5));
    Observed o = run(one, () -> Query.from("t").eachRowIsAUnit()
        .histogram("h", "x", -1e-300, 1e-300, 16).epsilon(1).build());
    assertTrue(o.kind().equals("released"), o.toString());
  }
}
