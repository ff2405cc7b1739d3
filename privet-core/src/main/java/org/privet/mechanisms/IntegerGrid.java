package org.privet.mechanisms;

import java.math.BigInteger;

/**
 * Maps real scores (utilities, query answers) of sensitivity Δ to integers of integer
 * sensitivity, so that the choice mechanisms can sample exactly.
 *
 * <p>The grid spacing is a power of two, h = 2<sup>k</sup> with Δ/h ∈ [2<sup>10</sup>,
 * 2<sup>11</sup>), and a score u maps to {@code index(u) = clamp(⌊u/h⌋, ±2^61)}. Division by a power
 * of two is exact in binary floating point (except for underflow, handled exactly below), so
 * {@code index} is exactly the mathematical function above. It is monotone and 1-Lipschitz up to
 * the floor: if |u − u'| ≤ Δ then |index(u) − index(u')| ≤ ⌈Δ/h⌉ = {@link #sensitivity()},
 * because ⌊x⌋ − ⌊y⌋ ≤ ⌈x − y⌉ and clamping never increases distances. If u ≤ u' then index(u) ≤
 * index(u'), so monotone utilities stay monotone. Rounding costs at most h = Δ/2<sup>10</sup> of
 * utility. See {@code docs/proofs/exponential-mechanism.md}.
 */
final class IntegerGrid {

  /** Indices are clamped to ±2^61 so that differences of two indices fit in a long. */
  static final long LIMIT = 1L << 61;

  private static final int RESOLUTION_BITS = 10;

  private final int exponent;
  private final long sensitivity;

  private IntegerGrid(int exponent, long sensitivity) {
    this.exponent = exponent;
    this.sensitivity = sensitivity;
  }

  /** The grid for scores of sensitivity {@code delta} (already validated). */
  static IntegerGrid forSensitivity(double delta) {
    int exponent = Math.getExponent(delta) - RESOLUTION_BITS;
    long sensitivity = (long) Math.ceil(Math.scalb(delta, -exponent)); // exact scaling
    return new IntegerGrid(exponent, sensitivity);
  }

  /** The integer sensitivity ⌈Δ/h⌉ ∈ [2^10, 2^11] of indices. */
  long sensitivity() {
    return sensitivity;
  }

  /** The grid spacing h = 2^k. */
  double spacing() {
    return Math.scalb(1.0, exponent);
  }

  /** ⌊u/h⌋ clamped to [−2^61, 2^61], exactly. {@code u} must not be NaN. */
  long index(double u) {
    double x = Math.scalb(u, -exponent);
    if (x >= LIMIT) {
      return LIMIT;
    }
    if (x <= -LIMIT) {
      return -LIMIT;
    }
    if (Math.abs(x) < Double.MIN_NORMAL) {
      // Underflow may have rounded x; the exact quotient is in (-2^-1022, 2^-1022).
      return u < 0 ? -1 : 0;
    }
    return (long) Math.floor(x);
  }

  /**
   * The clamped gaps min(max<sub>j</sub> ⌊u<sub>j</sub>/h⌋ − ⌊u<sub>i</sub>/h⌋, 2<sup>62</sup>)
   * of a non-empty utility vector, computed exactly (without clamping the indices themselves).
   *
   * <p>Exponentiating −rate·gap<sub>i</sub> is the exponential mechanism for the utility
   * u'<sub>i</sub> = max(⌊u<sub>i</sub>/h⌋, max<sub>j</sub>⌊u<sub>j</sub>/h⌋ − 2<sup>62</sup>), a
   * maximum of two functions of sensitivity ⌈Δ/h⌉, hence of the same sensitivity, and monotone
   * whenever the utilities are.
   *
   * @throws IllegalArgumentException if a utility is NaN or infinite (the message names no value)
   */
  long[] gaps(double[] utilities) {
    double[] floors = new double[utilities.length];
    double max = Double.NEGATIVE_INFINITY;
    boolean large = false;
    for (int i = 0; i < utilities.length; i++) {
      double u = utilities[i];
      if (Double.isNaN(u) || Double.isInfinite(u)) {
        throw new IllegalArgumentException("utilities must be finite numbers");
      }
      double x = Math.scalb(u, -exponent);
      if (Math.abs(x) >= LIMIT) {
        large = true; // may have overflowed to infinity: use exact arithmetic below
      } else {
        x = index(u);
      }
      floors[i] = x;
      max = Math.max(max, x);
    }
    long[] gaps = new long[utilities.length];
    if (!large) {
      long m = (long) max;
      for (int i = 0; i < gaps.length; i++) {
        gaps[i] = m - (long) floors[i]; // both in (-2^61, 2^61): exact
      }
      return gaps;
    }
    BigInteger[] exact = new BigInteger[utilities.length];
    BigInteger top = null;
    for (int i = 0; i < utilities.length; i++) {
      exact[i] = exactFloor(utilities[i]);
      top = (top == null || exact[i].compareTo(top) > 0) ? exact[i] : top;
    }
    for (int i = 0; i < gaps.length; i++) {
      BigInteger g = top.subtract(exact[i]);
      gaps[i] = g.compareTo(MAX_GAP) >= 0 ? MAX_GAP.longValueExact() : g.longValueExact();
    }
    return gaps;
  }

  /** ⌊u/h⌋ exactly, for any finite u, from u's binary mantissa and exponent. */
  BigInteger exactFloor(double u) {
    if (u == 0) {
      return BigInteger.ZERO;
    }
    double magnitude = Math.abs(u);
    int p = Math.max(Math.getExponent(magnitude), Double.MIN_EXPONENT) - 52;
    long mantissa = (long) Math.scalb(magnitude, -p); // |u| = mantissa·2^p exactly, < 2^53
    int shift = p - exponent; // u/h = ±mantissa·2^shift
    if (shift >= 0) {
      BigInteger m = BigInteger.valueOf(mantissa).shiftLeft(shift);
      return u < 0 ? m.negate() : m;
    }
    if (shift <= -63) {
      return BigInteger.valueOf(u < 0 ? -1 : 0);
    }
    long signed = u < 0 ? -mantissa : mantissa;
    return BigInteger.valueOf(signed >> -shift); // arithmetic shift = floor division by 2^-shift
  }

  private static final BigInteger MAX_GAP = BigInteger.ONE.shiftLeft(62);
}
