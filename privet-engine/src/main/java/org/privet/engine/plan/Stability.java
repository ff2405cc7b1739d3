package org.privet.engine.plan;

/**
 * A {@link Relation} node's stability under the threat model's neighbour relation (removing a
 * privacy unit removes every row that references it, transitively: {@code
 * docs/proofs/threat-model.md}), stated once per node ({@code docs/proofs/engine-joins.md},
 * "Stability per node").
 *
 * @param unitLocal whether the output rows that carry unit u are a function of the input rows that
 *     carry u (and of public tables) only: removing u changes no other unit's output rows
 * @param rowFactor each input row yields at most this many output rows ({@link Long#MAX_VALUE}:
 *     not bounded by this node; a later {@link Relation.Truncate} bounds the unit's rows)
 * @param rowsPerUnit the most output rows one unit has ({@link Long#MAX_VALUE}: not bounded here)
 * @param statement the statement in words, as EXPLAIN shows it
 */
public record Stability(boolean unitLocal, long rowFactor, long rowsPerUnit, String statement) {
  /** Unbounded. */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  public Stability {
    if (rowFactor < 1 || rowsPerUnit < 1) {
      throw new IllegalArgumentException("rowFactor and rowsPerUnit must be positive");
    }
  }

  /** Stability 1: each input row gives at most one output row of the same unit. */
  static Stability one(String statement) {
    return new Stability(true, 1, UNBOUNDED, statement);
  }

  /** a·b, saturating at {@link #UNBOUNDED}. */
  static long times(long a, long b) {
    return a == UNBOUNDED || b == UNBOUNDED || Math.multiplyHigh(a, b) != 0 || a * b < 0 ? UNBOUNDED
        : a * b;
  }

  /**
   * The stability of a chain of nodes: unit-local iff every node is, factors multiply
   * (saturating), the tightest per-unit cap wins.
   */
  Stability then(Stability next) {
    long f = rowFactor == UNBOUNDED || next.rowFactor == UNBOUNDED ? UNBOUNDED
        : Math.multiplyHigh(rowFactor, next.rowFactor) != 0 ? UNBOUNDED : rowFactor * next.rowFactor;
    return new Stability(unitLocal && next.unitLocal, f, Math.min(rowsPerUnit, next.rowsPerUnit),
        next.statement);
  }
}
