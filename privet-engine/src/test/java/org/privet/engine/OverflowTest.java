package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * Issue 10 item 3: exact per-group aggregates that leave the 64-bit range failed after the charge.
 * {@code VARIANCE(x, 0, 1)} over all-ones data (each row's centred square is 2^38 grid units²)
 * succeeded at 2^25 − 1 rows and failed at 2^25, telling the neighbours apart with certainty. The
 * aggregates now saturate at a public cap, so both neighbours are released alike.
 *
 * <p>The tables are views over DuckDB's {@code range()}: nothing is materialised, a run streams
 * 2^25 rows (about a second).
 */
class OverflowTest {
  private static final long ROWS = 1L << 25;

  @Test
  void variance_allOnesAtTwoToTheTwentyFiveRows_releasedAlikeOnNeighbours() {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("CREATE VIEW without AS SELECT CAST(1 AS DOUBLE) AS x FROM range(" + (ROWS - 1)
          + ")");
      db.execute("CREATE VIEW with_victim AS SELECT CAST(1 AS DOUBLE) AS x FROM range(" + ROWS
          + ")");
      Observed a = Observed.run(db, () -> variance("without"));
      Observed b = Observed.run(db, () -> variance("with_victim"));
      assertEquals(a, b, "neighbours (2^25 − 1 and 2^25 rows) observed differently");
      assertEquals("released", b.kind(), b.toString());
      assertEquals(1, b.charges());
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited()).build();
      double v = s.run(variance("with_victim")).rows().get(0).get("v").value();
      assertTrue(v >= 0 && v <= 0.25, "variance within [0, ((upper − lower)/2)²], was " + v);
    }
  }

  private static Query variance(String table) {
    return Query.from(table).eachRowIsAUnit().variance("v", "x", 0, 1).epsilon(1).build();
  }
}
