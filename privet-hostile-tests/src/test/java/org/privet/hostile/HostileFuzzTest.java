package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.privet.engine.BudgetCharger;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * Property-based fuzzing on DuckDB (issue 10): for random DP SQL queries (every aggregate, literals
 * of every type valid or not for their column, bounds near the double range, group keys) on random
 * neighbouring tables, the observation outside the noisy values ({@link Observation}) is the same.
 * Fixed seed, bounded tries; the statistics check that both refusals and releases are exercised.
 */
class HostileFuzzTest {
  private static DuckDbBackend db;

  private static synchronized DuckDbBackend db() {
    if (db == null) {
      db = DuckDbBackend.inMemory();
    }
    return db;
  }

  @Provide
  Arbitrary<QueryFuzz.Pair> pairs() {
    return QueryFuzz.pairs();
  }

  @Provide
  Arbitrary<String> queries() {
    return QueryFuzz.queries();
  }

  @Property(tries = 300, seed = "20261126")
  void query_onNeighbouringTables_observedIdentically(@ForAll("pairs") QueryFuzz.Pair pair,
      @ForAll("queries") String sql) {
    Tables.duckdb(db(), "fuzz_without", pair.without());
    Tables.duckdb(db(), "fuzz_with", pair.with());
    Observation a = Observation.sql(db(), "fuzz_without", sql, BudgetCharger.unlimited());
    Observation b = Observation.sql(db(), "fuzz_with", sql, BudgetCharger.unlimited());
    Statistics.label("outcome").collect(b.released() ? "released" : "refused");
    Statistics.label("outcome").coverage(c -> {
      c.check("released").count(n -> n > 20);
      c.check("refused").count(n -> n > 20);
    });
    assertEquals(a, b, sql);
  }
}
