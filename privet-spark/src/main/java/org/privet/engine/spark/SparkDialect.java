package org.privet.engine.spark;

import java.util.List;
import org.privet.engine.spi.SqlDialect;

/**
 * Spark SQL's spelling of the {@link org.privet.engine.spi.BoundingPlan}. Its facts ({@code
 * docs/proofs/engine-spark.md}): SUM(BIGINT) wraps outside ANSI mode, so sums use {@code try_sum},
 * which is NULL on overflow (the plan then saturates, or substitutes a value in the pair's range);
 * wide arithmetic is DECIMAL(38,0) with a floor built from {@code DIV} (truncating) and {@code %};
 * rounding is {@code rint} (half to even, as DuckDB's cast and PostgreSQL's); the salted hash is
 * {@code xxhash64} seeded by the salt; the public keys are a LEFT SEMI JOIN with {@code <=>}; cells
 * are listed with {@code collect_list}. String literals never depend on Spark's escaping rules
 * ({@code spark.sql.parser.escapedStringLiterals}): text with a quote, a backslash or a control
 * character is written as {@code decode(unhex('...'), 'UTF-8')}, which Spark folds to a constant.
 */
final class SparkDialect implements SqlDialect {
  static final SparkDialect INSTANCE = new SparkDialect();

  private SparkDialect() {}

  @Override
  public String quote(String identifier) {
    return SparkSqlText.quote(identifier);
  }

  @Override
  public String string(String text) {
    return SparkSqlText.string(text);
  }

  @Override
  public String bigint(long v) {
    return "CAST('" + v + "' AS BIGINT)";
  }

  @Override
  public String dbl(double d) {
    return "CAST('" + d + "' AS DOUBLE)";
  }

  @Override
  public String wideInteger() {
    return "DECIMAL(38,0)";
  }

  @Override
  public String roundToBigint(String x) {
    return "CAST(rint(" + x + ") AS BIGINT)";
  }

  @Override
  public String saltedHash(List<String> args, long salt) {
    return "xxhash64(" + bigint(salt) + ", " + String.join(", ", args) + ")";
  }

  /** {@code sha2(text, 256)}: lowercase hex of the SHA-256 of the string's UTF-8 bytes. */
  @Override
  public String sha256Hex(String text) {
    return "sha2(" + text + ", 256)";
  }

  @Override
  public String textType() {
    return "STRING";
  }

  /** {@code monotonically_increasing_id()}: distinct per row without moving every row to one partition. */
  @Override
  public String distinctRowNumber() {
    return "monotonically_increasing_id()";
  }

  @Override
  public String exactSum(String x) {
    return "TRY_SUM(" + x + ")";
  }

  @Override
  public boolean sumsOverflowToNull() {
    return true;
  }

  @Override
  public String floorDiv(String n, String d) {
    return "((" + n + ") DIV " + d + " - CASE WHEN (" + n + ") % " + d + " < 0 THEN 1 ELSE 0 END)";
  }

  @Override
  public String nullSafeEquals(String a, String b) {
    return a + " <=> " + b;
  }

  @Override
  public String values(List<String> rows, String alias, List<String> columns) {
    return "VALUES " + String.join(", ", rows) + " AS " + alias + "(" + String.join(", ", columns)
        + ")";
  }

  @Override
  public Restriction semiJoin(String relation, String condition) {
    return new Restriction(" LEFT SEMI JOIN " + relation + " ON " + condition, null);
  }

  @Override
  public String cellList(String cell, String count) {
    return "concat_ws(',', collect_list(concat(CAST(" + cell + " AS STRING), ':', CAST(" + count
        + " AS STRING))))";
  }

  /**
   * One shuffle by unit serves the pair aggregation (clustered by unit and group) and the per-unit
   * window alike; without it Spark shuffles by (unit, group) and again by unit.
   */
  @Override
  public String clusterByUnit() {
    return " DISTRIBUTE BY __u";
  }
}
