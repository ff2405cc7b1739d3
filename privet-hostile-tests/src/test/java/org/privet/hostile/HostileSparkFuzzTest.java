package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.privet.engine.BudgetCharger;
import org.privet.engine.spark.SparkBackend;

/**
 * The fuzzing of {@link HostileFuzzTest} on Spark (ANSI mode, the shared local session), with
 * fewer tries: Spark runs each query in about a second.
 */
class HostileSparkFuzzTest {
  private static SparkBackend spark;

  private static synchronized SparkBackend spark() {
    if (spark == null) {
      spark = SparkBackend.on(LocalSpark.session());
    }
    return spark;
  }

  @Provide
  Arbitrary<QueryFuzz.Pair> pairs() {
    return QueryFuzz.pairs();
  }

  @Provide
  Arbitrary<String> queries() {
    return QueryFuzz.queries();
  }

  @Property(tries = 16, seed = "20261126")
  void query_onNeighbouringTables_observedIdentically(@ForAll("pairs") QueryFuzz.Pair pair,
      @ForAll("queries") String sql) {
    Tables.spark(spark(), "fuzz_without", pair.without());
    Tables.spark(spark(), "fuzz_with", pair.with());
    Observation a = Observation.sql(spark(), "fuzz_without", sql, BudgetCharger.unlimited());
    Observation b = Observation.sql(spark(), "fuzz_with", sql, BudgetCharger.unlimited());
    assertEquals(a, b, sql);
  }
}
