package org.privet.engine.selection;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 item 7: the Laplace thresholding's noise scale t = num/den must be at least L0/ε
 * <em>exactly</em> (as {@code GeometricMechanism} computes Δ/ε), not at least the double nearest
 * to L0/ε, which can be below the true ratio.
 */
class PartitionSelectionScaleTest {

  /** True iff num/den ≥ l0/ε as exact rationals, i.e. num·ε ≥ l0·den. */
  private static boolean scaleAtLeastExactRatio(PartitionSelection sel, double epsilon, int l0) {
    long[] r = sel.scaleRational();
    BigDecimal lhs = new BigDecimal(r[0]).multiply(new BigDecimal(epsilon));
    BigDecimal rhs = new BigDecimal(l0).multiply(new BigDecimal(r[1]));
    return lhs.compareTo(rhs) >= 0;
  }

  @Test
  void laplace_scale_isAtLeastL0OverEpsilonExactly() {
    // ε from 1e-6 to ~1 over many doubles (including the ratios ≥ 2^12 where num/den equals the
    // rounded double ratio) and L0 from 1 to 7: every scale must cover L0/ε exactly.
    int checked = 0;
    for (int l0 = 1; l0 <= 7; l0++) {
      double epsilon = 1e-6;
      while (epsilon < 1) {
        PartitionSelection sel = PartitionSelection.laplace(epsilon, 1e-6, l0);
        assertTrue(scaleAtLeastExactRatio(sel, epsilon, l0),
            "scale below L0/ε for ε = " + epsilon + ", L0 = " + l0);
        epsilon *= 1.0137;
        checked++;
      }
    }
    assertTrue(checked > 1000);
  }
}
