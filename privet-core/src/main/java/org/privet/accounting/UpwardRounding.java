package org.privet.accounting;

/**
 * Directed floating-point arithmetic for privacy budgets: every operation returns a double that is
 * at least the exact real result (Convention 4, "privacy arithmetic is directed").
 *
 * <p>Additions and multiplications use error-free transformations (TwoSum, FMA) so that the result
 * is moved up by one ulp only when the rounded result fell below the exact value. Library
 * transcendental functions ({@link Math#exp}, {@link Math#log}, {@link Math#sqrt}) are accurate to
 * within one ulp, so their results are moved up by one ulp (two for safety on {@code log1p}/
 * {@code expm1}), which bounds the exact value from above. Subtractions that must be rounded down
 * (remaining budgets) go through {@link #subtractDown}.
 *
 * <p>Public so that every module rounds privacy arithmetic here, never with its own copy.
 */
public final class UpwardRounding {
  private UpwardRounding() {}

  /** a + b rounded up. */
  public static double add(double a, double b) {
    double s = a + b;
    if (Double.isInfinite(s) || Double.isNaN(s)) {
      return s;
    }
    // Knuth TwoSum: e is the exact rounding error, s + e == a + b exactly.
    double bb = s - a;
    double e = (a - (s - bb)) + (b - bb);
    return e > 0 ? Math.nextUp(s) : s;
  }

  /** a − b rounded down (used for what remains of a budget). */
  public static double subtractDown(double a, double b) {
    double s = a - b;
    double bb = s - a;
    double e = (a - (s - bb)) + (-b - bb);
    return e < 0 ? Math.nextDown(s) : s;
  }

  /** a · b rounded up. */
  public static double multiply(double a, double b) {
    double p = a * b;
    if (Double.isInfinite(p) || Double.isNaN(p)) {
      return p;
    }
    double e = Math.fma(a, b, -p);
    return e > 0 ? Math.nextUp(p) : p;
  }

  /** a / b rounded up, for b &gt; 0. */
  public static double divide(double a, double b) {
    double q = a / b;
    if (Double.isInfinite(q) || Double.isNaN(q)) {
      return q;
    }
    // a − q·b exactly (FMA); positive means q is below the true quotient.
    double r = Math.fma(-q, b, a);
    return r > 0 ? Math.nextUp(q) : q;
  }

  /** √x rounded up (IEEE sqrt is correctly rounded). */
  public static double sqrt(double x) {
    double r = Math.sqrt(x);
    return Math.fma(r, r, -x) < 0 ? Math.nextUp(r) : r;
  }

  /** An upper bound on a value computed with a few ulps of library error. */
  public static double up(double value) {
    return Math.nextUp(Math.nextUp(value));
  }

  /** A lower bound on a value computed with a few ulps of library error, never below zero. */
  public static double down(double value) {
    return Math.max(0.0, Math.nextDown(Math.nextDown(value)));
  }

  /** Sum of non-negative values rounded up. */
  public static double sum(double[] values) {
    double s = 0.0;
    for (double v : values) {
      s = add(s, v);
    }
    return s;
  }

  /**
   * An upper bound on a value computed by a short chain (at most about twenty) of floating-point
   * operations whose terms have absolute values summing to at most {@code magnitude}: each
   * operation errs by at most 2<sup>−52</sup> relative to its terms, so the total error is below
   * 10<sup>−14</sup>·magnitude, and a margin of 10<sup>−12</sup>·magnitude covers it.
   */
  public static double withMargin(double value, double magnitude) {
    return Math.nextUp(value + 1e-12 * Math.abs(magnitude));
  }
}
