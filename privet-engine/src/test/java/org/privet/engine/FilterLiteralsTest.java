package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * Issue 10 item 1: a filter literal that the database converts only when a row reaches the
 * predicate failed after the charge exactly when the victim's row existed (a membership oracle).
 * Literals are now typed in Java before the charge: on neighbouring tables (without and with the
 * victim's row) the outcome is the same refusal, or the same successful run.
 */
class FilterLiteralsTest {

  /** Runs the query on a table with (victim = true) or without user 17's row. */
  private static Observed run(boolean victim, Supplier<Query> query) {
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("CREATE TABLE t (uid BIGINT, d DATE, k BIGINT, s SMALLINT, m DECIMAL(6,2),"
          + " ts TIMESTAMP, x DOUBLE)");
      db.execute("INSERT INTO t VALUES (1, DATE '2020-01-01', 5, 7, 12.5,"
          + " TIMESTAMP '2020-01-01 10:00:00', 1.5)");
      if (victim) {
        db.execute("INSERT INTO t VALUES (17, DATE '2021-06-01', 9, 3, 1.25,"
            + " TIMESTAMP '2021-06-01 00:00:00', 2.5)");
      }
      return Observed.run(db, query);
    }
  }

  private static Query count(Filter where) {
    return Query.from("t").eachRowIsAUnit().where(where).count("n").epsilon(1).build();
  }

  private static Observed sameOnNeighbours(Filter where) {
    Observed without = run(false, () -> count(where));
    Observed with = run(true, () -> count(where));
    assertEquals(without, with, "outcome differs between neighbours for " + where);
    return with;
  }

  private static void refusedBeforeTheCharge(Filter where, String fragment) {
    Observed o = sameOnNeighbours(where);
    assertEquals(IllegalArgumentException.class.getName(), o.kind(), o.toString());
    assertTrue(o.message().contains(fragment), o.message());
    assertEquals(0, o.charges());
  }

  private static void released(Filter where) {
    Observed o = sameOnNeighbours(where);
    assertEquals("released", o.kind(), o.toString());
    assertEquals(1, o.charges());
  }

  @Test
  void run_dateLiteralThatIsNoDate_refusedOnBothNeighbours() {
    refusedBeforeTheCharge(Filter.and(Filter.eq("uid", 17L), Filter.eq("d", "not-a-date")),
        "not a date");
  }

  @Test
  void run_timestampLiteralThatIsNoTimestamp_refusedOnBothNeighbours() {
    refusedBeforeTheCharge(Filter.and(Filter.eq("uid", 17L), Filter.gt("ts", "2021-13-45")),
        "not a timestamp");
  }

  @Test
  void run_numberBeyondTheIntegerColumnsRange_runsAlikeOnBothNeighbours() {
    released(Filter.and(Filter.eq("uid", 17L), Filter.eq("k", 1e30)));
    released(Filter.and(Filter.eq("uid", 17L), Filter.lt("s", 40000L)));
    released(Filter.and(Filter.eq("uid", 17L), Filter.ge("s", -1e300)));
    released(Filter.and(Filter.eq("uid", 17L), Filter.in("s", 1e30, 3L)));
  }

  @Test
  void run_decimalLiteralsOutsideTheColumnsPrecision_runAlikeOnBothNeighbours() {
    released(Filter.and(Filter.eq("uid", 17L), Filter.eq("m", new BigDecimal("123456789.5"))));
    released(Filter.and(Filter.eq("uid", 17L), Filter.le("m", new BigDecimal("1.255"))));
  }
}
