package org.privet.mechanisms;

/**
 * The output grid g·ℤ of a real-valued mechanism, g = 2<sup>k</sup>: inputs are snapped to it
 * exactly and the output k·g is computed from an exact integer, so every released double is a
 * deterministic function of an integer that carries the privacy guarantee (see
 * {@code docs/proofs/grid-noise.md}).
 *
 * <p>Snapping is round-half-up of x/g (x/g is exact: g is a power of two), which is monotone and
 * commutes with integer shifts, so inputs at distance d land at most ⌈d/g⌉ grid steps apart.
 * Values beyond ±2<sup>62</sup> steps are clamped (a 1-Lipschitz map, so sensitivity holds).
 */
final class PowerOfTwoGrid {
  private static final double LIMIT = 0x1p62;

  private final int exponent;
  private final double granularity;

  private PowerOfTwoGrid(int exponent) {
    if (exponent < -1074 || exponent > 1000) {
      throw new IllegalArgumentException("sensitivity/epsilon is outside the supported range for a power-of-two grid");
    }
    this.exponent = exponent;
    this.granularity = Math.scalb(1.0, exponent);
  }

  /** The grid 2<sup>⌊log2 x⌋ − bits</sup>: x spans between 2<sup>bits</sup> and 2<sup>bits+1</sup> steps. */
  static PowerOfTwoGrid below(double x, int bits) {
    return new PowerOfTwoGrid(Math.getExponent(x) - bits);
  }

  double granularity() {
    return granularity;
  }

  /** x/g for a non-negative length x, exactly (scaling by a power of two). */
  double steps(double x) {
    return Math.scalb(x, -exponent);
  }

  /** The grid point index nearest to {@code value} (ties upward), clamped to ±2<sup>62</sup>. */
  long snap(double value) {
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("value must not be NaN");
    }
    double q = Math.scalb(value, -exponent);
    double f = Math.floor(q);
    double r = q - f >= 0.5 ? f + 1 : f;
    if (r > LIMIT) {
      return (long) LIMIT;
    }
    if (r < -LIMIT) {
      return -(long) LIMIT;
    }
    return (long) r;
  }

  /** The real value of grid index k. */
  double toReal(long k) {
    return Math.scalb((double) k, exponent);
  }
}
