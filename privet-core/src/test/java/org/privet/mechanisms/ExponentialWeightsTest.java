package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.random.RandomSource;

class ExponentialWeightsTest {

  @Test
  void accept_overflowingProduct_hasExactProbability() {
    // num·g = 3·2^62 overflows a long; γ = 3·2^62 / 2^62 = 3, so P[accept] = e^-3 ≈ 0.0498.
    ExponentialWeights w = new ExponentialWeights(new long[] {0, 1L << 62}, 3, 1L << 62);
    RandomSource r = Seeded.source(11);
    int n = 200_000;
    int hits = 0;
    for (int i = 0; i < n; i++) {
      hits += w.accept(r, 1) ? 1 : 0;
    }
    double p = Math.exp(-3);
    double sd = Math.sqrt(p * (1 - p) / n);
    // 6 standard deviations: false-failure probability below 1e-8.
    assertEquals(p, (double) hits / n, 6 * sd);
  }

  @Test
  void accept_zeroGap_alwaysTrue() {
    ExponentialWeights w = new ExponentialWeights(new long[] {0}, 5, 7);
    RandomSource r = Seeded.source(12);
    for (int i = 0; i < 100; i++) {
      assertTrue(w.accept(r, 0));
    }
  }

  @Test
  void sampleProportional_oneGoodAmongHugeGaps_returnsIt() {
    long[] gaps = new long[10_000];
    java.util.Arrays.fill(gaps, 1L << 62);
    gaps[1234] = 0;
    ExponentialWeights w = new ExponentialWeights(gaps, 1 << 19, 1L << 30);
    RandomSource r = Seeded.source(13);
    for (int i = 0; i < 10; i++) {
      assertEquals(1234, w.sampleProportional(r));
      assertEquals(1234, w.permuteAndFlip(r));
    }
  }
}
