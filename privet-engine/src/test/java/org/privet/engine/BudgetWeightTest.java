package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.Budget;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/** Budget weights: validation, the shares on the receipt, and the noise they buy. */
class BudgetWeightTest {
  private static final int GROUPS = 2000;
  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
    List<List<?>> rows = new ArrayList<>();
    for (long u = 0; u < GROUPS; u++) {
      rows.add(Arrays.asList(u, "k" + u, 1.0)); // one unit, one row per group
    }
    TestTables.register(db, "t", rows);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Session session(long seed, BudgetCharger charger) {
    return Session.builder().backend(db).budgetCharger(charger)
        .randomSource(new SeededRandomSource(seed)).build();
  }

  private static Query.Builder base() {
    return Query.from("t").privacyUnit("uid").maxGroupsContributed(1).maxRowsPerGroup(1);
  }

  private static void assertRejected(String parameter, Runnable r) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
    assertTrue(e.getMessage().contains(parameter), e.getMessage());
  }

  @Test
  void budgetWeight_badValues_areRejectedNamingTheParameter() {
    for (double w : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, 1e-7, 2e6}) {
      assertRejected("budgetWeight for 'n'", () -> base().count("n").budgetWeight("n", w));
      assertRejected("selectionBudgetWeight", () -> base().count("n").selectionBudgetWeight(w));
    }
    assertRejected("budgetWeight: no aggregation is named 'm'",
        () -> base().count("n").budgetWeight("m", 2).epsilon(1).build());
    assertRejected("set twice",
        () -> base().count("n").budgetWeight("n", 2).budgetWeight("n", 3));
    assertRejected("selectionBudgetWeight", () -> base().groupBy("g").publicGroups("k1")
        .count("n").selectionBudgetWeight(2).epsilon(1).build());
    assertRejected("selectionBudgetWeight", () -> base().count("n").selectionBudgetWeight(2)
        .epsilonDelta(1, 1e-6).build());
  }

  @Test
  void explain_weights_showEachSharesAndWhy() {
    // The mean's bounds differ from the sum's, so it does not share the sum's measurement.
    Query q = base().count("n").sum("s", "x", 0, 1).mean("m", "x", 0, 2).budgetWeight("n", 3)
        .budgetWeight("m", 1).epsilon(1).build();
    Plan p = session(1, BudgetCharger.unlimited()).explain(q);
    List<MechanismCost> costs = p.mechanisms().stream().map(Plan.PlannedMechanism::cost).toList();
    // Weights: n 3, s 1 (default: one release), m 1 split over its 2 releases → total 5.
    assertEquals(4, costs.size());
    double[] shares = {3 / 5.0, 1 / 5.0, 0.5 / 5, 0.5 / 5};
    for (int i = 0; i < 4; i++) {
      assertEquals(shares[i], costs.get(i).share(), 1e-12, costs.get(i).output());
      assertEquals(shares[i], ((PureDp) costs.get(i).loss()).epsilon(), 1e-9);
    }
    assertTrue(costs.get(0).shareReason().contains("budgetWeight('n') = 3"));
    assertTrue(costs.get(1).shareReason().contains("default"));
    assertTrue(costs.get(2).shareReason().contains("split evenly over its 2 noisy releases"));
    assertTrue(p.render().contains("budget share 60.00%: budgetWeight('n') = 3 (weight 3 of 5)"), p.render());
    assertTrue(((PureDp) p.total()).epsilon() <= 1);
    assertEquals(1, ((PureDp) p.total()).epsilon(), 1e-9);
  }

  @Test
  void run_defaultWeights_areTheTextbookEqualSplitPerOutput() {
    // Issue 22: COUNT half, the AVG half (a quarter each to its centred sum and its count).
    List<ChargeRequest> seen = new ArrayList<>();
    session(2, seen::add).run(base().count("n").mean("m", "x", 0, 1).epsilon(3).build());
    double[] shares = {0.5, 0.25, 0.25};
    for (int i = 0; i < shares.length; i++) {
      MechanismCost c = seen.get(0).mechanisms().get(i);
      assertEquals(shares[i], c.share(), 1e-12);
      assertEquals(3 * shares[i], ((PureDp) c.loss()).epsilon(), 1e-9);
    }
  }

  @Test
  void run_selectionWeight_givesSelectionItsShare() {
    List<ChargeRequest> seen = new ArrayList<>();
    Query q = base().groupBy("g").count("n").selectionBudgetWeight(3).epsilonDelta(2, 1e-6)
        .noise(NoiseKind.LAPLACE).thresholding(Thresholding.LAPLACE).build();
    session(3, seen::add).run(q);
    ChargeRequest c = seen.get(0);
    MechanismCost sel = c.mechanisms().get(0);
    assertEquals("<groups>", sel.output());
    assertEquals(0.75, sel.share(), 1e-12);
    assertTrue(sel.shareReason().contains("selectionBudgetWeight = 3"), sel.shareReason());
    assertEquals(1.5, ((ApproxDp) sel.loss()).epsilon(), 1e-9);
    assertEquals(0.5, ((PureDp) c.mechanisms().get(1).loss()).epsilon(), 1e-9);
    ApproxDp total = (ApproxDp) c.total();
    assertTrue(total.epsilon() <= 2 && total.delta() <= 1e-6, total.toString());
  }

  @Test
  void run_selectionWeightWithGaussianThresholding_isChargedWithinTheBudget() {
    for (Budget b : List.of(Budget.zcdp(0.5, 1e-6), Budget.approx(1, 1e-6))) {
      List<ChargeRequest> seen = new ArrayList<>();
      Query q = base().groupBy("g").count("n").sum("s", "x", 0, 1).budgetWeight("n", 3)
          .selectionBudgetWeight(2).budget(b).noise(NoiseKind.GAUSSIAN)
          .thresholding(Thresholding.GAUSSIAN).build();
      session(8, seen::add).run(q); // the session asserts charge == composed mechanism losses
      ChargeRequest c = seen.get(0);
      assertEquals("<groups>", c.mechanisms().get(0).output());
      assertEquals(2 / 6.0, c.mechanisms().get(0).share(), 1e-12);
      assertEquals(3 / 6.0, c.mechanisms().get(1).share(), 1e-12);
      assertTrue(c.mechanisms().get(0).mechanism().contains("Gaussian")
          || c.mechanisms().get(0).purpose().contains("Gaussian"), c.mechanisms().get(0).toString());
      assertTrue(b.admits(c.total()), c.total() + " within " + b);
    }
  }

  @Test
  void run_weightsUnderEveryBudget_chargeTheCompositionWithinTheBudget() {
    List<Budget> budgets = List.of(Budget.pure(1), Budget.approx(1, 1e-6), Budget.zcdp(0.5));
    for (Budget b : budgets) {
      for (NoiseKind kind : NoiseKind.values()) {
        if (kind == NoiseKind.GAUSSIAN && b.loss() instanceof PureDp) {
          continue;
        }
        List<ChargeRequest> seen = new ArrayList<>();
        Query q = base().count("n").mean("m", "x", 0, 1).quantiles("q", "x", 0, 1, 0.5)
            .budgetWeight("n", 5).budgetWeight("q", 0.25).budget(b).noise(kind).build();
        session(4, seen::add).run(q); // the session asserts charge == composed mechanism losses
        ChargeRequest c = seen.get(0);
        assertTrue(b.admits(c.total()), c.total() + " within " + b);
        double shareSum = c.mechanisms().stream().mapToDouble(MechanismCost::share).sum();
        assertEquals(1, shareSum, 1e-12);
        if (b.loss() instanceof Zcdp z) {
          assertEquals(z.rho(), ((Zcdp) c.total()).rho(), 1e-6 * z.rho());
        } else if (b.loss() instanceof ApproxDp a) {
          assertEquals(a.epsilon(), ((ApproxDp) c.total()).epsilon(), 1e-6);
        }
      }
    }
  }

  @Test
  void explain_gaussianWeights_splitRhoInProportion() {
    Query q = base().count("a").count("b").budgetWeight("b", 3).epsilonDelta(1, 1e-6)
        .noise(NoiseKind.GAUSSIAN).build();
    Plan p = session(5, BudgetCharger.unlimited()).explain(q);
    double rhoA = ((Zcdp) p.mechanisms().get(0).cost().loss()).rho();
    double rhoB = ((Zcdp) p.mechanisms().get(1).cost().loss()).rho();
    assertEquals(3, rhoB / rhoA, 1e-9);
  }

  /**
   * A weight-4 count gets 4× the ε of a weight-1 count, so its Laplace-type noise has a 4× smaller
   * standard deviation. One run over 2000 public groups (exact count 1 each) gives 2000 noise
   * draws per output. Geometric noise has excess kurtosis ≈ 3, so each sample standard deviation
   * has relative standard error ≈ √(5/(4·2000)) = 2.5%, their ratio ≈ 3.5%; the ±15% band is
   * 4.3 standard errors: false-failure probability ≈ 2·10⁻⁵ (normal approximation). Power: noise
   * 30% too small on either output moves the ratio to 2.8 or 5.7, far outside the band (asserted).
   */
  @Test
  void run_heavierWeight_givesProportionallySmallerLaplaceNoise() {
    double ratio = noiseRatio(Budget.pure(1), NoiseKind.LAPLACE, 6);
    assertEquals(4, ratio, 4 * 0.15, "sd(a)/sd(b)");
    assertTrue(Math.abs(ratio - 4 * 0.7) > 4 * 0.15 && Math.abs(ratio - 4 / 0.7) > 4 * 0.15);
  }

  /**
   * Under ρ-zCDP the weight-4 count gets 4× the ρ: σ ∝ 1/√ρ, so a 2× smaller standard deviation.
   * Discrete Gaussian noise (kurtosis ≈ 0): relative standard error of each sample sd ≈
   * 1/√(2·2000) = 1.6%, ratio ≈ 2.2%; the ±10% band is 4.5 standard errors: false-failure
   * probability ≈ 10⁻⁵. Power: 30% too little noise gives 1.4 or 2.86 (asserted outside).
   */
  @Test
  void run_heavierWeight_givesSqrtSmallerGaussianNoise() {
    double ratio = noiseRatio(Budget.zcdp(0.5), NoiseKind.GAUSSIAN, 7);
    assertEquals(2, ratio, 2 * 0.10, "sd(a)/sd(b)");
    assertTrue(Math.abs(ratio - 2 * 0.7) > 2 * 0.10 && Math.abs(ratio - 2 / 0.7) > 2 * 0.10);
  }

  private double noiseRatio(Budget budget, NoiseKind kind, long seed) {
    List<Object> keys = new ArrayList<>();
    for (int u = 0; u < GROUPS; u++) {
      keys.add("k" + u);
    }
    Query q = base().groupBy("g").publicGroups(keys.toArray()).count("a").count("b")
        .budgetWeight("b", 4).budget(budget).noise(kind).build();
    Result r = session(seed, BudgetCharger.unlimited()).run(q);
    double sa = 0;
    double sb = 0;
    for (ResultRow row : r.rows()) {
      sa += Math.pow(row.get("a").value() - 1, 2);
      sb += Math.pow(row.get("b").value() - 1, 2);
    }
    return Math.sqrt(sa / sb);
  }
}
