package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;

/** Registering DataFrames: a view lands in the backend's own session, or nowhere. */
class SparkBackendRegisterTest {
  @Test
  void registerDataFrame_ofAnotherSession_refusedNamingTheView() {
    SparkSession spark = LocalSpark.session();
    SparkSession other = spark.newSession(); // same SparkContext, its own temporary views
    SparkBackend backend = SparkBackend.on(spark);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> backend.registerDataFrame("elsewhere", other.range(3).toDF("uid")));
    assertTrue(e.getMessage().contains("'elsewhere'"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> backend.describe(Source.table("elsewhere")));

    backend.registerDataFrame("here", spark.range(3).toDF("uid"));
    assertEquals(1, backend.describe(Source.table("here")).columns().size());
    backend.close();
  }
}
