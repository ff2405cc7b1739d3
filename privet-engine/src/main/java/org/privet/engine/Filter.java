package org.privet.engine;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;

/**
 * A row filter (the WHERE clause): comparisons of a column with literals, {@code IN}, {@code IS
 * NULL}, combined with AND, OR and NOT. Nothing else can be expressed, so a filter can neither call
 * functions nor reach other tables.
 *
 * <p>A filter is applied to each row on its own before contribution bounding, so it is a stable
 * (1-Lipschitz) transformation: it never makes two neighbouring tables differ by more than the one
 * privacy unit. SQL three-valued logic applies: a comparison with a NULL value is unknown, and rows
 * whose filter is unknown are dropped.
 *
 * <p>Literals are {@link String}, {@link Long}, {@link Integer}, {@link Double} (finite), {@link
 * BigDecimal}, {@link Boolean}, {@link LocalDate} or {@link LocalDateTime}; the compiler converts
 * each literal to its column's type before anything is charged, and refuses what does not fit
 * ({@link org.privet.engine.spi.ColumnLiterals}).
 */
public sealed interface Filter
    permits Filter.Compare, Filter.In, Filter.IsNull, Filter.And, Filter.Or, Filter.Not {

  /** Comparison operators. */
  enum Op {
    EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

    private final String sql;

    Op(String sql) {
      this.sql = sql;
    }

    /** The SQL spelling of the operator. */
    public String sql() {
      return sql;
    }
  }

  /** {@code column op literal}. */
  record Compare(String column, Op op, Object literal) implements Filter {
    public Compare {
      Names.requireIdentifier("column", column);
      Objects.requireNonNull(op, "op");
      requireLiteral(literal);
    }
  }

  /** {@code column IN (literals...)} (or NOT IN when negated). */
  record In(String column, List<Object> literals) implements Filter {
    public In {
      Names.requireIdentifier("column", column);
      if (literals == null || literals.isEmpty()) {
        throw new IllegalArgumentException("literals of IN must not be empty");
      }
      literals = List.copyOf(literals);
      literals.forEach(Filter::requireLiteral);
    }
  }

  /** {@code column IS NULL}. NaN is not NULL. */
  record IsNull(String column) implements Filter {
    public IsNull {
      Names.requireIdentifier("column", column);
    }
  }

  /** Conjunction of at least two filters. */
  record And(List<Filter> operands) implements Filter {
    public And {
      operands = requireOperands(operands);
    }
  }

  /** Disjunction of at least two filters. */
  record Or(List<Filter> operands) implements Filter {
    public Or {
      operands = requireOperands(operands);
    }
  }

  /** Negation. */
  record Not(Filter operand) implements Filter {
    public Not {
      Objects.requireNonNull(operand, "operand");
    }
  }

  static Filter eq(String column, Object literal) {
    return new Compare(column, Op.EQ, literal);
  }

  static Filter ne(String column, Object literal) {
    return new Compare(column, Op.NE, literal);
  }

  static Filter lt(String column, Object literal) {
    return new Compare(column, Op.LT, literal);
  }

  static Filter le(String column, Object literal) {
    return new Compare(column, Op.LE, literal);
  }

  static Filter gt(String column, Object literal) {
    return new Compare(column, Op.GT, literal);
  }

  static Filter ge(String column, Object literal) {
    return new Compare(column, Op.GE, literal);
  }

  static Filter in(String column, Object... literals) {
    return new In(column, List.of(literals));
  }

  static Filter isNull(String column) {
    return new IsNull(column);
  }

  static Filter isNotNull(String column) {
    return new Not(new IsNull(column));
  }

  static Filter and(Filter... operands) {
    return new And(List.of(operands));
  }

  static Filter or(Filter... operands) {
    return new Or(List.of(operands));
  }

  static Filter not(Filter operand) {
    return new Not(operand);
  }

  private static List<Filter> requireOperands(List<Filter> operands) {
    if (operands == null || operands.size() < 2) {
      throw new IllegalArgumentException("AND/OR need at least two operands");
    }
    return List.copyOf(operands);
  }

  private static void requireLiteral(Object literal) {
    if (literal == null) {
      throw new IllegalArgumentException("literal must not be null (use IS NULL)");
    }
    if (literal instanceof Double d && !Double.isFinite(d)) {
      throw new IllegalArgumentException("literal must be finite");
    }
    if (!(literal instanceof String || literal instanceof Long || literal instanceof Integer
        || literal instanceof Double || literal instanceof BigDecimal || literal instanceof Boolean
        || literal instanceof LocalDate || literal instanceof LocalDateTime)) {
      throw new IllegalArgumentException("literal must be a String, Long, Integer, Double, "
          + "BigDecimal, Boolean, LocalDate or LocalDateTime, was a "
          + literal.getClass().getSimpleName());
    }
  }
}
