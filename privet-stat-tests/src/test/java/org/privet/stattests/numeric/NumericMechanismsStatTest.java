package org.privet.stattests.numeric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.mechanisms.DiscreteGaussianMechanism;
import org.privet.mechanisms.GaussianMechanism;
import org.privet.mechanisms.GeometricMechanism;
import org.privet.mechanisms.LaplaceMechanism;
import org.privet.testing.KolmogorovSmirnovTest;
import org.privet.testing.SeededRandomSource;

/**
 * Distribution tests of the numeric mechanisms' releases against the law they claim, with power
 * checks (a mechanism with 30% less noise, built by scaling the sensitivity or ε, is rejected by
 * the same test against the claimed law). Fixed seeds; each test rejects at p &lt; {@value
 * #ALPHA}, so over seeds a correct mechanism fails each assertion with probability at most
 * {@value #ALPHA} (KS against the grid-valued law is conservative).
 */
class NumericMechanismsStatTest {
  static final double ALPHA = 1e-4;
  static final int N = 50_000;

  @Test
  void geometricMechanism_release_matchesDiscreteLaplaceOfScaleSensitivityOverEpsilon() {
    GeometricMechanism m = GeometricMechanism.builder().epsilon(0.5).sensitivity(2)
        .randomSource(new SeededRandomSource(201)).build();
    GeometricMechanism small = GeometricMechanism.builder().epsilon(0.5 / 0.7).sensitivity(2)
        .randomSource(new SeededRandomSource(202)).build();
    long[] a = new long[N];
    long[] b = new long[N];
    for (int i = 0; i < N; i++) {
      a[i] = m.release(7) - 7;
      b[i] = small.release(7) - 7;
    }
    assertTrue(Laws.chiSquarePValue(a, Laws.discreteLaplace(4.0), -40, 40) >= ALPHA);
    assertTrue(Laws.chiSquarePValue(b, Laws.discreteLaplace(4.0), -40, 40) < ALPHA);
  }

  @Test
  void discreteGaussianMechanism_release_matchesDiscreteGaussianOfSigma() {
    DiscreteGaussianMechanism m = DiscreteGaussianMechanism.builder().sigma(3)
        .randomSource(new SeededRandomSource(203)).build();
    DiscreteGaussianMechanism small = DiscreteGaussianMechanism.builder().sigma(2.1)
        .randomSource(new SeededRandomSource(204)).build();
    long[] a = new long[N];
    long[] b = new long[N];
    for (int i = 0; i < N; i++) {
      a[i] = m.release(-5) + 5;
      b[i] = small.release(-5) + 5;
    }
    assertTrue(Laws.chiSquarePValue(a, Laws.discreteGaussian(9), -15, 15) >= ALPHA);
    assertTrue(Laws.chiSquarePValue(b, Laws.discreteGaussian(9), -15, 15) < ALPHA);
  }

  @Test
  void laplaceMechanism_release_matchesLaplaceOfScaleSensitivityOverEpsilon() {
    LaplaceMechanism m = LaplaceMechanism.builder().epsilon(0.8).sensitivity(2)
        .randomSource(new SeededRandomSource(205)).build();
    LaplaceMechanism small = LaplaceMechanism.builder().epsilon(0.8).sensitivity(1.4)
        .randomSource(new SeededRandomSource(206)).build();
    double b = 2 / 0.8;
    double[] a = new double[N];
    double[] c = new double[N];
    for (int i = 0; i < N; i++) {
      a[i] = m.release(0.0);
      c[i] = small.release(0.0);
    }
    assertTrue(KolmogorovSmirnovTest.oneSample(a, x -> Laws.laplaceCdf(x, b)).pValue() >= ALPHA);
    assertTrue(KolmogorovSmirnovTest.oneSample(c, x -> Laws.laplaceCdf(x, b)).pValue() < ALPHA);
  }

  @Test
  void gaussianMechanism_release_matchesNormalOfAnalyticSigma() {
    GaussianMechanism m = GaussianMechanism.builder().epsilon(1).delta(1e-5)
        .randomSource(new SeededRandomSource(207)).build();
    GaussianMechanism small = GaussianMechanism.builder().epsilon(1).delta(1e-5).sensitivity(0.7)
        .randomSource(new SeededRandomSource(208)).build();
    double sigma = GaussianMechanism.analyticSigma(1, 1e-5, 1);
    double[] a = new double[N];
    double[] c = new double[N];
    for (int i = 0; i < N; i++) {
      a[i] = m.release(0.0);
      c[i] = small.release(0.0);
    }
    assertTrue(KolmogorovSmirnovTest.oneSample(a, x -> Laws.normalCdf(x, sigma)).pValue() >= ALPHA);
    assertTrue(KolmogorovSmirnovTest.oneSample(c, x -> Laws.normalCdf(x, sigma)).pValue() < ALPHA);
  }

  @Test
  void laplaceVector_release_eachCoordinateMatchesLaplace() {
    LaplaceMechanism m = LaplaceMechanism.builder().epsilon(1).sensitivity(1)
        .randomSource(new SeededRandomSource(209)).build();
    double[][] cols = new double[4][N / 4];
    for (int i = 0; i < N / 4; i++) {
      double[] v = m.release(new double[] {0, 10, -3, 1e6});
      cols[0][i] = v[0];
      cols[1][i] = v[1] - 10;
      cols[2][i] = v[2] + 3;
      cols[3][i] = v[3] - 1e6;
    }
    for (double[] col : cols) { // 4 assertions: false failure at most 4e-4
      assertTrue(KolmogorovSmirnovTest.oneSample(col, x -> Laws.laplaceCdf(x, 1)).pValue() >= ALPHA);
    }
  }

  @Test
  void release_inputsZeroAndOne_sameGridAndShiftedLaw() {
    // Grid test: outputs for inputs 0 and 1 lie on one power-of-two grid, and the law for input 1
    // is the law for input 0 shifted by 1 (two-sample KS; false failure at most 2e-4).
    LaplaceMechanism lap = LaplaceMechanism.builder().epsilon(1).randomSource(new SeededRandomSource(210)).build();
    GaussianMechanism gau = GaussianMechanism.builder().epsilon(1).delta(1e-6)
        .randomSource(new SeededRandomSource(211)).build();
    double lg = lap.granularity();
    double gg = gau.granularity();
    assertEquals(1.0, Math.scalb(lg, -Math.getExponent(lg)), 0, "Laplace grid is a power of two");
    assertEquals(1.0, Math.scalb(gg, -Math.getExponent(gg)), 0, "Gaussian grid is a power of two");
    double[] l0 = new double[20_000];
    double[] l1 = new double[20_000];
    double[] g0 = new double[20_000];
    double[] g1 = new double[20_000];
    for (int i = 0; i < l0.length; i++) {
      l0[i] = lap.release(0.0);
      l1[i] = lap.release(1.0);
      g0[i] = gau.release(0.0);
      g1[i] = gau.release(1.0);
      for (double[] pair : new double[][] {{l0[i], lg}, {l1[i], lg}, {g0[i], gg}, {g1[i], gg}}) {
        double steps = pair[0] / pair[1];
        assertEquals(Math.rint(steps), steps, 0, "output off the grid");
      }
      l1[i] -= 1;
      g1[i] -= 1;
    }
    assertTrue(KolmogorovSmirnovTest.twoSample(l0, l1).pValue() >= ALPHA);
    assertTrue(KolmogorovSmirnovTest.twoSample(g0, g1).pValue() >= ALPHA);
  }
}
