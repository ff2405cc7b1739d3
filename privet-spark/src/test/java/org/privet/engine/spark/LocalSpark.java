package org.privet.engine.spark;

import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;

/**
 * One local Spark session for every test class of the module (starting Spark costs seconds):
 * two cores, two shuffle partitions, no UI, quiet logging (src/test/resources/log4j2.properties).
 * A JVM holds one SparkContext at a time: {@link StandaloneSparkCluster} stops this session with
 * {@link #stop()}, and the next {@link #session()} starts a new one.
 */
final class LocalSpark {
  private static SparkSession session;

  private LocalSpark() {}

  static synchronized SparkSession session() {
    if (session == null || session.sparkContext().isStopped()) {
      session = SparkSession.builder().master("local[2]").appName("privet-spark-tests")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.default.parallelism", "2")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.session.timeZone", "UTC")
          // Test tables are tiny: adaptive re-planning per stage and whole-stage code generation
          // cost far more than they save here (both stay on by default for real sessions).
          .config("spark.sql.adaptive.enabled", "false")
          .config("spark.sql.codegen.wholeStage", "false")
          .getOrCreate();
      if (!session.sparkContext().isLocal()) { // getOrCreate returned another, running session
        throw new IllegalStateException("a Spark session on " + session.sparkContext().master()
            + " is still running in this JVM");
      }
    }
    return session;
  }

  /** Stops the local session, if one is running (a later {@link #session()} starts another). */
  static synchronized void stop() {
    if (session != null) {
      session.stop();
      session = null;
    }
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
  }

  /** The repository root: the first directory above the working directory holding data/adult-raw. */
  static Path repoRoot() {
    return org.privet.testing.Repository.root();
  }
}
