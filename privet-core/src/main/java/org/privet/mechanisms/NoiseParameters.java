package org.privet.mechanisms;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Parameter validation and exact rational conversions shared by the numeric mechanisms. All checks
 * name the parameter and never print a data value.
 */
final class NoiseParameters {
  private NoiseParameters() {}

  static double requireEpsilon(double epsilon) {
    if (Double.isNaN(epsilon) || Double.isInfinite(epsilon) || epsilon <= 0) {
      throw new IllegalArgumentException("epsilon must be finite and positive, was " + epsilon);
    }
    return epsilon;
  }

  static double requireDelta(double delta) {
    if (Double.isNaN(delta) || delta < 0 || delta >= 1) {
      throw new IllegalArgumentException("delta must be in [0, 1), was " + delta);
    }
    return delta;
  }

  static double requirePositive(String name, double value) {
    if (Double.isNaN(value) || Double.isInfinite(value) || value <= 0) {
      throw new IllegalArgumentException(name + " must be finite and positive, was " + value);
    }
    return value;
  }

  static long requirePositive(String name, long value) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, was " + value);
    }
    return value;
  }

  static double requireBeta(double beta) {
    if (!(beta > 0 && beta < 1)) {
      throw new IllegalArgumentException("beta must be in (0, 1), was " + beta);
    }
    return beta;
  }

  static <T> T requireSet(String name, T value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must be set");
    }
    return value;
  }

  /** ⌈a/b⌉ for positive exact binary values a, b (doubles are exact rationals), as a long. */
  static long ceilDiv(BigDecimal a, BigDecimal b, String what) {
    BigDecimal q = a.divide(b, 0, RoundingMode.CEILING);
    if (q.compareTo(BigDecimal.valueOf(Long.MAX_VALUE / 4)) > 0) {
      throw new IllegalArgumentException(what + " is too large for exact integer noise");
    }
    return q.longValueExact();
  }

  /**
   * The largest double not above the exact value {@code num/2^j} (doubles hold only 53 bits of
   * num), so that a privacy loss computed from it as a divisor rounds toward more loss.
   */
  static double downward(long num, long powerOfTwoDen) {
    double d = (double) num / powerOfTwoDen; // exact division by a power of two; num rounded to nearest
    return new BigDecimal(d).multiply(new BigDecimal(powerOfTwoDen)).compareTo(new BigDecimal(num)) > 0
        ? Math.nextDown(d) : d;
  }

  /** The largest double not above √(num/2^j), for a σ whose privacy loss must round toward more loss. */
  static double sqrtDownward(long num, long powerOfTwoDen) {
    double s = Math.sqrt(downward(num, powerOfTwoDen)); // correctly rounded: within half an ulp
    BigDecimal exact = new BigDecimal(num).divide(new BigDecimal(powerOfTwoDen));
    return new BigDecimal(s).pow(2).compareTo(exact) > 0 ? Math.nextDown(s) : s;
  }

  /**
   * The smallest exponent j ≥ 0 with 2<sup>j</sup>·ratio close to 2<sup>61</sup> from below, so a
   * rational with denominator 2<sup>j</sup> represents ratio to 61 bits.
   */
  static int denominatorExponent(double ratio) {
    int e = Math.getExponent(ratio); // floor(log2 ratio) for normal values
    return Math.max(0, Math.min(62, 60 - e));
  }
}
