package org.privet.engine.plan;

import java.util.Objects;

/**
 * A per-row arithmetic expression over numeric columns ({@link Relation.Compute}): column
 * references, numeric literals, {@code +}, {@code -}, {@code *} and negation, evaluated in DOUBLE.
 * Division and functions are not expressions here (a division can fail on a zero, a function on a
 * value: failures a value would decide). Rendering is total ({@link RelationSql}): NULL and NaN
 * operands give NULL, and every operand and result is clamped to ±2^{@value #LOG2_BOUND}, so no
 * product or sum can overflow on any backend.
 */
public sealed interface Expr {
  /** Values are clamped to ±2^LOG2_BOUND: a product of two stays below 2^1000 &lt; DOUBLE's max. */
  int LOG2_BOUND = 500;

  /** A numeric column of the input. */
  record Column(String name) implements Expr {
    public Column {
      Objects.requireNonNull(name, "name");
    }
  }

  /** A finite literal. */
  record Number(double value) implements Expr {
    public Number {
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException("a literal must be finite");
      }
    }
  }

  /** {@code left op right}, op one of {@code + - *}. */
  record Arith(char op, Expr left, Expr right) implements Expr {
    public Arith {
      if (op != '+' && op != '-' && op != '*') {
        throw new IllegalArgumentException("operator must be +, - or *");
      }
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }
  }

  /** {@code -operand}. */
  record Negate(Expr operand) implements Expr {
    public Negate {
      Objects.requireNonNull(operand, "operand");
    }
  }
}
