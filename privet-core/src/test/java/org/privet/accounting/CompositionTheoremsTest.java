package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.privet.accounting.pld.PldAccountant;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompositionTheoremsTest {

  @Test
  void advancedEpsilon_homogeneous_matchesDrvFormula() {
    double eps = 0.1;
    int k = 1000;
    double dp = 1e-6;
    double formula = Math.sqrt(2 * k * Math.log(1 / dp)) * eps + k * eps * (Math.exp(eps) - 1);
    double got = AdvancedCompositionAccountant.epsilon(eps, k, dp);
    assertTrue(got >= formula && got <= formula * (1 + 1e-12), got + " vs " + formula);
  }

  @Test
  void advancedAccountant_manyEvents_usesFormulaWithRemainingDelta() {
    List<PrivacyLoss> events = Collections.nCopies(500, new ApproxDp(0.05, 1e-9));
    ApproxDp r = new AdvancedCompositionAccountant().compose(events, 1e-5);
    double formula = AdvancedCompositionAccountant.epsilon(0.05, 500, 1e-5 - 500 * 1e-9);
    assertEquals(formula, r.epsilon(), 1e-9);
    assertEquals(1e-5, r.delta());
    assertTrue(r.epsilon() < 25.0);
  }

  @Test
  void advancedAccountant_fewEvents_fallsBackToBasic() {
    ApproxDp r = new AdvancedCompositionAccountant().compose(List.of(new PureDp(1), new PureDp(1)), 1e-6);
    assertEquals(2.0, r.epsilon());
    assertEquals(0.0, r.delta());
  }

  @Test
  void optimalHomogeneous_singleEvent_isBelowItsEpsilon() {
    // One ε-DP event at δ > 0: slightly below ε (δ buys a little); at δ = 0 exactly ε.
    double e = OptimalComposition.homogeneousEpsilon(1.0, 0, 1, 1e-3);
    assertTrue(e < 1.0 && e > 0.99, "eps " + e);
  }

  @Test
  void optimalHomogeneous_matchesKovBreakpoints() {
    // KOV Thm 3.3 at i = 1: ((k − 2)ε, δ_1) with δ_1 = (e^{kε} − e^{(k−2)ε})/(1+e^ε)^k.
    int k = 10;
    double eps0 = 0.5;
    double d1 = (Math.exp(k * eps0) - Math.exp((k - 2) * eps0)) / Math.pow(1 + Math.exp(eps0), k);
    double e = OptimalComposition.homogeneousEpsilon(eps0, 0, k, d1);
    assertEquals((k - 2) * eps0, e, 1e-8);
  }

  @Test
  void optimalHeterogeneous_bracketContainsHomogeneousAndIsNarrow() {
    List<ApproxDp> events = Collections.nCopies(40, new ApproxDp(0.1, 0));
    double exact = OptimalComposition.homogeneousEpsilon(0.1, 0, 40, 1e-6);
    double[] b = OptimalComposition.heterogeneousBracket(events, 1e-6, 0.003);
    assertTrue(b[0] <= exact * (1 + 1e-9) && exact <= b[1] * (1 + 1e-9), b[0] + " " + exact + " " + b[1]);
    assertTrue(b[1] - b[0] < 0.2);
  }

  @Test
  void optimalAccountant_heterogeneous_betweenExactLowerAndBasic() {
    List<PrivacyLoss> events = new java.util.ArrayList<>();
    for (int i = 0; i < 30; i++) {
      events.add(new PureDp(0.05 + 0.01 * (i % 5)));
    }
    double opt = new OptimalCompositionAccountant().compose(events, 1e-6).epsilon();
    double basic = new BasicAccountant().compose(events, 0).epsilon();
    double pld = new PldAccountant().compose(events, 1e-6).epsilon();
    assertTrue(opt <= basic);
    assertTrue(Math.abs(opt - pld) < 0.02 * opt, "optimal " + opt + " pld " + pld);
  }

  @Test
  void groupPrivacy_allMeasures_scaleAsStated() {
    assertEquals(3.0, GroupPrivacy.of(new PureDp(1.0), 3).epsilon(), 1e-12);
    ApproxDp a = GroupPrivacy.of(new ApproxDp(0.5, 1e-6), 3);
    assertEquals(1.5, a.epsilon(), 1e-12);
    assertEquals(3 * Math.exp(1.0) * 1e-6, a.delta(), 1e-15);
    assertEquals(0.9, GroupPrivacy.of(new Zcdp(0.1), 3).rho(), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> GroupPrivacy.of(new ApproxDp(5, 0.1), 10));
    assertThrows(IllegalArgumentException.class, () -> GroupPrivacy.of(new PureDp(1), 0));
  }

  @Test
  void parallelComposition_disjointParts_takesMaximum() {
    assertEquals(new PureDp(0.7), ParallelComposition.of(List.of(new PureDp(0.3), new PureDp(0.7))));
    assertEquals(new ApproxDp(0.7, 1e-6),
        ParallelComposition.of(List.of(new PureDp(0.7), new ApproxDp(0.2, 1e-6))));
    assertEquals(new Zcdp(0.5), ParallelComposition.of(List.of(new Zcdp(0.5), new Zcdp(0.1))));
    assertThrows(IllegalArgumentException.class,
        () -> ParallelComposition.of(List.of(new Zcdp(0.5), new PureDp(0.1))));
  }

  @Test
  void subsampling_poisson_tightBeatsSimpleAndMatchesFormula() {
    ApproxDp base = new ApproxDp(1.0, 1e-6);
    ApproxDp tight = Subsampling.poisson(base, 0.01);
    ApproxDp simple = Subsampling.simpleBound(base, 0.01);
    assertEquals(Math.log1p(0.01 * Math.expm1(1.0)), tight.epsilon(), 1e-12);
    assertEquals(1e-8, tight.delta(), 1e-20);
    assertTrue(tight.epsilon() < simple.epsilon());
    assertTrue(simple.epsilon() <= 2 * 0.01 * 1.0);
    ApproxDp wor = Subsampling.withoutReplacement(base, 100, 10_000);
    assertEquals(tight.epsilon(), wor.epsilon(), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> Subsampling.poisson(base, 0));
  }

  @Test
  void pld_subsampledPure_betweenAmplifiedExactAndBasic() {
    List<PrivacyLoss> events = Collections.nCopies(200, new PoissonSubsampled(new PureDp(1.0), 0.05));
    double pld = new PldAccountant().compose(events, 1e-6).epsilon();
    double basic = new BasicAccountant().compose(events, 1e-6).epsilon();
    double amplified = Subsampling.poisson(new ApproxDp(1.0, 0), 0.05).epsilon();
    double exact = OptimalComposition.homogeneousEpsilon(amplified, 0, 200, 1e-6);
    // The subsampled pair is dominated by RR(ε'), so the PLD is at most the optimum for ε' (plus grid).
    assertTrue(pld <= exact * 1.01, "pld " + pld + " exact(ε') " + exact);
    assertTrue(pld < basic);
  }

  @Test
  void pld_discreteMechanisms_boundedByTheirPureEpsilon() {
    double dl = new PldAccountant().compose(Collections.nCopies(50, new MechanismLoss.DiscreteLaplace(10, 1)), 1e-6).epsilon();
    double dlExactPure = OptimalComposition.homogeneousEpsilon(0.1, 0, 50, 1e-6);
    assertTrue(dl <= dlExactPure * 1.01, "dlap " + dl + " vs " + dlExactPure);
    double dg = new PldAccountant().compose(Collections.nCopies(50, new MechanismLoss.DiscreteGaussian(10, 1)), 1e-6).epsilon();
    double g = new MechanismLoss.Gaussian(10 / Math.sqrt(50)).epsilon(1e-6);
    // The discrete Gaussian is close to (and for integer shifts no worse than ~) the continuous one.
    assertTrue(Math.abs(dg - g) < 0.02 * g, "dgauss " + dg + " gauss " + g);
    double rr = new PldAccountant().compose(Collections.nCopies(50, new MechanismLoss.RandomizedResponse(0.1, 4)), 1e-6).epsilon();
    assertTrue(rr <= dlExactPure * 1.01);
  }

  @Test
  void noiseCalibration_targetEpsilon_meetsTargetTightly() {
    double sigma = NoiseCalibration.noiseMultiplier(new ZcdpAccountant(),
        s -> Collections.nCopies(100, new MechanismLoss.Gaussian(s)), 1.0, 1e-6, 1e-4);
    double eps = new ZcdpAccountant().compose(Collections.nCopies(100, new MechanismLoss.Gaussian(sigma)), 1e-6).epsilon();
    assertTrue(eps <= 1.0 && eps > 0.999, "eps " + eps);
  }

  @Test
  void budgetSplit_partsComposeWithinTotal() {
    double[] e = BudgetSplit.epsilons(1.0, new double[] {1, 2, 3});
    assertTrue(e[0] + e[1] + e[2] <= 1.0);
    assertEquals(0.5, e[2], 1e-12);
    double[] sig = BudgetSplit.gaussianNoiseMultipliers(new ZcdpAccountant(), new ApproxDp(1.0, 1e-6), new double[] {1, 1, 2});
    List<PrivacyLoss> ev = List.of(new MechanismLoss.Gaussian(sig[0]), new MechanismLoss.Gaussian(sig[1]), new MechanismLoss.Gaussian(sig[2]));
    assertTrue(new ZcdpAccountant().compose(ev, 1e-6).epsilon() <= 1.0);
    assertTrue(sig[2] < sig[0]);
    assertThrows(IllegalArgumentException.class, () -> BudgetSplit.epsilons(1.0, new double[] {1, -1}));
  }

  @Test
  void values_invalidParameters_throwNamingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new MechanismLoss.Gaussian(0)).getMessage().contains("noiseMultiplier"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new PoissonSubsampled(new PureDp(1), 1.5)).getMessage().contains("samplingRate"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new RdpCurve(new double[] {0.5}, new double[] {1})).getMessage().contains("orders"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new MechanismLoss.RandomizedResponse(1, 1)).getMessage().contains("categories"));
  }
}
