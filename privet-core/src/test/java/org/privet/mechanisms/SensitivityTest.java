package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.privet.accounting.NeighbouringRelation.ADD_REMOVE_ONE;
import static org.privet.accounting.NeighbouringRelation.REPLACE_ONE;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class SensitivityTest {

  @Test
  void counts_byRelation_matchTextbook() {
    assertEquals(1.0, Sensitivity.count(ADD_REMOVE_ONE));
    assertEquals(1.0, Sensitivity.count(REPLACE_ONE));
    assertEquals(1.0, Sensitivity.datasetSize(ADD_REMOVE_ONE));
    assertEquals(0.0, Sensitivity.datasetSize(REPLACE_ONE));
  }

  @Test
  void sum_byRelation_matchTextbook() {
    assertEquals(5.0, Sensitivity.sum(-5, 3, ADD_REMOVE_ONE));
    assertEquals(8.0, Sensitivity.sum(-5, 3, REPLACE_ONE));
    assertEquals(0.2, Sensitivity.linearQuery(0, 1, 5, REPLACE_ONE));
  }

  @Test
  void histogram_byRelation_matchTextbook() {
    assertEquals(1.0, Sensitivity.histogramL1(1, ADD_REMOVE_ONE));
    assertEquals(2.0, Sensitivity.histogramL1(1, REPLACE_ONE));
    assertEquals(6.0, Sensitivity.histogramL1(3, REPLACE_ONE));
    assertEquals(1.0, Sensitivity.histogramL2(1, ADD_REMOVE_ONE));
    double l2 = Sensitivity.histogramL2(1, REPLACE_ONE);
    assertTrue(l2 >= Math.sqrt(2) && l2 <= Math.nextUp(Math.sqrt(2)));
    assertEquals(4.0, Sensitivity.thresholdQueriesL1(4, REPLACE_ONE));
  }

  @Test
  void roundedResults_neverBelowExactValue() {
    // 1/3 is not a double: the result must be the double just above it.
    double s = Sensitivity.boundedMean(0, 1, 3, REPLACE_ONE);
    assertTrue(new java.math.BigDecimal(s).compareTo(
        java.math.BigDecimal.ONE.divide(java.math.BigDecimal.valueOf(3), java.math.MathContext.DECIMAL128)) > 0);
    // The doubles 0.3 and 0.1 differ by slightly less than 0.2; the result must not be below it.
    double w = Sensitivity.sum(0.1, 0.3, REPLACE_ONE);
    java.math.BigDecimal exact =
        new java.math.BigDecimal(0.3).subtract(new java.math.BigDecimal(0.1));
    assertTrue(new java.math.BigDecimal(w).compareTo(exact) >= 0);
  }

  @Test
  void bounds_reversed_throwsNamingBothBounds() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Sensitivity.sum(2, 1, REPLACE_ONE));
    assertTrue(e.getMessage().startsWith("lower must not exceed upper"));
    assertThrows(IllegalArgumentException.class, () -> Sensitivity.boundedMean(0, 1, 0, REPLACE_ONE));
  }

  private static double mean(double[] x) {
    return Arrays.stream(x).sum() / x.length;
  }

  private static double variance(double[] x) {
    double m = mean(x);
    return Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / x.length;
  }

  @Property(tries = 300)
  boolean boundedMeanAndVariance_replaceOne_withinSensitivity(
      @ForAll @Size(min = 2, max = 8) double[] raw,
      @ForAll @DoubleRange(min = 0, max = 1) double replacement,
      @ForAll @IntRange(min = 0, max = 7) int position) {
    double[] x = Arrays.stream(raw).map(v -> Double.isFinite(v) ? Math.abs(v % 1.0) : 0).toArray();
    double[] y = x.clone();
    y[position % x.length] = replacement;
    int n = x.length;
    return Math.abs(mean(x) - mean(y)) <= Sensitivity.boundedMean(0, 1, n, REPLACE_ONE) + 1e-12
        && Math.abs(variance(x) - variance(y))
            <= Sensitivity.boundedVariance(0, 1, n, REPLACE_ONE) + 1e-12;
  }

  @Property(tries = 300)
  boolean boundedMeanAndVariance_addOne_withinSensitivity(
      @ForAll @Size(min = 1, max = 8) double[] raw,
      @ForAll @DoubleRange(min = 0, max = 1) double added) {
    double[] x = Arrays.stream(raw).map(v -> Double.isFinite(v) ? Math.abs(v % 1.0) : 0).toArray();
    double[] y = Arrays.copyOf(x, x.length + 1);
    y[x.length] = added;
    int minSize = x.length;
    return Math.abs(mean(x) - mean(y)) <= Sensitivity.boundedMean(0, 1, minSize, ADD_REMOVE_ONE) + 1e-12
        && Math.abs(variance(x) - variance(y))
            <= Sensitivity.boundedVariance(0, 1, minSize, ADD_REMOVE_ONE) + 1e-12;
  }
}
