package org.privet.mechanisms;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A non-negative dyadic rational {@code num / 2^log2Den}, the exact form in which the choice
 * mechanisms use a privacy parameter ε.
 *
 * <p>{@link #floorOf(String, double)} rounds ε <em>down</em> to at most 20 significant bits and to
 * a multiple of 2<sup>−{@value #MAX_LOG2_DEN}</sup>. Rounding down is the safe direction: a
 * mechanism run with ε̃ ≤ ε is ε̃-DP and therefore ε-DP, and it reports the requested ε as its
 * privacy loss. The relative loss in accuracy is at most 2<sup>−19</sup> for ε ≥ 2<sup>−21</sup>.
 *
 * @param num the numerator, positive
 * @param log2Den the base-2 logarithm of the denominator, in [0, {@value #MAX_LOG2_DEN}]
 */
record DyadicRational(long num, int log2Den) {

  /** The finest grid used for ε: multiples of 2^-40. */
  static final int MAX_LOG2_DEN = 40;

  /** The smallest ε the choice mechanisms accept (2^-40, about 9.1e-13). */
  static final double MIN_EPSILON = 0x1p-40;

  /** The largest ε the choice mechanisms accept (2^40). */
  static final double MAX_EPSILON = 0x1p40;

  private static final int SIGNIFICANT_BITS = 20;

  DyadicRational {
    if (num <= 0 || log2Den < 0 || log2Den > MAX_LOG2_DEN) {
      throw new IllegalArgumentException("invalid dyadic rational " + num + "/2^" + log2Den);
    }
  }

  /** The denominator 2^log2Den. */
  long den() {
    return 1L << log2Den;
  }

  /** The exact value (num has at most 62 bits, so this is exact for num ≤ 2^53). */
  double value() {
    return Math.scalb((double) num, -log2Den);
  }

  /**
   * Validates a privacy parameter and rounds it down to a dyadic rational.
   *
   * @param name the parameter's name, for the error message
   * @throws IllegalArgumentException if {@code value} is NaN, infinite, not in
   *     [{@link #MIN_EPSILON}, {@link #MAX_EPSILON}]
   */
  static DyadicRational floorOf(String name, double value) {
    requireEpsilon(name, value);
    int log2Den = SIGNIFICANT_BITS - 1 - Math.getExponent(value);
    log2Den = Math.max(0, Math.min(MAX_LOG2_DEN, log2Den));
    long num = (long) Math.floor(Math.scalb(value, log2Den)); // scalb by a power of two: exact
    return new DyadicRational(num, log2Den);
  }

  /** Rounds an exact non-negative value down to a multiple of 2^-log2Den; null if it is zero. */
  static DyadicRational floorOf(BigDecimal value, int log2Den) {
    BigInteger scaled = value.multiply(BigDecimal.valueOf(2).pow(log2Den)).toBigInteger();
    if (scaled.signum() <= 0) {
      return null;
    }
    return new DyadicRational(scaled.longValueExact(), log2Den);
  }

  /** Checks that ε is a finite number in the accepted range. */
  static double requireEpsilon(String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(name + " must be a finite number, was " + value);
    }
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
    if (value < MIN_EPSILON || value > MAX_EPSILON) {
      throw new IllegalArgumentException(
          name + " must be in [2^-40, 2^40], was " + value);
    }
    return value;
  }

  /** Checks that a sensitivity is finite, positive and not subnormal. */
  static double requireSensitivity(String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value) || value <= 0) {
      throw new IllegalArgumentException(
          name + " must be a finite positive number, was " + value);
    }
    if (value < 0x1p-900 || value > 0x1p900) {
      throw new IllegalArgumentException(name + " must be in [2^-900, 2^900], was " + value);
    }
    return value;
  }
}
