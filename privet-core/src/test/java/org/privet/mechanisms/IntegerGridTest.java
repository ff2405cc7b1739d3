package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

class IntegerGridTest {

  @Test
  void forSensitivity_one_isExactBinaryGrid() {
    IntegerGrid g = IntegerGrid.forSensitivity(1);
    assertEquals(1024, g.sensitivity());
    assertEquals(0x1p-10, g.spacing());
    assertEquals(3 * 1024, g.index(3));
    assertEquals(-1, g.index(-1e-9));
    assertEquals(0, g.index(Double.MIN_VALUE));
    assertEquals(-1, g.index(-Double.MIN_VALUE));
    assertEquals(IntegerGrid.LIMIT, g.index(Double.MAX_VALUE));
    assertEquals(-IntegerGrid.LIMIT, g.index(-Double.MAX_VALUE));
  }

  @Property(tries = 2000)
  boolean index_neighbours_differByAtMostIntegerSensitivity(
      @ForAll @DoubleRange(min = 1e-6, max = 1e6) @Scale(12) double delta,
      @ForAll @DoubleRange(min = -1e9, max = 1e9) double u,
      @ForAll @DoubleRange(min = -1, max = 1) double fraction) {
    IntegerGrid g = IntegerGrid.forSensitivity(delta);
    double v = u + fraction * delta;
    // Check the property for the pair actually compared (|u - v| <= delta in exact arithmetic).
    if (Math.abs(new java.math.BigDecimal(u).subtract(new java.math.BigDecimal(v)).doubleValue()) > delta) {
      return true;
    }
    long d = Math.abs(g.index(u) - g.index(v));
    boolean monotone = (u <= v) ? g.index(u) <= g.index(v) : g.index(u) >= g.index(v);
    return d <= g.sensitivity() && monotone && g.sensitivity() <= 2048 && g.sensitivity() >= 1024;
  }

  @Test
  void gaps_areNonNegativeWithZeroAtMax() {
    long[] gaps = IntegerGrid.forSensitivity(2).gaps(new double[] {1, 5, -3});
    assertEquals(0, gaps[1]);
    assertTrue(gaps[0] > 0 && gaps[2] > gaps[0]);
  }

  @Property(tries = 3000)
  boolean exactFloor_matchesBigDecimalReference(
      @ForAll double u, @ForAll @net.jqwik.api.constraints.IntRange(min = -890, max = 890) int e) {
    if (!Double.isFinite(u)) {
      return true;
    }
    double delta = Math.scalb(3.0, e);
    IntegerGrid g = IntegerGrid.forSensitivity(delta);
    java.math.BigDecimal exact = new java.math.BigDecimal(u)
        .divide(new java.math.BigDecimal(g.spacing()))
        .setScale(0, java.math.RoundingMode.FLOOR);
    boolean agrees = g.exactFloor(u).equals(exact.toBigIntegerExact());
    long clamped = g.index(u);
    java.math.BigInteger limit = java.math.BigInteger.valueOf(IntegerGrid.LIMIT);
    java.math.BigInteger expected = exact.toBigIntegerExact().max(limit.negate()).min(limit);
    return agrees && expected.longValueExact() == clamped;
  }

  @Test
  void gaps_hugeUtilities_exactAndClamped() {
    IntegerGrid g = IntegerGrid.forSensitivity(1);
    long[] gaps = g.gaps(new double[] {1e300, 1e300 - 1e284, -1e300, 1e19, 1e19 + 4096});
    assertEquals(0, gaps[0]);
    assertEquals(1L << 62, gaps[1]); // 1e284 · 1024 grid steps, clamped
    assertEquals(1L << 62, gaps[2]);
    assertEquals(1L << 62, gaps[3]);
  }

  @Test
  void gaps_largeButCloseUtilities_exact() {
    IntegerGrid g = IntegerGrid.forSensitivity(1);
    // 1e17 * 1024 exceeds 2^61: the exact path must still resolve a difference of 2048 steps.
    long[] gaps = g.gaps(new double[] {1e17, 1e17 + 16, 1e17 - 16});
    assertEquals(16 * 1024, gaps[0]);
    assertEquals(0, gaps[1]);
    assertEquals(32 * 1024, gaps[2]);
  }
}
