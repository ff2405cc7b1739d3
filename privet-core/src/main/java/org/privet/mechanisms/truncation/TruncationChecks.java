package org.privet.mechanisms.truncation;

import java.math.BigDecimal;
import org.privet.random.RandomSource;

/** Parameter checks and directed budget arithmetic shared by the truncation mechanisms. */
final class TruncationChecks {
  /** The largest global sensitivity accepted: thresholds 2^j stay at most the sum cap 2^62. */
  static final long MAX_GLOBAL_SENSITIVITY = UnitContributions.SUM_CAP;

  private TruncationChecks() {}

  static double epsilon(double epsilon) {
    if (Double.isNaN(epsilon) || Double.isInfinite(epsilon) || epsilon <= 0) {
      throw new IllegalArgumentException("epsilon must be finite and positive, was " + epsilon);
    }
    return epsilon;
  }

  static double openUnit(String name, double value) {
    if (!(value > 0 && value < 1)) {
      throw new IllegalArgumentException(name + " must be in (0, 1), was " + value);
    }
    return value;
  }

  static long globalSensitivity(long gs, long min) {
    if (gs < min || gs > MAX_GLOBAL_SENSITIVITY) {
      throw new IllegalArgumentException(
          "globalSensitivity must be in [" + min + ", 2^62], was " + gs);
    }
    return gs;
  }

  static RandomSource random(RandomSource random) {
    if (random == null) {
      throw new IllegalArgumentException("randomSource must be set");
    }
    return random;
  }

  static <T> T required(String name, T value) {
    if (value == null) {
      throw new IllegalArgumentException(name + " must be set");
    }
    return value;
  }

  /** ⌈log2 x⌉ for x ≥ 1. */
  static int ceilLog2(long x) {
    return 64 - Long.numberOfLeadingZeros(x - 1);
  }

  /**
   * The largest double e ≤ total/parts with parts·e ≤ total exactly (checked in decimal
   * arithmetic), so that {@code parts} mechanisms of e each compose to at most {@code total}.
   */
  static double shareDownward(double total, double fraction) {
    double e = total * fraction;
    BigDecimal cap = new BigDecimal(total).multiply(new BigDecimal(fraction));
    while (new BigDecimal(e).compareTo(cap) > 0) {
      e = Math.nextDown(e);
    }
    return e;
  }

  /** The largest double e with parts·e ≤ total exactly. */
  static double divideDownward(double total, int parts) {
    double e = total / parts;
    BigDecimal t = new BigDecimal(total);
    BigDecimal p = BigDecimal.valueOf(parts);
    while (new BigDecimal(e).multiply(p).compareTo(t) > 0) {
      e = Math.nextDown(e);
    }
    return e;
  }

  /** The largest double e with e + used ≤ total exactly. */
  static double remainderDownward(double total, double used) {
    double e = total - used;
    BigDecimal t = new BigDecimal(total);
    BigDecimal u = new BigDecimal(used);
    while (new BigDecimal(e).add(u).compareTo(t) > 0) {
      e = Math.nextDown(e);
    }
    return e;
  }

  static long saturatingSubtract(long a, long b) {
    long r = a - b;
    if (((a ^ b) & (a ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }
}
