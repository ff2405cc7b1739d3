package org.privet.engine.spi;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.stream.Collectors;
import org.privet.engine.Filter;

/**
 * Renders a {@link Filter} as a SQL boolean expression, for any SQL backend: the dialect supplies
 * identifier quoting and string literals; typed literals and the structure (comparisons, IN, IS
 * NULL, AND, OR, NOT, three-valued logic) are standard SQL and shared. Only filters typed by
 * {@link ColumnLiterals#typed} are rendered.
 */
public final class FilterSql {
  /** How a backend's SQL spells identifiers and literals. */
  public interface Dialect {
    /** A quoted identifier. */
    String quote(String identifier);

    /** A string literal (quoted and escaped for the dialect). */
    String string(String text);

    /** The name of the 64-bit floating-point type ({@code DOUBLE}; PostgreSQL: {@code DOUBLE PRECISION}). */
    default String doubleType() {
      return "DOUBLE";
    }

    /**
     * A literal already typed for {@code column} ({@link ColumnLiterals}), as SQL whose
     * evaluation cannot fail: its text (plain decimal, ISO date) as a string literal and a CAST
     * to a type that holds it (the native type for exact numbers, DOUBLE, DATE, TIMESTAMP), so
     * that no value is ever parsed as SQL and no conversion is left for a row to trigger.
     *
     * @throws IllegalArgumentException if the value is not typed for the column (the compiler
     *     types every literal before the charge, so this cannot happen after it)
     */
    default String literal(Object value, TableSchema.Column column) {
      if (value == null) {
        return "CAST(NULL AS " + column.nativeType() + ")";
      }
      if (!ColumnLiterals.isTyped(value, column)) {
        throw new IllegalArgumentException("internal error: a literal for column '"
            + column.name() + "' was not typed before rendering");
      }
      return switch (column.type()) {
        case INTEGER, DECIMAL -> "CAST(" + string(((BigDecimal) value).toPlainString()) + " AS "
            + column.nativeType() + ")";
        case FLOATING -> "CAST(" + string(value.toString()) + " AS " + doubleType() + ")";
        case STRING -> string((String) value);
        case BOOLEAN -> ((Boolean) value) ? "TRUE" : "FALSE";
        case DATE -> "CAST(" + string(((LocalDate) value).toString()) + " AS DATE)";
        case TIMESTAMP -> "CAST(" + string(TIMESTAMP.format((LocalDateTime) value))
            + " AS TIMESTAMP)";
        case OTHER -> throw new IllegalArgumentException("internal error: column '"
            + column.name() + "' takes no literal");
      };
    }
  }

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT);

  private FilterSql() {}

  /** The column as compared: FLOATING columns compare in DOUBLE (their literals are doubles). */
  private static String operand(TableSchema.Column c, Dialect d) {
    String q = d.quote(c.name());
    return c.type() == ColumnType.FLOATING && !c.nativeType().equalsIgnoreCase(d.doubleType())
        ? "CAST(" + q + " AS " + d.doubleType() + ")" : q;
  }

  /**
   * The filter as SQL.
   *
   * @throws IllegalArgumentException naming an unknown column
   */
  public static String render(Filter f, TableSchema schema, Dialect d) {
    if (f instanceof Filter.Compare c) {
      TableSchema.Column col = column(schema, c.column());
      return "(" + operand(col, d) + " " + c.op().sql() + " " + d.literal(c.literal(), col) + ")";
    } else if (f instanceof Filter.In in) {
      TableSchema.Column col = column(schema, in.column());
      return "(" + operand(col, d) + " IN (" + in.literals().stream()
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

  /** The columns {@code f} reads. */
  public static java.util.Set<String> columns(Filter f) {
    java.util.Set<String> out = new java.util.HashSet<>();
    columns(f, out);
    return out;
  }

  private static void columns(Filter f, java.util.Set<String> out) {
    if (f instanceof Filter.Compare c) {
      out.add(c.column());
    } else if (f instanceof Filter.In in) {
      out.add(in.column());
    } else if (f instanceof Filter.IsNull n) {
      out.add(n.column());
    } else if (f instanceof Filter.And a) {
      a.operands().forEach(o -> columns(o, out));
    } else if (f instanceof Filter.Or o) {
      o.operands().forEach(x -> columns(x, out));
    } else if (f instanceof Filter.Not n) {
      columns(n.operand(), out);
    }
  }
}
