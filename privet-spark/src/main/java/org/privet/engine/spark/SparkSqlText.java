package org.privet.engine.spark;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.privet.engine.Filter;
import org.privet.engine.spi.FilterSql;
import org.privet.engine.spi.TableSchema;

/**
 * Rendering of identifiers, literals and filters as Spark SQL text. String literals never depend on
 * Spark's escaping rules ({@code spark.sql.parser.escapedStringLiterals}): text with a quote, a
 * backslash or a control character is written as {@code decode(unhex('...'), 'UTF-8')}, which
 * Spark folds to a constant (so filters still push down to Parquet).
 */
final class SparkSqlText {
  private SparkSqlText() {}

  static String quote(String identifier) {
    return '`' + identifier.replace("`", "``") + '`';
  }

  /** A dotted name (database.table) with each part quoted. */
  static String qualified(String name) {
    StringBuilder s = new StringBuilder();
    String[] parts = name.split("\\.");
    for (int i = 0; i < parts.length; i++) {
      s.append(i > 0 ? "." : "").append(quote(parts[i]));
    }
    return s.toString();
  }

  static String string(String s) {
    boolean plain = s.chars().allMatch(c -> c >= 0x20 && c != '\'' && c != '\\' && c != 0x7f);
    if (plain) {
      return '\'' + s + '\'';
    }
    return "decode(unhex('" + HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8))
        + "'), 'UTF-8')";
  }

  static String dbl(double d) {
    return "CAST('" + d + "' AS DOUBLE)";
  }

  static String bigint(long v) {
    return "CAST('" + v + "' AS BIGINT)";
  }

  /** A literal cast to the column's native type ({@link FilterSql.Dialect#literal}). */
  static String literal(Object v, TableSchema.Column column) {
    return DIALECT.literal(v, column);
  }

  static String filter(Filter f, TableSchema schema) {
    return FilterSql.render(f, schema, DIALECT);
  }

  private static final FilterSql.Dialect DIALECT = new FilterSql.Dialect() {
    @Override
    public String quote(String identifier) {
      return SparkSqlText.quote(identifier);
    }

    @Override
    public String string(String text) {
      return SparkSqlText.string(text);
    }
  };

  static TableSchema.Column column(TableSchema schema, String name) {
    return FilterSql.column(schema, name);
  }
}
