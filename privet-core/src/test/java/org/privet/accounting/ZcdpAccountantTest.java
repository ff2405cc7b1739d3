package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class ZcdpAccountantTest {
  private final ZcdpAccountant accountant = new ZcdpAccountant();

  @Test
  void compose_pureEvents_usesHalfSquare() {
    ApproxDp r = accountant.compose(Collections.nCopies(100, new PureDp(0.1)), 1e-6);
    assertEquals(ZcdpConversion.tightEpsilon(0.5, 1e-6), r.epsilon(), 1e-9);
    assertEquals(1e-6, r.delta());
    // Many small pure events: zCDP beats basic composition (ε = 10).
    assertTrue(r.epsilon() < 6.0);
  }

  @Test
  void compose_approxEvents_accountsApproximateZcdp() {
    ApproxDp r = accountant.compose(List.of(new ApproxDp(1.0, 1e-7), new Zcdp(0.5)), 1e-6);
    assertEquals(ZcdpConversion.tightEpsilon(1.0, 1e-6 - 1e-7), r.epsilon(), 1e-9);
    assertEquals(1e-6, r.delta());
  }

  @Test
  void compose_eventDeltasExceedTarget_throwsNamingDelta() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> accountant.compose(List.of(new ApproxDp(1.0, 1e-5)), 1e-6));
    assertTrue(e.getMessage().contains("delta"));
  }

  @Test
  void compose_onlyPureZero_isZero() {
    assertEquals(0.0, accountant.compose(List.of(new PureDp(0)), 0.0).epsilon());
  }
}
