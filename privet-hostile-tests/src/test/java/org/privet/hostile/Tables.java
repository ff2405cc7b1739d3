package org.privet.hostile;

import java.sql.Date;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spark.SparkBackend;

/** Creates the suite's table (schema of {@link Row}) on DuckDB or Spark, as the data owner would. */
final class Tables {
  private static final StructType SPARK_SCHEMA = new StructType()
      .add("uid", DataTypes.LongType).add("g", DataTypes.StringType)
      .add("k", DataTypes.ShortType).add("x", DataTypes.DoubleType)
      .add("m", DataTypes.createDecimalType(6, 2)).add("d", DataTypes.DateType)
      .add("ts", DataTypes.TimestampType).add("b", DataTypes.BooleanType);

  private Tables() {}

  static void duckdb(DuckDbBackend db, String name, List<Row> rows) {
    db.execute("CREATE OR REPLACE TABLE " + name + " (uid BIGINT, g VARCHAR, k SMALLINT,"
        + " x DOUBLE, m DECIMAL(6,2), d DATE, ts TIMESTAMP, b BOOLEAN)");
    if (rows.isEmpty()) {
      return;
    }
    StringBuilder s = new StringBuilder("INSERT INTO " + name + " VALUES ");
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      s.append(i == 0 ? "(" : ", (").append(r.uid()).append(", ")
          .append(r.g() == null ? "NULL" : "'" + r.g().replace("'", "''") + "'").append(", ")
          .append(r.k()).append(", ")
          .append(r.x() == null ? "NULL" : "CAST('" + r.x() + "' AS DOUBLE)").append(", ")
          .append(r.m() == null ? "NULL" : r.m().toPlainString()).append(", ")
          .append(r.d() == null ? "NULL" : "DATE '" + r.d() + "'").append(", ")
          .append(r.ts() == null ? "NULL" : "TIMESTAMP '" + Timestamp.valueOf(r.ts()) + "'")
          .append(", ").append(r.b()).append(')');
    }
    db.execute(s.toString());
  }

  static void spark(SparkBackend backend, String name, List<Row> rows) {
    SparkSession spark = backend.trustedSession();
    List<org.apache.spark.sql.Row> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(RowFactory.create(r.uid(), r.g(), r.k(), r.x(), r.m(),
          r.d() == null ? null : Date.valueOf(r.d()),
          r.ts() == null ? null : Timestamp.valueOf(r.ts()), r.b()));
    }
    backend.registerDataFrame(name, spark.createDataFrame(out, SPARK_SCHEMA));
  }
}
