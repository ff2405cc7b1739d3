package org.privet.engine.postgres;

import java.util.List;
import org.privet.engine.spi.SqlDialect;
import org.privet.engine.spi.TableSchema;

/**
 * PostgreSQL's spelling of the {@link org.privet.engine.spi.BoundingPlan}. Its facts ({@code
 * docs/proofs/engine-postgres.md}): SUM over BIGINT and NUMERIC is an exact NUMERIC (arbitrary
 * precision: no overflow, no wrap); the wide type is NUMERIC and the floor is built from {@code
 * div} (truncating) and {@code mod}; CAST(DOUBLE PRECISION AS BIGINT) rounds half to even
 * ({@code rint}); NaN equals NaN; the salted hash is {@code hash_record_extended} of the tuple seeded
 * by the salt; cells are listed with {@code string_agg}; the L0 = 1 minimum-hash strategy is on. String literals assume {@code standard_conforming_strings = on},
 * which the backend sets on its session.
 */
final class PostgresDialect implements SqlDialect {
  static final PostgresDialect INSTANCE = new PostgresDialect();

  private PostgresDialect() {}

  @Override
  public String quote(String identifier) {
    return '"' + identifier.replace("\"", "\"\"") + '"';
  }

  @Override
  public String string(String text) {
    return '\'' + text.replace("'", "''") + '\'';
  }

  @Override
  public String doubleType() {
    return "DOUBLE PRECISION";
  }

  @Override
  public String wideInteger() {
    return "NUMERIC";
  }

  /**
   * NUMERIC columns convert totally: beyond the DOUBLE range to ±∞, below its normal range to 0
   * (PostgreSQL's cast would fail on both: a value-dependent error after the charge), NaN to NaN.
   */
  @Override
  public String asDouble(TableSchema.Column column) {
    String q = quote(column.name());
    if (!column.nativeType().toLowerCase(java.util.Locale.ROOT).startsWith("numeric")) {
      return "CAST(" + q + " AS DOUBLE PRECISION)";
    }
    return "(CASE WHEN " + q + " = 'NaN'::numeric THEN 'NaN'::float8 WHEN " + q
        + " > 1e308 THEN 'Infinity'::float8 WHEN " + q + " < -1e308 THEN '-Infinity'::float8"
        + " WHEN abs(" + q + ") < 1e-300 THEN 0::float8 ELSE CAST(" + q
        + " AS DOUBLE PRECISION) END)";
  }

  @Override
  public String isNaN(String x) {
    return "(" + x + ") = 'NaN'::float8";
  }

  /**
   * {@code hash_record_extended(ROW(args), salt)} (PostgreSQL 14+): the seeded 64-bit hash of the
   * tuple, combining its fields' extended hash functions (NULL hashing as a fixed value), with the
   * salt as seed.
   */
  @Override
  public String saltedHash(List<String> args, long salt) {
    return "hash_record_extended(ROW(" + String.join(", ", args) + "), " + bigint(salt) + ")";
  }

  /**
   * {@code sha256} (PostgreSQL 11+, core) of the text's UTF-8 bytes ({@code convert_to}), hex
   * encoded, in the {@code "C"} collation so that {@code <} compares bytes whatever the database's
   * default collation.
   */
  @Override
  public String sha256Hex(String text) {
    return "(encode(sha256(convert_to(" + text + ", 'UTF8')), 'hex') COLLATE \"C\")";
  }

  /** The UTF-8 byte length, whatever the server encoding. */
  @Override
  public String octetLength(String text) {
    return "octet_length(convert_to(" + text + ", 'UTF8'))";
  }

  /** The L0 = 1 minimum-hash plan (engine-bounding.md): one aggregation by unit, no window sort. */
  @Override
  public boolean minHashJoin() {
    return true;
  }

  @Override
  public String floorDiv(String n, String d) {
    return "(div((" + n + "), " + d + ") - CASE WHEN mod((" + n + "), " + d
        + ") < 0 THEN 1 ELSE 0 END)";
  }
}
