package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.privet.accounting.pld.PldAccountant;

import java.util.List;
import org.junit.jupiter.api.Test;

class ApproxZcdpTest {

  @Test
  void constructor_badParameters_throwNamingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ApproxZcdp(-1, 0))
        .getMessage().contains("rho"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ApproxZcdp(0.1, 1))
        .getMessage().contains("delta"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new ApproxZcdp(Double.NaN, 0))
        .getMessage().contains("rho"));
  }

  @Test
  void toApproxDp_addsConversionDeltaToOwnDelta() {
    ApproxDp a = new ApproxZcdp(0.5, 1e-7).toApproxDp(1e-6);
    assertEquals(ZcdpConversion.tightEpsilon(0.5, 1e-6), a.epsilon());
    assertTrue(a.delta() >= 1.1e-6);
    assertEquals(1.1e-6, a.delta(), 1e-20);
  }

  @Test
  void compose_addsRhosAndDeltasRoundedUp() {
    ApproxZcdp c = new ApproxZcdp(0.1, 1e-7).compose(new ApproxZcdp(0.2, 2e-7));
    assertTrue(c.rho() >= 0.1 + 0.2 - 1e-17 && c.rho() <= 0.30000000000000004);
    assertTrue(c.delta() >= 3e-7 - 1e-22);
  }

  @Test
  void zcdpAccountant_compose_mixedParts_convertsSumOfRhosAtRemainingDelta() {
    List<PrivacyLoss> events = List.of(new ApproxZcdp(0.3, 1e-7), new Zcdp(0.2),
        new ApproxDp(1.0, 2e-7), new PureDp(0.2));
    ApproxDp r = ZcdpAccountant.INSTANCE.compose(events, 1e-5);
    double rho = 0.3 + 0.2 + 0.5 + 0.02;
    assertEquals(ZcdpConversion.tightEpsilon(rho, 1e-5 - 3e-7), r.epsilon(), 1e-9);
    assertEquals(1e-5, r.delta());
    // Rounded toward more loss: never below the exact conversion at the exact remaining δ.
    assertTrue(r.epsilon() >= ZcdpConversion.tightEpsilon(rho, 1e-5 - 3e-7) - 1e-12);
  }

  @Test
  void zcdpAccountant_totalApproxZcdp_addsBothParameters() {
    ApproxZcdp t = ZcdpAccountant.INSTANCE.totalApproxZcdp(
        List.of(new ApproxZcdp(0.3, 1e-7), new ApproxDp(1.0, 2e-7), new Zcdp(0.1)));
    assertEquals(0.9, t.rho(), 1e-12);
    assertEquals(3e-7, t.delta(), 1e-20);
    assertTrue(t.rho() >= 0.9 - 1e-16);
  }

  @Test
  void zcdpAccountant_deltaTooSmallForParts_throwsNamingDelta() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ZcdpAccountant.INSTANCE.compose(List.of(new ApproxZcdp(0.1, 1e-5)), 1e-6));
    assertTrue(e.getMessage().contains("delta"));
  }

  @Test
  void basicAccountant_compose_addsEpsilonsAndConvertsApproxZcdpAtRemainingDelta() {
    List<PrivacyLoss> events = List.of(new ApproxZcdp(0.2, 1e-7), new ApproxDp(0.5, 2e-7));
    ApproxDp r = BasicAccountant.INSTANCE.compose(events, 1e-6);
    assertEquals(0.5 + ZcdpConversion.tightEpsilon(0.2, 1e-6 - 3e-7), r.epsilon(), 1e-9);
    assertEquals(1e-6, r.delta());
  }

  @Test
  void basicAccountant_approxZcdpDeltaExceedsTarget_throws() {
    assertThrows(IllegalArgumentException.class,
        () -> BasicAccountant.INSTANCE.compose(List.of(new ApproxZcdp(0.2, 1e-6)), 1e-6));
  }

  @Test
  void rdpAccountant_approxZcdpWithDelta_isRefusedClearly() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new RdpAccountant().compose(List.of(new ApproxZcdp(0.1, 1e-7)), 1e-6));
    assertTrue(e.getMessage().contains("approximate zCDP"));
  }

  @Test
  void rdpAccountant_approxZcdpWithoutDelta_readsAsZcdp() {
    ApproxDp a = new RdpAccountant().compose(List.of(new ApproxZcdp(0.1, 0)), 1e-6);
    ApproxDp b = new RdpAccountant().compose(List.of(new Zcdp(0.1)), 1e-6);
    assertEquals(b, a);
  }

  @Test
  void pldAndOptimalAccountants_approxZcdp_areRefusedNamingTheType() {
    PrivacyLoss e = new ApproxZcdp(0.1, 1e-7);
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> PldAccountant.builder().build().compose(List.of(e), 1e-5)).getMessage()
        .contains("ApproxZcdp"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new OptimalCompositionAccountant().compose(List.of(e), 1e-5)).getMessage()
        .contains("ApproxZcdp"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new PrivacyOdometer().record(e)).getMessage().contains("ApproxZcdp"));
  }

  @Test
  void parallelComposition_zcdpAndApproxZcdp_takesMaxima() {
    PrivacyLoss p = ParallelComposition.of(List.of(new Zcdp(0.3), new ApproxZcdp(0.1, 1e-6)));
    assertEquals(new ApproxZcdp(0.3, 1e-6), p);
  }

  @Test
  void groupPrivacy_approxZcdpWithDelta_isRefused() {
    assertThrows(IllegalArgumentException.class,
        () -> GroupPrivacy.of((PrivacyLoss) new ApproxZcdp(0.1, 1e-7), 2));
    assertEquals(new Zcdp(0.4), GroupPrivacy.of((PrivacyLoss) new ApproxZcdp(0.1, 0), 2));
  }

  @Test
  void privacyFilter_zcdpAccountant_admitsApproxZcdpUntilBudget() {
    PrivacyFilter f = new PrivacyFilter(ZcdpAccountant.INSTANCE, new ApproxDp(2.0, 1e-5));
    assertTrue(f.tryAdmit(new ApproxZcdp(0.05, 1e-7)));
    assertTrue(f.tryAdmit(new ApproxZcdp(0.05, 1e-7)));
    for (int i = 0; i < 100 && f.tryAdmit(new ApproxZcdp(0.05, 1e-7)); i++) {
      // spend until refused
    }
    assertTrue(!f.tryAdmit(new ApproxZcdp(0.05, 1e-7)));
  }
}
