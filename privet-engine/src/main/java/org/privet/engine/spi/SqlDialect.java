package org.privet.engine.spi;

import java.util.List;

/**
 * How one SQL database spells the few things the {@link BoundingPlan} needs that standard SQL
 * leaves open. The plan (the privacy-relevant structure: pairs, L0 selection, L∞ bounding, pair
 * clamp, saturated group sums, bins) is written once; a dialect only renders primitives, and each
 * primitive has one documented meaning that a dialect must implement exactly (its facts are argued
 * in its own proof note, e.g. {@code docs/proofs/engine-spark.md}; the plan in {@code
 * docs/proofs/engine-bounding.md}).
 *
 * <p>Defaults are standard SQL as DuckDB and PostgreSQL accept it. Strategies (the minimum-hash
 * plan for L0 = 1, DOUBLE pair sums under a guard) are off unless a dialect turns them on.
 */
public interface SqlDialect extends FilterSql.Dialect {

  /** A BIGINT literal for {@code v} (any long, including {@link Long#MIN_VALUE}). */
  default String bigint(long v) {
    return "CAST(" + v + " AS BIGINT)";
  }

  /** A DOUBLE literal whose value is exactly {@code d} (finite). */
  default String dbl(double d) {
    return "CAST(" + string(Double.toString(d)) + " AS " + doubleType() + ")";
  }

  /**
   * An exact integer type of at least 128 bits (or arbitrary precision) in which the plan rescales
   * and centres pair sums: {@code HUGEINT}, {@code DECIMAL(38,0)}, {@code NUMERIC}.
   */
  String wideInteger();

  /**
   * {@code column} as a DOUBLE, totally: NULL stays NULL, every other value converts (an
   * out-of-range value becomes ±∞ or 0, never an error).
   */
  default String asDouble(TableSchema.Column column) {
    return "CAST(" + quote(column.name()) + " AS " + doubleType() + ")";
  }

  /** Whether the DOUBLE {@code x} is NaN (x not NULL). */
  default String isNaN(String x) {
    return "isnan(" + x + ")";
  }

  /**
   * The DOUBLE {@code x}, an integer-valued or not finite value with |x| ≤ 2^62, rounded to a
   * BIGINT by a monotone rounding (the contract kit checks half to even, so that every backend
   * gives the same integers).
   */
  default String roundToBigint(String x) {
    return "CAST(" + x + " AS BIGINT)";
  }

  /**
   * A salted 64-bit hash of the tuple {@code args} (rendered expressions): a deterministic function
   * of the salt and the tuple's values only, comparable with {@code <} and {@code =}, and equal for
   * equal tuples (NULL equal to NULL).
   */
  String saltedHash(List<String> args, long salt);

  /**
   * The aggregate Σx over the rows of a group for an exact integer expression {@code x}: exact,
   * NULL over no rows; if {@link #sumsOverflowToNull()}, also NULL when the exact sum leaves the
   * type (never an error, never a wrapped value).
   */
  default String exactSum(String x) {
    return "SUM(" + x + ")";
  }

  /** Whether {@link #exactSum} is NULL on overflow (64-bit sums) rather than exact (wide sums). */
  default boolean sumsOverflowToNull() {
    return false;
  }

  /** ⌊n/d⌋ exactly, for an integer n of {@link #wideInteger} and a positive integer d. */
  String floorDiv(String n, String d);

  /** a = b where NULL equals NULL. */
  default String nullSafeEquals(String a, String b) {
    return a + " IS NOT DISTINCT FROM " + b;
  }

  /** An inline table of {@code rows} (each a parenthesised list) named {@code alias(columns)}. */
  default String values(List<String> rows, String alias, List<String> columns) {
    return "(VALUES " + String.join(", ", rows) + ") AS " + alias + "(" + String.join(", ", columns)
        + ")";
  }

  /**
   * How rows of {@code FROM source AS __s} are kept iff some row of {@code relation} satisfies
   * {@code condition}: a join appended to the FROM clause, or a WHERE predicate.
   */
  default Restriction semiJoin(String relation, String condition) {
    return new Restriction("", "EXISTS (SELECT 1 FROM " + relation + " WHERE " + condition + ")");
  }

  /**
   * The aggregate that lists a group's (cell, count) pairs as text {@code "cell:count,..."} (any
   * order; NULL or empty over no rows), for BIGINT {@code cell} and {@code count}.
   */
  default String cellList(String cell, String count) {
    return "string_agg(CAST(" + cell + " AS VARCHAR) || ':' || CAST(" + count
        + " AS VARCHAR), ',')";
  }

  /** Text appended to the source CTE of a unit-level plan with groups (a partitioning hint). */
  default String clusterByUnit() {
    return "";
  }

  /**
   * Strategy: for L0 = 1 with groups, select each unit's pair by a per-unit minimum of the per-row
   * pair hash joined back, instead of a window over all pairs (same result, ties included:
   * {@code docs/proofs/engine-bounding.md}).
   */
  default boolean minHashJoin() {
    return false;
  }

  /**
   * Strategy, with {@link #minHashJoin()}: the rows joined back all carry their unit's smallest
   * pair hash, so they are one pair unless that hash ties; they are aggregated per unit (each group
   * column by MIN, the unit dropped when a column's MIN and MAX differ or it is NULL on some rows
   * only) instead of per pair followed by a window over the unit. The dialect must give MIN and MAX
   * on every group column type, with MIN = MAX exactly when GROUP BY puts the values together
   * ({@code docs/proofs/engine-bounding.md}, "Per-unit aggregate" under the minimum-hash strategy).
   */
  default boolean minHashUnitAggregate() {
    return false;
  }

  /**
   * Strategy: an expression that fails the statement with {@code message} (no value in it), or
   * null. When present, unit-level pair sums of a measure whose values satisfy c·M ≤ 2^53 are
   * computed in DOUBLE and the statement fails if a pair has more values; the backend then reruns
   * the plan with this strategy off ({@code docs/proofs/engine-fixed-point.md}).
   */
  default String raiseError(String message) {
    return null;
  }

  /**
   * The lowercase hexadecimal SHA-256 (FIPS 180-4) of the UTF-8 bytes of the text {@code text}
   * (64 characters; NULL for NULL), comparable with {@code <} byte by byte (so that the first 16
   * characters compare as the digest's first 64 bits, unsigned). DP-SGD's keyed Poisson sample
   * ({@code org.privet.models.BackendTraining}, docs/proofs/dp-models.md).
   */
  default String sha256Hex(String text) {
    return "sha256(" + text + ")";
  }

  /** The number of bytes of the UTF-8 encoding of the text {@code text}, an integer. */
  default String octetLength(String text) {
    return "octet_length(" + text + ")";
  }

  /** The name of the text type a CAST converts to ({@code VARCHAR}; Spark: {@code STRING}). */
  default String textType() {
    return "VARCHAR";
  }

  /**
   * A BIGINT that differs between any two rows of one statement's scan (any order, not
   * necessarily dense): {@code ROW_NUMBER() OVER ()}.
   */
  default String distinctRowNumber() {
    return "ROW_NUMBER() OVER ()";
  }

  /**
   * A way to keep only rows related to another relation.
   *
   * @param join text appended after {@code FROM source AS __s} (may be empty)
   * @param where a predicate for the WHERE clause, or null
   */
  record Restriction(String join, String where) {}
}
