package org.privet.hostile;

import org.apache.spark.sql.SparkSession;

/**
 * One local Spark session for every test class of the module (starting Spark costs seconds): two
 * cores, two shuffle partitions, no UI, quiet logging, ANSI mode on (invalid casts and overflows
 * fail instead of yielding NULL, so a data-dependent failure cannot hide).
 */
final class LocalSpark {
  private static SparkSession session;

  private LocalSpark() {}

  static synchronized SparkSession session() {
    if (session == null) {
      session = SparkSession.builder().master("local[2]").appName("privet-hostile-tests")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.default.parallelism", "2")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.session.timeZone", "UTC")
          .config("spark.sql.ansi.enabled", "true")
          .config("spark.sql.adaptive.enabled", "false")
          .config("spark.sql.codegen.wholeStage", "false")
          .getOrCreate();
    }
    return session;
  }
}
