package org.privet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Reference values are from SciPy 1.x (chi2.sf, beta.ppf, kstwobign.sf). */
class StatisticalHelpersTest {

  @Test
  void regularizedQ_referenceChiSquareTails_match() {
    assertEquals(0.07523524614651217, Gamma.regularizedQ(2.5, 5), 1e-12);
    assertEquals(0.08326451666355042, Gamma.regularizedQ(0.5, 1.5), 1e-12);
    assertEquals(0.03307348091130466, Gamma.regularizedQ(60, 75), 1e-11);
    assertEquals(0.999993388289439, Gamma.regularizedQ(5, 0.25), 1e-12);
  }

  @Test
  void clopperPearson_referenceQuantiles_match() {
    ClopperPearson.Interval i = ClopperPearson.interval(5, 20, 0.95);
    assertEquals(0.08657146910143461, i.lower(), 1e-10);
    assertEquals(0.49104587170795744, i.upper(), 1e-10);
    ClopperPearson.Interval j = ClopperPearson.interval(990, 1000, 0.99);
    assertEquals(0.9787239412463835, j.lower(), 1e-10);
    assertEquals(0.9962732170757473, j.upper(), 1e-10);
    assertEquals(0.0, ClopperPearson.interval(0, 10, 0.9).lower(), 0);
    assertEquals(1.0, ClopperPearson.interval(10, 10, 0.9).upper(), 0);
    assertThrows(IllegalArgumentException.class, () -> ClopperPearson.interval(11, 10, 0.9));
  }

  @Test
  void kolmogorovTail_referenceValues_match() {
    // With n huge, Stephens' correction vanishes and the tail is the Kolmogorov distribution.
    double n = 1e12;
    assertEquals(0.26999967167735456, KolmogorovSmirnovTest.kolmogorovTail(1.0 / Math.sqrt(n), n), 1e-5);
    assertEquals(0.022217962616525127, KolmogorovSmirnovTest.kolmogorovTail(1.5 / Math.sqrt(n), n), 1e-6);
  }

  @Test
  void chiSquare_fairDieAndLoadedDie_acceptAndReject() {
    // Fixed seed; a correct die fails at level 1e-4 with probability 1e-4 over seeds.
    SplittableRandom r = new SplittableRandom(1);
    long[] fair = new long[6];
    long[] loaded = new long[6];
    for (int i = 0; i < 60_000; i++) {
      fair[r.nextInt(6)]++;
      int v = r.nextInt(6);
      loaded[v == 5 && r.nextInt(10) == 0 ? 0 : v]++;
    }
    double[] p = {1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0, 1 / 6.0};
    assertTrue(ChiSquareTest.goodnessOfFit(fair, p).pValue() > 1e-4);
    assertTrue(ChiSquareTest.goodnessOfFit(loaded, p).pValue() < 1e-4);
  }

  @Test
  void kolmogorovSmirnov_uniformAndShifted_acceptAndReject() {
    SplittableRandom r = new SplittableRandom(2);
    double[] a = new double[5000];
    double[] b = new double[5000];
    for (int i = 0; i < a.length; i++) {
      a[i] = r.nextDouble();
      b[i] = r.nextDouble() * 0.95;
    }
    assertTrue(KolmogorovSmirnovTest.oneSample(a, x -> Math.max(0, Math.min(1, x))).pValue() > 1e-4);
    assertTrue(KolmogorovSmirnovTest.oneSample(b, x -> Math.max(0, Math.min(1, x))).pValue() < 1e-4);
    assertTrue(KolmogorovSmirnovTest.twoSample(a, b).pValue() < 1e-4);
  }

  @Test
  void privacyAudit_ratioOfProportions_boundsEpsilonFromBelow() {
    // True ratio 0.5/0.25 = 2, i.e. epsilon ln 2 = 0.693; the bound must be below and not far off.
    double eps = PrivacyAudit.epsilonLowerBound(50_000, 100_000, 25_000, 100_000, 0.99);
    assertTrue(eps < Math.log(2) && eps > 0.6, "eps " + eps);
    assertEquals(0.0, PrivacyAudit.epsilonLowerBound(500, 1000, 500, 1000, 0.99), 0);
  }
}
