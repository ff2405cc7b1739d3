package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.privet.accounting.PureDp;

class RandomizedResponseTest {

  @ParameterizedTest
  @ValueSource(doubles = {Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 0, -0.5})
  void epsilon_invalid_throwsNamingEpsilon(double epsilon) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> RandomizedResponse.builder().epsilon(epsilon));
    assertTrue(e.getMessage().startsWith("epsilon"));
  }

  @Test
  void categories_one_throwsNamingCategories() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> RandomizedResponse.builder().categories(1));
    assertTrue(e.getMessage().startsWith("categories"));
  }

  @Test
  void build_twoCoinWithEpsilon_throws() {
    assertThrows(
        IllegalArgumentException.class,
        () -> RandomizedResponse.builder().epsilon(1).twoCoin().build());
  }

  @Test
  void build_noEpsilon_throwsNamingEpsilon() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RandomizedResponse.builder().build());
    assertEquals("epsilon is required", e.getMessage());
  }

  @Test
  void privacyLoss_twoCoin_isLn3RoundedUp() {
    RandomizedResponse rr = RandomizedResponse.builder().twoCoin().build();
    assertTrue(rr.privacyLoss().epsilon() >= Math.log(3));
    assertTrue(rr.privacyLoss().epsilon() <= Math.log(3) + 1e-15);
    assertEquals(0.75, rr.truthProbability());
  }

  @Test
  void truthProbability_binary_isLogistic() {
    RandomizedResponse rr = RandomizedResponse.builder().epsilon(Math.log(3)).build();
    assertEquals(0.75, rr.truthProbability(), 1e-6);
    assertEquals(new PureDp(Math.log(3)), rr.privacyLoss());
  }

  @Test
  void respond_largeEpsilon_almostAlwaysTruthful() {
    // exp(-30) chance of a lie per response.
    RandomizedResponse rr =
        RandomizedResponse.builder().epsilon(30).randomSource(Seeded.source(1)).build();
    for (int i = 0; i < 1000; i++) {
      assertTrue(rr.respond(true));
      assertEquals(false, rr.respond(false));
    }
  }

  @Test
  void respond_karyOutOfRange_throwsNamingCategory() {
    RandomizedResponse rr = RandomizedResponse.builder().epsilon(1).categories(3).build();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rr.respond(3));
    assertTrue(e.getMessage().startsWith("category"));
    assertThrows(IllegalStateException.class, () -> rr.respond(true));
  }

  @Test
  void estimateFrequency_manyResponses_intervalCoversTruth() {
    RandomizedResponse rr =
        RandomizedResponse.builder().epsilon(1).randomSource(Seeded.source(2)).build();
    int n = 20_000;
    long yes = 0;
    for (int i = 0; i < n; i++) {
      // 30% of respondents hold "true".
      if (rr.respond(i % 10 < 3)) {
        yes++;
      }
    }
    FrequencyEstimate est = rr.estimateFrequency(yes, n, 1e-6);
    // The Hoeffding interval fails with probability ≤ 1e-6.
    assertTrue(est.interval().lower() <= 0.3 && 0.3 <= est.interval().upper(), est.toString());
    assertTrue(est.interval().upper() - est.interval().lower() < 0.1, est.toString());
  }

  @Test
  void estimateFrequency_exactExpectedCounts_recoversTruth() {
    RandomizedResponse rr = RandomizedResponse.builder().twoCoin().build();
    // With pi = 0.4: E[yes fraction] = 0.75*0.4 + 0.25*0.6 = 0.45.
    assertEquals(0.4, rr.estimateFrequency(450, 1000, 0.05).estimate(), 1e-12);
  }

  @Test
  void estimateFrequencies_kary_recoversTruthFromExpectedCounts() {
    RandomizedResponse rr = RandomizedResponse.builder().epsilon(2).categories(3).build();
    double p = rr.truthProbability();
    double q = (1 - p) / 2;
    double[] pi = {0.5, 0.3, 0.2};
    long n = 1_000_000_000L;
    long[] counts = new long[3];
    for (int j = 0; j < 3; j++) {
      counts[j] = Math.round(n * (p * pi[j] + q * (1 - pi[j])));
    }
    List<FrequencyEstimate> est = rr.estimateFrequencies(counts, 0.05);
    for (int j = 0; j < 3; j++) {
      assertEquals(pi[j], est.get(j).estimate(), 1e-6);
      assertEquals(0.95, est.get(j).interval().level(), 1e-12);
    }
  }

  @Test
  void estimateFrequency_badCount_throwsNamingCount() {
    RandomizedResponse rr = RandomizedResponse.builder().epsilon(1).build();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> rr.estimateFrequency(11, 10, 0.1));
    assertTrue(e.getMessage().startsWith("count"));
  }

  @Test
  void respond_kary_reportsEveryCategory() {
    RandomizedResponse rr =
        RandomizedResponse.builder()
            .epsilon(0.5)
            .categories(5)
            .randomSource(Seeded.source(3))
            .build();
    int[] seen = new int[5];
    for (int i = 0; i < 5000; i++) {
      seen[rr.respond(2)]++;
    }
    // Truth w.p. e^0.5/(e^0.5+4) ≈ 0.29, others ≈ 0.18 each; counts below 600 are > 10 sd away.
    for (int s : seen) {
      assertTrue(s > 600, java.util.Arrays.toString(seen));
    }
    assertTrue(seen[2] > seen[0] && seen[2] > seen[4]);
  }
}
