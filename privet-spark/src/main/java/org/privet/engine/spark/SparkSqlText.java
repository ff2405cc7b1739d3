package org.privet.engine.spark;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

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
}
