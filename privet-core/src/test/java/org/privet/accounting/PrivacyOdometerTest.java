package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrivacyOdometerTest {

  @Test
  void record_events_sumsEpsilonAndDelta() {
    PrivacyOdometer o = new PrivacyOdometer();
    o.record(new PureDp(0.5));
    o.record(new ApproxDp(0.25, 1e-7));
    o.record(new PoissonSubsampled(new PureDp(1.0), 0.1));
    double amplified = Math.log1p(0.1 * Math.expm1(1.0));
    assertEquals(0.75 + amplified, o.spent().epsilon(), 1e-12);
    assertEquals(1e-7, o.spent().delta(), 1e-20);
    assertEquals(3, o.count());
  }

  @Test
  void record_zcdpEvent_throwsPointingToFilter() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new PrivacyOdometer().record(new Zcdp(0.1)));
    assertTrue(e.getMessage().contains("PrivacyFilter"));
  }

  @Test
  void record_manyThreads_countsEveryEvent() throws Exception {
    PrivacyOdometer o = new PrivacyOdometer();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread th = new Thread(() -> {
        for (int i = 0; i < 1000; i++) {
          o.record(new PureDp(0.001));
        }
      });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join();
    }
    assertEquals(8000, o.count());
    assertTrue(o.spent().epsilon() >= 8.0 - 1e-9 && o.spent().epsilon() <= 8.0 + 1e-9);
  }
}
