package org.privet.cli;

import org.privet.engine.spi.Backend;

/**
 * The file backend of {@code privet query --spark-master URL}: Apache Spark reads every file table
 * of the queried dataset (all its tables, joins included, issue 25) instead of an in-process
 * DuckDB; PostgreSQL datasets still run in their database. The engine, its bounding and its
 * privacy arguments are the same on both backends (the backend contract kit), so the choice
 * changes where the rows are read, never what is released or charged.
 *
 * <p>Spark is not bundled with the CLI (as for any Spark application, it is {@code provided}):
 * its jars, Spark 3.5 for Scala 2.13, must be on the classpath ahead of the CLI's jar, with the
 * JVM options of {@code privet-spark/pom.xml} (README, "Running on Spark"). Without them the
 * option is refused before anything is read or charged. Spark classes are touched only in {@link
 * Session}, by reflection, so a run without the option never loads them.
 */
final class SparkFiles {
  private SparkFiles() {}

  /**
   * A Spark backend on the session of {@code master} ({@code local[2]}, {@code spark://HOST:PORT}),
   * created or reused in this JVM; closing the backend drops its views, and the session stops with
   * the JVM.
   *
   * @throws IllegalArgumentException naming {@code --spark-master} if Spark is not on the classpath
   */
  static Backend open(String master) {
    if (master == null || master.isBlank()) {
      throw new IllegalArgumentException("--spark-master must name a Spark master, e.g. local[2] or"
          + " spark://HOST:7077");
    }
    try {
      Class.forName("org.apache.spark.sql.SparkSession", false, SparkFiles.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException("--spark-master: Apache Spark (3.5, Scala 2.13) is not on the"
          + " classpath; run privet with Spark's jars ahead of privet.jar (README, \"Running on Spark\")");
    }
    return Session.backend(master.strip());
  }

  /**
   * The session and the backend, by reflection: the CLI compiles without Spark (its jars come with
   * whoever runs it), as {@code privet-spark} is compiled against it.
   */
  private static final class Session {
    static Backend backend(String master) {
      try {
        Class<?> session = Class.forName("org.apache.spark.sql.SparkSession");
        Object b = session.getMethod("builder").invoke(null);
        Class<?> builder = b.getClass();
        b = builder.getMethod("master", String.class).invoke(b, master);
        b = builder.getMethod("appName", String.class).invoke(b, "privet-query");
        java.lang.reflect.Method config = builder.getMethod("config", String.class, String.class);
        b = config.invoke(b, "spark.ui.enabled", "false");
        b = config.invoke(b, "spark.sql.session.timeZone", "UTC");
        // invalid casts and overflows fail instead of yielding NULL, so nothing data-dependent hides
        b = config.invoke(b, "spark.sql.ansi.enabled", "true");
        Object spark = builder.getMethod("getOrCreate").invoke(b);
        return (Backend) Class.forName("org.privet.engine.spark.SparkBackend").getMethod("on", session)
            .invoke(null, spark);
      } catch (java.lang.reflect.InvocationTargetException e) {
        throw new IllegalArgumentException("--spark-master: Spark could not start a session at " + master
            + " (" + e.getCause().getClass().getSimpleName() + ")");
      } catch (ReflectiveOperationException | LinkageError e) {
        throw new IllegalArgumentException("--spark-master: this Spark is not Spark 3.5 for Scala 2.13 ("
            + e.getClass().getSimpleName() + ")");
      }
    }
  }
}
