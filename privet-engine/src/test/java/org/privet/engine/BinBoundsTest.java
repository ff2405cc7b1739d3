package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * Issue 10 item 2: bounds whose cell arithmetic (bins/(upper − lower)) is not finite and exact
 * enough made every non-null row fail after the charge, so an empty table and a one-row table were
 * told apart with certainty. Such bounds must be refused before the charge, identically on both.
 */
class BinBoundsTest {

  /** What an analyst observes outside a successful release. */
  private record Outcome(String kind, String message, int charges) {}

  private static Outcome run(List<List<?>> rows, Supplier<Query> query) {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      TestTables.register(db, "t", rows);
      AtomicInteger charges = new AtomicInteger();
      Session s = Session.builder().backend(db).budgetCharger(c -> charges.incrementAndGet())
          .randomSource(new SeededRandomSource(7)).build();
      try {
        s.run(query.get());
        return new Outcome("released", "", charges.get());
      } catch (RuntimeException e) {
        return new Outcome(e.getClass().getName(), e.getMessage(), charges.get());
      }
    }
  }

  private static void assertNeighboursRefusedAlike(Supplier<Query> query) {
    List<List<?>> one = new ArrayList<>();
    one.add(Arrays.asList(1L, "a", 0.5));
    Outcome empty = run(List.of(), query);
    Outcome single = run(one, query);
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
    Outcome o = run(one, () -> Query.from("t").eachRowIsAUnit()
        .histogram("h", "x", -1e-300, 1e-300, 16).epsilon(1).build());
    assertTrue(o.kind().equals("released"), o.toString());
  }
}
