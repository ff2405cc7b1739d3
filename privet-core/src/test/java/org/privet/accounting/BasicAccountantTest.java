package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class BasicAccountantTest {
  private final BasicAccountant accountant = new BasicAccountant();

  @Test
  void compose_pureAndApprox_addsEpsilonsAndDeltas() {
    ApproxDp r =
        accountant.compose(List.of(new PureDp(0.5), new ApproxDp(0.25, 1e-6), new PureDp(0.25)), 1e-5);
    assertEquals(1.0, r.epsilon(), 1e-15);
    assertEquals(1e-6, r.delta(), 1e-21);
  }

  @Test
  void compose_manySmallEpsilons_neverBelowExactSum() {
    // 0.1 is not representable; ten thousand additions of the double nearest 0.1 round-to-nearest
    // drift below 1000·0.1d in ordinary arithmetic, never in directed arithmetic.
    ApproxDp r = accountant.compose(Collections.nCopies(10_000, new PureDp(0.1)), 0.0);
    assertTrue(new java.math.BigDecimal(r.epsilon())
        .compareTo(new java.math.BigDecimal(0.1).multiply(java.math.BigDecimal.valueOf(10_000))) >= 0);
    assertEquals(1000.0, r.epsilon(), 1e-9);
  }

  @Test
  void compose_zcdpEvents_convertsSumOfRhoAtRemainingDelta() {
    ApproxDp r = accountant.compose(List.of(new Zcdp(0.1), new Zcdp(0.2), new PureDp(1.0)), 1e-6);
    assertEquals(1.0 + ZcdpConversion.tightEpsilon(0.30000000000000004, 1e-6), r.epsilon(), 1e-9);
    assertEquals(1e-6, r.delta());
  }

  @Test
  void compose_zcdpWithZeroDelta_throwsNamingDelta() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> accountant.compose(List.of(new Zcdp(0.1)), 0.0));
    assertTrue(e.getMessage().contains("delta"));
  }

  @Test
  void compose_noEvents_isZero() {
    assertEquals(new ApproxDp(0, 0), accountant.compose(List.of(), 1e-6));
  }
}
