package org.privet.engine.duckdb;

import java.util.List;
import org.privet.engine.spi.SqlDialect;

/**
 * DuckDB's spelling of the {@link org.privet.engine.spi.BoundingPlan}. Its facts
 * ({@code docs/proofs/engine-fixed-point.md}): SUM over BIGINT is an exact 128-bit HUGEINT (no
 * overflow below 2^64 values of 2^62); CAST(DOUBLE AS BIGINT) rounds half to even; {@code //}
 * truncates, so the floor is built from {@code %}. Every strategy is on: the minimum-hash plan
 * for L0 = 1 with its per-unit aggregate, and DOUBLE pair sums under the 2^53 guard (with {@code
 * error()}), the backend rerunning the plan {@link #withExactPairSums() without it} when the guard
 * fires.
 */
final class DuckDbDialect implements SqlDialect {
  /** Every fast path on. */
  static final DuckDbDialect FAST = new DuckDbDialect(0, true, true);

  /** 0, or (tests only) a modulus applied to the salted hash to provoke ties. */
  private final long hashModulus;
  private final boolean minHashJoin;
  private final boolean doubleSums;

  DuckDbDialect(long hashModulus, boolean minHashJoin, boolean doubleSums) {
    this.hashModulus = hashModulus;
    this.minHashJoin = minHashJoin;
    this.doubleSums = doubleSums;
  }

  /** This dialect with 128-bit (HUGEINT) pair sums: the fallback when the DOUBLE guard fires. */
  DuckDbDialect withExactPairSums() {
    return new DuckDbDialect(hashModulus, minHashJoin, false);
  }

  @Override
  public String quote(String identifier) {
    return SqlText.quote(identifier);
  }

  @Override
  public String string(String text) {
    return SqlText.string(text);
  }

  @Override
  public String wideInteger() {
    return "HUGEINT";
  }

  /**
   * hash(xor(hash(args), salt)). DuckDB combines the hashes of several arguments in a way that
   * keeps the relative order of two keys for most salts, so the salt is mixed in by an outer hash.
   */
  @Override
  public String saltedHash(List<String> args, long salt) {
    String h = "hash(xor(hash(" + String.join(", ", args) + "), CAST(" + (salt >>> 1)
        + " AS UBIGINT)))";
    return hashModulus == 0 ? h : "(" + h + " % " + hashModulus + ")";
  }

  /** ⌊n/d⌋ from DuckDB's truncating {@code //} and {@code %}. */
  @Override
  public String floorDiv(String n, String d) {
    return "(((" + n + ") - (((" + n + ") % " + d + ") + " + d + ") % " + d + ") // " + d + ")";
  }

  /** {@code strlen}: DuckDB's byte length of a VARCHAR (its {@code octet_length} takes BLOBs only). */
  @Override
  public String octetLength(String text) {
    return "strlen(" + text + ")";
  }

  @Override
  public boolean minHashJoin() {
    return minHashJoin;
  }

  /**
   * On with the minimum-hash join: DuckDB orders every type it groups (booleans, lists and structs
   * included), and its MIN = MAX exactly when GROUP BY puts two values together (0.0 and -0.0, all
   * NaNs; checked by {@code DuckDbStrategiesTest}).
   */
  @Override
  public boolean minHashUnitAggregate() {
    return minHashJoin;
  }

  @Override
  public String raiseError(String message) {
    return doubleSums ? "error(" + string(message) + ")" : null;
  }
}
