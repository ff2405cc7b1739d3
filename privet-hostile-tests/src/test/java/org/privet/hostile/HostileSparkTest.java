package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.spark.SparkBackend;

/**
 * The hostile-analyst suite on Spark (ANSI mode, one shared local[2] session): the cases of
 * {@link Cases} on empty vs the victim alone and on the base table without and with the victim
 * must be observed identically, and refused or released as stated; and the issue's
 * {@code VARIANCE(x, 0, 1)} attack at 2^25 rows (item 3) is released alike on both neighbours.
 */
class HostileSparkTest {
  private static SparkBackend spark;

  @BeforeAll
  static void tables() {
    spark = SparkBackend.on(LocalSpark.session());
    Tables.spark(spark, "empty", List.of());
    Tables.spark(spark, "victim_only", Cases.victim());
    Tables.spark(spark, "base", Cases.base());
    Tables.spark(spark, "base_victim", Cases.plus(Cases.base(), Cases.victim()));
  }

  @AfterAll
  static void close() {
    spark.close();
  }

  static Stream<Cases.Case> cases() {
    return Cases.all().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void errorPath_onNeighbouringTables_observedIdentically(Cases.Case c) {
    String[][] pairs = {{"empty", "victim_only"}, {"base", "base_victim"}};
    Cases.assertObservedAlike(c, spark, pairs);
  }

  @Test
  void variance_allOnesAtTwoToTheTwentyFiveRows_releasedAlikeOnNeighbours() {
    long rows = 1L << 25;
    spark.registerDataFrame("ones_without", LocalSpark.session().range(rows - 1)
        .selectExpr("CAST(1 AS DOUBLE) AS x"));
    spark.registerDataFrame("ones_with", LocalSpark.session().range(rows)
        .selectExpr("CAST(1 AS DOUBLE) AS x"));
    Observation a = Observation.api(spark, "ones_without", HostileSparkTest::variance,
        BudgetCharger.unlimited());
    Observation b = Observation.api(spark, "ones_with", HostileSparkTest::variance,
        BudgetCharger.unlimited());
    assertEquals(a, b);
    assertTrue(b.released(), b.toString());
  }

  private static Query variance(String table) {
    return Query.from(table).eachRowIsAUnit().variance("v", "x", 0, 1).epsilon(1).build();
  }
}
