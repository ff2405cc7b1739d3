package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetTest {

  @Test
  void factories_zeroDelta_giveThePureMeasure() {
    assertEquals(new Budget.Epsilon(1.0), Budget.approx(1.0, 0));
    assertEquals(new Budget.Rho(0.5), Budget.zcdp(0.5, 0));
    assertEquals(new Budget.EpsilonDelta(1.0, 1e-6), Budget.of(new ApproxDp(1.0, 1e-6)));
    assertEquals(new Budget.Epsilon(1.0), Budget.of(new ApproxDp(1.0, 0)));
    assertEquals(new Budget.RhoDelta(0.5, 1e-6), Budget.of(new ApproxZcdp(0.5, 1e-6)));
    assertEquals("ε=1, δ=1e-6", Budget.approx(1.0, 1e-6).toString());
  }

  @Test
  void factories_badParameters_areRefusedNamingTheParameter() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Budget.pure(0)).getMessage().startsWith("epsilon"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Budget.pure(0x1p-51)).getMessage().startsWith("epsilon"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Budget.zcdp(Double.NaN)).getMessage().startsWith("rho"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Budget.approx(1, 1)).getMessage().startsWith("delta"));
    assertThrows(IllegalArgumentException.class, () -> Budget.of(new RdpCurve(new double[] {2}, new double[] {1})));
  }

  @Test
  void compose_eachMeasure_composesInTheBudgetsMeasure() {
    List<PrivacyLoss> parts = List.of(new PureDp(0.2), new Zcdp(0.01));
    PrivacyLoss rho = Budget.zcdp(1.0).compose(parts, BasicAccountant.INSTANCE);
    assertEquals(new Zcdp(UpwardRounding.add(UpwardRounding.multiply(0.5, UpwardRounding.multiply(0.2, 0.2)), 0.01)).rho(),
        ((Zcdp) rho).rho(), 1e-15);
    assertInstanceOf(ApproxZcdp.class, Budget.zcdp(1.0, 1e-6).compose(List.of(new ApproxDp(0.1, 1e-7)), null));
    ApproxDp eps = (ApproxDp) Budget.approx(1.0, 1e-6).compose(parts, BasicAccountant.INSTANCE);
    assertEquals(1e-6, eps.delta());
    assertTrue(eps.epsilon() > 0.2 && eps.epsilon() < 1.0, "eps " + eps);
    assertEquals(new ApproxDp(0, 0), Budget.pure(1).compose(List.of(), BasicAccountant.INSTANCE));
  }

  @Test
  void compose_deltaUnderPureRho_isABudgetRefusal() {
    assertThrows(BudgetExceededException.class,
        () -> Budget.zcdp(1.0).compose(List.of(new ApproxDp(0.1, 1e-9)), BasicAccountant.INSTANCE));
  }

  @Test
  void admits_onlyWithinAndInTheSameMeasure() {
    Budget b = Budget.approx(1.0, 1e-6);
    assertTrue(b.admits(new ApproxDp(1.0, 1e-6)));
    assertTrue(b.admits(new PureDp(1.0)));
    assertFalse(b.admits(new ApproxDp(Math.nextUp(1.0), 0)));
    assertFalse(b.admits(new ApproxDp(0.5, 2e-6)));
    assertFalse(b.admits(new Zcdp(0.01)));
    assertFalse(Budget.pure(1).admits(new ApproxDp(0.5, 1e-9)));
    assertTrue(Budget.zcdp(0.5).admits(new ApproxZcdp(0.5, 0)));
    assertFalse(Budget.zcdp(0.5).admits(new ApproxZcdp(0.1, 1e-9)));
    assertFalse(Budget.zcdp(0.5).admits(new PureDp(0.1)));
    assertTrue(Budget.zcdp(0.5, 1e-6).admits(new Zcdp(0.5)));
  }

  @Test
  void remaining_isRoundedDownAndNeverNegative() {
    ApproxDp r = (ApproxDp) Budget.pure(1.0).remaining(new ApproxDp(0.1, 0));
    BigDecimal exact = new BigDecimal(1.0).subtract(new BigDecimal(0.1));
    assertTrue(new BigDecimal(r.epsilon()).compareTo(exact) <= 0, "rounded down");
    assertTrue(new BigDecimal(Math.nextUp(r.epsilon())).compareTo(exact) > 0, "by at most one ulp");
    assertEquals(new ApproxDp(0, 0), Budget.pure(1.0).remaining(new PureDp(2.0)));
    assertEquals(new ApproxZcdp(0.25, 0), Budget.zcdp(0.5, 1e-6).remaining(new ApproxZcdp(0.25, 2e-6)));
  }

  @Test
  void describe_roundsSpendsUpAndRemaindersDown() {
    PrivacyLoss third = new ApproxDp(1.0 / 3, 1e-7 / 3);
    assertEquals("epsilon=0.3334, delta=3.334e-8", Budget.describe(third, RoundingMode.CEILING));
    assertEquals("epsilon=0.3333, delta=3.333e-8", Budget.describe(third, RoundingMode.FLOOR));
    assertEquals("rho=0.5", Budget.describe(new Zcdp(0.5), RoundingMode.CEILING));
    assertEquals("epsilon=1, delta=1e-6", Budget.approx(1.0, 1e-6).describe());
  }
}
