package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PrivacyFilterTest {

  @Test
  void tryAdmit_untilBudget_refusesTheEventThatWouldExceed() {
    PrivacyFilter f = new PrivacyFilter(new BasicAccountant(), new ApproxDp(1.0, 0.0));
    assertTrue(f.tryAdmit(new PureDp(0.5)));
    assertTrue(f.tryAdmit(new PureDp(0.5)));
    assertFalse(f.tryAdmit(new PureDp(1e-9)));
    assertEquals(1.0, f.spent().epsilon());
    assertEquals(0.0, f.remaining().epsilon());
    assertEquals(2, f.admitted().size());
  }

  @Test
  void admit_overBudget_throwsAndChargesNothing() {
    PrivacyFilter f = new PrivacyFilter(new BasicAccountant(), new ApproxDp(1.0, 1e-6));
    f.admit(new ApproxDp(0.3, 1e-7));
    assertThrows(BudgetExceededException.class, () -> f.admit(new PureDp(0.8)));
    assertEquals(0.3, f.spent().epsilon());
    assertEquals(1e-7, f.spent().delta());
    assertEquals(0.7, f.remaining().epsilon(), 1e-15);
  }

  @Test
  void tryAdmit_zcdpAccountant_admitsMoreThanBasic() {
    PrivacyFilter zcdp = new PrivacyFilter(new ZcdpAccountant(), new ApproxDp(1.0, 1e-6));
    PrivacyFilter basic = new PrivacyFilter(new BasicAccountant(), new ApproxDp(1.0, 1e-6));
    int nz = 0;
    while (zcdp.tryAdmit(new PureDp(0.01))) {
      nz++;
    }
    int nb = 0;
    while (basic.tryAdmit(new PureDp(0.01))) {
      nb++;
    }
    assertTrue(nb <= 100 && nb >= 99, "basic admitted " + nb);
    assertTrue(nz > 3 * nb, "zcdp admitted " + nz);
    assertTrue(zcdp.spent().epsilon() <= 1.0);
  }

  @Test
  void constructor_nonAdaptiveAccountant_throws() {
    Accountant nonAdaptive = (events, delta) -> new ApproxDp(0, 0);
    assertThrows(
        IllegalArgumentException.class, () -> new PrivacyFilter(nonAdaptive, new ApproxDp(1, 0)));
  }

  @Test
  void tryAdmit_manyThreads_neverExceedsBudget() throws Exception {
    for (Accountant accountant : List.of(new BasicAccountant(), new ZcdpAccountant())) {
      PrivacyFilter f = new PrivacyFilter(accountant, new ApproxDp(1.0, 1e-6));
      int threads = 8;
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        final int id = t;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  int ok = 0;
                  for (int i = 0; i < 100; i++) {
                    PrivacyLoss e = (i + id) % 3 == 0 ? new Zcdp(0.0005) : new PureDp(0.007);
                    if (f.tryAdmit(e)) {
                      ok++;
                    }
                  }
                  return ok;
                }));
      }
      start.countDown();
      int total = 0;
      for (Future<Integer> r : results) {
        total += r.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      assertEquals(total, f.admitted().size());
      // Recompose independently: what was admitted fits in the budget.
      ApproxDp recomposed = accountant.compose(f.admitted(), 1e-6);
      assertTrue(recomposed.epsilon() <= 1.0, accountant + " spent " + recomposed);
      assertTrue(recomposed.delta() <= 1e-6);
      assertTrue(total > 0);
      // And the budget is essentially used: no small event fits any more.
      assertFalse(f.tryAdmit(new PureDp(0.05)));
    }
  }
}
