package org.privet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The scanner flags the examples and passes four-digit budgets. */
class LongTailsTest {
  @Test
  void in_longTailsAndJavaNotation_flaggedFourDigitsPass() {
    assertEquals(List.of("epsilon=0.4999999999995", "delta=9.99999999999E-7", "δ = 1.0E-6",
        "ρ: 0.33333"), LongTails.in("spent epsilon=0.4999999999995, delta=9.99999999999E-7;"
            + " total (ε = 1, δ = 1.0E-6), ρ: 0.33333"));
    assertEquals(List.of(), LongTails.in("epsilon=0.4999, delta=1e-6, ε = 12350, rho=2.5e-7,"
        + " OPTIONS (epsilon = 0.1) remaining ε = 0.5"));
  }
}
