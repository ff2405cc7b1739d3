package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link ApproxDp#bestTestAccuracy}: the (e^ε + δ)/(1 + e^ε) bound on telling neighbours apart,
 * against the optimal test on binary randomized response, whose accuracy is exactly e^ε/(1 + e^ε).
 */
class BestTestAccuracyTest {
  @Test
  void bestTestAccuracy_equalsRandomizedResponsesOptimalTest_andNeverOverflows() {
    assertEquals(0.5, new ApproxDp(0, 0).bestTestAccuracy(), 0);
    for (double eps : new double[] {0.01, 0.5, 1, 3, 20}) {
      double rr = Math.exp(eps) / (1 + Math.exp(eps)); // answering the truth is the optimal test
      assertEquals(rr, new ApproxDp(eps, 0).bestTestAccuracy(), 1e-15);
      assertEquals((Math.exp(eps) + 1e-3) / (1 + Math.exp(eps)), new ApproxDp(eps, 1e-3).bestTestAccuracy(), 1e-15);
    }
    assertEquals(1.0, new ApproxDp(1000, 0).bestTestAccuracy());
    assertTrue(new ApproxDp(1, 1e-2).bestTestAccuracy() > new ApproxDp(1, 0).bestTestAccuracy());
  }
}
