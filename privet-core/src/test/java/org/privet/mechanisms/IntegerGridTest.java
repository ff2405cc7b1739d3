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
}
