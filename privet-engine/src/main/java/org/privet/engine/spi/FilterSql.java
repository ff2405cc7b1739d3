package org.privet.engine.spi;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.stream.Collectors;
import org.privet.engine.Filter;

/**
 * Renders a {@link Filter} as a SQL boolean expression, for any SQL backend: the dialect supplies
 * identifier quoting and typed literals; the structure (comparisons, IN, IS NULL, AND, OR, NOT,
 * three-valued logic) is standard SQL and shared.
 */
public final class FilterSql {
  /** How a backend's SQL spells identifiers and literals. */
  public interface Dialect {
    /** A quoted identifier. */
    String quote(String identifier);

    /** A string literal (quoted and escaped for the dialect). */
    String string(String text);

    /**
     * A literal cast to {@code column}'s native type: its text (plain decimal, ISO date) as a
     * string literal, then CAST, so that no value is ever parsed as SQL.
     */
    default String literal(Object value, TableSchema.Column column) {
      if (value == null) {
        return "CAST(NULL AS " + column.nativeType() + ")";
      }
      String text;
      if (value instanceof BigDecimal b) {
        text = b.toPlainString();
      } else if (value instanceof LocalDate d) {
        text = d.toString();
      } else {
        text = value.toString();
      }
      return "CAST(" + string(text) + " AS " + column.nativeType() + ")";
    }
  }

  private FilterSql() {}

  /**
   * The filter as SQL.
   *
   * @throws IllegalArgumentException naming an unknown column
   */
  public static String render(Filter f, TableSchema schema, Dialect d) {
    if (f instanceof Filter.Compare c) {
      return "(" + d.quote(c.column()) + " " + c.op().sql() + " "
          + d.literal(c.literal(), column(schema, c.column())) + ")";
    } else if (f instanceof Filter.In in) {
      TableSchema.Column col = column(schema, in.column());
      return "(" + d.quote(in.column()) + " IN (" + in.literals().stream()
          .map(v -> d.literal(v, col)).collect(Collectors.joining(", ")) + "))";
    } else if (f instanceof Filter.IsNull n) {
      column(schema, n.column());
      return "(" + d.quote(n.column()) + " IS NULL)";
    } else if (f instanceof Filter.And a) {
      return "(" + a.operands().stream().map(x -> render(x, schema, d))
          .collect(Collectors.joining(" AND ")) + ")";
    } else if (f instanceof Filter.Or o) {
      return "(" + o.operands().stream().map(x -> render(x, schema, d))
          .collect(Collectors.joining(" OR ")) + ")";
    }
    return "(NOT " + render(((Filter.Not) f).operand(), schema, d) + ")";
  }

  /**
   * The column named {@code name}.
   *
   * @throws IllegalArgumentException if there is none
   */
  public static TableSchema.Column column(TableSchema schema, String name) {
    return schema.column(name).orElseThrow(
        () -> new IllegalArgumentException("unknown column '" + name + "'"));
  }
}
