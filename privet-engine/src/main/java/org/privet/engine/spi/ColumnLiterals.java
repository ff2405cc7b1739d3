package org.privet.engine.spi;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.privet.engine.Filter;

/**
 * Types the literals of a filter (and public group keys) for their columns, in Java, before
 * anything is charged (issue 10, item 1; {@code docs/proofs/threat-model.md}).
 *
 * <p>Why: a literal rendered as {@code CAST('text' AS type)} is evaluated by the database only when
 * a row reaches the predicate, so a literal that does not convert (a date that is no date, a number
 * outside an integer column's range) fails after the charge exactly when a row matches the rest of
 * the filter: a membership oracle. Here every literal is converted against the column's public
 * type; what cannot be converted is refused (naming the column, never a data value), and what
 * converts is handed to {@link FilterSql} as a typed value whose rendering cannot fail.
 *
 * <p>Typed values by column type: INTEGER and DECIMAL: {@link BigDecimal} within the native type's
 * range and scale; FLOATING: finite {@link Double} (compared in DOUBLE); STRING: {@link String};
 * BOOLEAN: {@link Boolean}; DATE: {@link LocalDate} in years 1..9999; TIMESTAMP: {@link
 * LocalDateTime} in years 1..9999 with at most microsecond precision. OTHER columns take no literal
 * (only IS NULL).
 *
 * <p>A number that is not a value of an exact numeric column (1.5 or 10^30 for an INTEGER column)
 * is not refused: the comparison is rewritten exactly in SQL's three-valued logic (for non-NULL v:
 * v = 1.5 is false, v &lt; 1.5 is v ≤ 1, v &lt; 10^30 is true; NULL stays unknown), using only
 * values of the column's type.
 */
public final class ColumnLiterals {
  private static final Pattern DECIMAL =
      Pattern.compile("(?:DECIMAL|NUMERIC)\\s*(?:\\(\\s*(\\d+)\\s*(?:,\\s*(\\d+)\\s*)?\\))?");

  private ColumnLiterals() {}

  /**
   * The filter with every literal typed for its column (and comparisons with numbers outside an
   * exact column's values rewritten exactly).
   *
   * @throws IllegalArgumentException naming the column when a column is unknown or a literal does
   *     not fit its column's type
   */
  public static Filter typed(Filter f, TableSchema schema) {
    if (f instanceof Filter.Compare c) {
      return compare(FilterSql.column(schema, c.column()), c.op(), c.literal());
    } else if (f instanceof Filter.In in) {
      return in(FilterSql.column(schema, in.column()), in.literals());
    } else if (f instanceof Filter.IsNull n) {
      FilterSql.column(schema, n.column());
      return n;
    } else if (f instanceof Filter.And a) {
      return new Filter.And(a.operands().stream().map(x -> typed(x, schema)).toList());
    } else if (f instanceof Filter.Or o) {
      return new Filter.Or(o.operands().stream().map(x -> typed(x, schema)).toList());
    }
    return new Filter.Not(typed(((Filter.Not) f).operand(), schema));
  }

  /** {@code column op literal} with the literal typed ({@link #typed}). */
  public static Filter compare(TableSchema.Column column, Filter.Op op, Object literal) {
    Domain d = Domain.of(column);
    if (d == null) {
      return new Filter.Compare(column.name(), op, convert(literal, column));
    }
    BigDecimal x = exactNumber(literal, column);
    if (d.contains(x)) {
      return new Filter.Compare(column.name(), op, d.canonical(x));
    }
    return switch (op) {
      case EQ -> d.never(column);
      case NE -> d.always(column);
      case LT, LE -> x.compareTo(d.min) < 0 ? d.never(column) : x.compareTo(d.max) > 0
          ? d.always(column)
          : new Filter.Compare(column.name(), Filter.Op.LE, d.floor(x));
      case GT, GE -> x.compareTo(d.max) > 0 ? d.never(column) : x.compareTo(d.min) < 0
          ? d.always(column)
          : new Filter.Compare(column.name(), Filter.Op.GE, d.ceiling(x));
    };
  }

  /** {@code column IN (literals)} with the literals typed; members no value equals are dropped. */
  public static Filter in(TableSchema.Column column, List<Object> literals) {
    Domain d = Domain.of(column);
    List<Object> typed = new ArrayList<>();
    for (Object v : literals) {
      if (d == null) {
        typed.add(convert(v, column));
      } else {
        BigDecimal x = exactNumber(v, column);
        if (d.contains(x)) {
          typed.add(d.canonical(x));
        }
      }
    }
    return typed.isEmpty() ? d.never(column) : new Filter.In(column.name(), typed);
  }

  /**
   * A public group key typed for its columns, or empty if some value is no value of its column
   * (such a group has no rows; it is still released). NULL stays NULL.
   *
   * @throws IllegalArgumentException naming the column when a value's kind does not fit it
   */
  public static Optional<List<Object>> key(List<Object> key, List<TableSchema.Column> columns) {
    List<Object> out = new ArrayList<>(key.size());
    boolean representable = true;
    for (int i = 0; i < key.size(); i++) {
      Object v = key.get(i);
      TableSchema.Column c = columns.get(i);
      if (v == null) {
        out.add(null);
        continue;
      }
      Domain d = Domain.of(c);
      if (d == null) {
        out.add(convert(v, c));
      } else {
        BigDecimal x = exactNumber(v, c);
        representable &= d.contains(x);
        out.add(d.contains(x) ? d.canonical(x) : null);
      }
    }
    return representable ? Optional.of(out) : Optional.empty();
  }

  /** Whether {@code value} is already typed for {@code column} (what {@link FilterSql} renders). */
  public static boolean isTyped(Object value, TableSchema.Column column) {
    return switch (column.type()) {
      case INTEGER, DECIMAL -> value instanceof BigDecimal b && Domain.of(column) != null
          && Domain.of(column).contains(b);
      case FLOATING -> value instanceof Double x && Double.isFinite(x);
      case STRING -> value instanceof String;
      case BOOLEAN -> value instanceof Boolean;
      case DATE -> value instanceof LocalDate;
      case TIMESTAMP -> value instanceof LocalDateTime;
      case OTHER -> false;
    };
  }

  /** Non-numeric-domain conversion (FLOATING, STRING, BOOLEAN, DATE, TIMESTAMP; OTHER refused). */
  private static Object convert(Object v, TableSchema.Column c) {
    switch (c.type()) {
      case FLOATING -> {
        if (!(v instanceof Number n)) {
          throw mismatch(c, v);
        }
        double x = n.doubleValue(); // nearest double (BigDecimal's is correctly rounded)
        if (!Double.isFinite(x)) {
          throw new IllegalArgumentException("a literal compared with column '" + c.name()
              + "' is outside the DOUBLE range");
        }
        return x;
      }
      case STRING -> {
        if (v instanceof String s) {
          return s;
        }
        throw mismatch(c, v);
      }
      case BOOLEAN -> {
        if (v instanceof Boolean b) {
          return b;
        }
        throw mismatch(c, v);
      }
      case DATE -> {
        LocalDate date;
        if (v instanceof LocalDate l) {
          date = l;
        } else if (v instanceof String s) {
          try {
            date = LocalDate.parse(s.trim());
          } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("a literal compared with date column '" + c.name()
                + "' is not a date 'yyyy-mm-dd'");
          }
        } else {
          throw mismatch(c, v);
        }
        requireYear(date.getYear(), c);
        return date;
      }
      case TIMESTAMP -> {
        LocalDateTime t;
        if (v instanceof LocalDateTime l) {
          t = l;
        } else if (v instanceof LocalDate l) {
          t = l.atStartOfDay();
        } else if (v instanceof String s) {
          t = parseTimestamp(s.trim(), c);
        } else {
          throw mismatch(c, v);
        }
        requireYear(t.getYear(), c);
        if (t.getNano() % 1000 != 0) {
          throw new IllegalArgumentException("a timestamp literal compared with column '"
              + c.name() + "' is finer than microseconds");
        }
        return t;
      }
      default -> throw new IllegalArgumentException("column '" + c.name() + "' of type "
          + c.nativeType() + " cannot be compared with a literal (only IS NULL filters it)");
    }
  }

  private static LocalDateTime parseTimestamp(String s, TableSchema.Column c) {
    try {
      if (s.length() == 10) {
        return LocalDate.parse(s).atStartOfDay();
      }
      if (s.length() > 10 && s.charAt(10) == ' ') {
        s = s.substring(0, 10) + 'T' + s.substring(11);
      }
      return LocalDateTime.parse(s);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("a literal compared with timestamp column '" + c.name()
          + "' is not a timestamp 'yyyy-mm-dd[ hh:mm[:ss[.ffffff]]]'");
    }
  }

  private static void requireYear(int year, TableSchema.Column c) {
    if (year < 1 || year > 9999) {
      throw new IllegalArgumentException("a literal compared with column '" + c.name()
          + "' must lie in the years 1 to 9999");
    }
  }

  /** The exact value of a numeric literal for an exact numeric column. */
  private static BigDecimal exactNumber(Object v, TableSchema.Column c) {
    if (v instanceof BigDecimal b) {
      return b;
    } else if (v instanceof Long || v instanceof Integer) {
      return BigDecimal.valueOf(((Number) v).longValue());
    } else if (v instanceof Double x && Double.isFinite(x)) {
      return BigDecimal.valueOf(x); // the shortest decimal that reads back as x: as written
    }
    throw mismatch(c, v);
  }

  private static IllegalArgumentException mismatch(TableSchema.Column c, Object v) {
    return new IllegalArgumentException("a " + kind(v) + " literal cannot be compared with column '"
        + c.name() + "' of type " + c.type().name().toLowerCase(Locale.ROOT));
  }

  private static String kind(Object v) {
    if (v instanceof String) {
      return "string";
    } else if (v instanceof Boolean) {
      return "boolean";
    } else if (v instanceof LocalDate || v instanceof LocalDateTime) {
      return "date";
    } else if (v instanceof Number) {
      return "number";
    }
    return v.getClass().getSimpleName();
  }

  /** The values of an exact numeric column: multiples of 10^-scale in [min, max]. */
  private record Domain(BigDecimal min, BigDecimal max, int scale) {
    static Domain of(TableSchema.Column c) {
      if (c.type() != ColumnType.INTEGER && c.type() != ColumnType.DECIMAL) {
        return null;
      }
      String t = c.nativeType().trim().toUpperCase(Locale.ROOT);
      switch (t) {
        case "TINYINT", "INT1", "BYTE":
          return integers(-128, 127);
        case "SMALLINT", "INT2", "SHORT":
          return integers(Short.MIN_VALUE, Short.MAX_VALUE);
        case "INTEGER", "INT", "INT4", "SIGNED":
          return integers(Integer.MIN_VALUE, Integer.MAX_VALUE);
        case "BIGINT", "INT8", "LONG":
          return integers(Long.MIN_VALUE, Long.MAX_VALUE);
        case "UTINYINT":
          return integers(0, 255);
        case "USMALLINT":
          return integers(0, 65535);
        case "UINTEGER":
          return integers(0, 0xFFFFFFFFL);
        case "UBIGINT":
          return new Domain(BigDecimal.ZERO,
              new BigDecimal(BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE)), 0);
        case "HUGEINT", "INT128": {
          BigDecimal m = new BigDecimal(BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE));
          return new Domain(m.negate(), m, 0);
        }
        case "UHUGEINT":
          return new Domain(BigDecimal.ZERO,
              new BigDecimal(BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE)), 0);
        default:
          break;
      }
      Matcher m = DECIMAL.matcher(t);
      if (m.matches()) {
        int p = m.group(1) == null ? 18 : Integer.parseInt(m.group(1));
        int s = m.group(1) == null ? 3 : m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        if (p >= 1 && p <= 38 && s >= 0 && s <= p) {
          BigDecimal max = BigDecimal.TEN.pow(p - s).subtract(BigDecimal.ONE.movePointLeft(s))
              .setScale(s, RoundingMode.UNNECESSARY);
          return new Domain(max.negate(), max, s);
        }
      }
      throw new IllegalArgumentException("column '" + c.name() + "' has the numeric type "
          + c.nativeType() + ", which filters and public groups do not support");
    }

    private static Domain integers(long min, long max) {
      return new Domain(BigDecimal.valueOf(min), BigDecimal.valueOf(max), 0);
    }

    boolean contains(BigDecimal x) {
      return x.compareTo(min) >= 0 && x.compareTo(max) <= 0
          && (x.signum() == 0 || x.stripTrailingZeros().scale() <= scale);
    }

    /** A value of the domain in its plain form (no exponent, no trailing zeros below 1). */
    BigDecimal canonical(BigDecimal x) {
      BigDecimal s = x.stripTrailingZeros();
      return s.scale() < 0 ? s.setScale(0, RoundingMode.UNNECESSARY) : s;
    }

    BigDecimal floor(BigDecimal x) {
      return canonical(x.setScale(scale, RoundingMode.FLOOR));
    }

    BigDecimal ceiling(BigDecimal x) {
      return canonical(x.setScale(scale, RoundingMode.CEILING));
    }

    /** False for every non-NULL value, unknown for NULL (v &lt; min). */
    Filter never(TableSchema.Column c) {
      return new Filter.Compare(c.name(), Filter.Op.LT, canonical(min));
    }

    /** True for every non-NULL value, unknown for NULL (v ≥ min). */
    Filter always(TableSchema.Column c) {
      return new Filter.Compare(c.name(), Filter.Op.GE, canonical(min));
    }
  }
}
