package org.privet.cli.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.privet.cli.plan.WorkloadPlanner.Objective;

/** Allocation on synthetic workloads with a known optimum (issue 16, item 2). */
class WorkloadPlannerTest {
  @Test
  void allocate_equalQueries_equalSplit() {
    for (Objective o : Objective.values()) {
      for (double p : new double[] {1, 2}) {
        double[] x = WorkloadPlanner.allocate(new double[] {0.3, 0.3, 0.3, 0.3}, 1.0, p, o);
        for (double v : x) {
          assertEquals(0.25, v, 1e-9);
        }
      }
    }
  }

  /**
   * Laplace (p = 1), max-relative: a query with twice the target error needs half the budget
   * alone (s = c/t), so it gets the analytic share 1/3 against 2/3, and both end at the same
   * relative error.
   */
  @Test
  void allocate_twiceTheTargetError_getsTheAnalyticShare() {
    double c = 0.2; // budget at which a unit target is met
    double[] solved = {c / 1.0, c / 2.0}; // target 1 and target 2
    double[] x = WorkloadPlanner.allocate(solved, 1.0, 1, Objective.MAX_RELATIVE);
    assertEquals(2.0 / 3, x[0], 1e-9);
    assertEquals(1.0 / 3, x[1], 1e-9);
    assertEquals(WorkloadPlanner.predictedRatio(solved[0], x[0], 1),
        WorkloadPlanner.predictedRatio(solved[1], x[1], 1), 1e-12);
    // Gaussian (p = 2): s ∝ 1/t², shares 4/5 and 1/5.
    double[] g = WorkloadPlanner.allocate(new double[] {c, c / 4}, 1.0, 2, Objective.MAX_RELATIVE);
    assertEquals(0.8, g[0], 1e-9);
    assertEquals(0.2, g[1], 1e-9);
  }

  /** sum-squared: the closed form beats every other split on a grid (the known optimum). */
  @Test
  void allocate_sumSquared_isTheOptimumOnAGrid() {
    double[] s = {0.5, 0.1, 0.02};
    for (double p : new double[] {1, 2}) {
      double[] x = WorkloadPlanner.allocate(s, 1.0, p, Objective.SUM_SQUARED);
      double best = value(s, x, p);
      for (double a = 0.01; a < 1; a += 0.01) {
        for (double b = 0.01; a + b < 1; b += 0.01) {
          double v = value(s, new double[] {a, b, 1 - a - b}, p);
          assertTrue(v >= best * (1 - 1e-9), "split " + a + "," + b + " beats the closed form");
        }
      }
    }
  }

  /** max-relative: the closed form equalises and beats the equal split. */
  @Test
  void allocate_maxRelative_beatsEqualSplit() {
    double[] s = {0.5, 0.1, 0.02};
    double[] x = WorkloadPlanner.allocate(s, 1.0, 1, Objective.MAX_RELATIVE);
    double planned = WorkloadPlanner.objective(ratios(s, x, 1), Objective.MAX_RELATIVE);
    double equal = WorkloadPlanner.objective(ratios(s, new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3}, 1),
        Objective.MAX_RELATIVE);
    assertEquals(0.62, planned, 1e-9);
    assertTrue(planned < equal);
  }

  /**
   * Planned by weight, sum-squared: the closed form minimises Σ Wᵢ (sᵢ/xᵢ)^(2/p) on a fine grid of
   * the simplex (a brute-force search done here, independent of the Lagrange solution), for ε (p =
   * 1) and ρ (p = 2), with unequal weights and solved budgets.
   */
  @Test
  void allocateWeighted_sumSquared_matchesBruteForceOptimum() {
    double[] s = {0.5, 0.1, 0.02};
    double[] w = {1, 8, 3};
    for (double p : new double[] {1, 2}) {
      double[] x = WorkloadPlanner.allocateWeighted(s, w, 1.0, p, Objective.SUM_SQUARED);
      double bestValue = Double.POSITIVE_INFINITY;
      double[] best = null;
      for (int a = 1; a < 1000; a++) {
        for (int b = 1; a + b < 1000; b++) {
          double[] g = {a / 1000.0, b / 1000.0, (1000 - a - b) / 1000.0};
          double v = 0;
          for (int i = 0; i < 3; i++) {
            v += w[i] * Math.pow(s[i] / g[i], 2 / p);
          }
          if (v < bestValue) {
            bestValue = v;
            best = g;
          }
        }
      }
      for (int i = 0; i < 3; i++) {
        assertEquals(best[i], x[i], 1.5e-3, "p=" + p + " share " + i);
      }
      double closed = WorkloadPlanner.weightedObjective(ratios(s, x, p), w, Objective.SUM_SQUARED);
      assertTrue(closed <= bestValue * (1 + 1e-9), "p=" + p + ": " + closed + " > " + bestValue);
    }
  }

  /** A larger weight moves budget toward its statement; equal weights leave allocate() as is. */
  @Test
  void allocateWeighted_largerWeight_getsMoreBudget() {
    double[] s = {0.2, 0.2};
    for (Objective o : Objective.values()) {
      for (double p : new double[] {1, 2}) {
        double[] even = WorkloadPlanner.allocateWeighted(s, new double[] {1, 1}, 1, p, o);
        double[] heavy = WorkloadPlanner.allocateWeighted(s, new double[] {1, 4}, 1, p, o);
        assertEquals(0.5, even[1], 1e-9);
        assertTrue(heavy[1] > 0.55, o + " p=" + p + ": " + heavy[1]);
      }
    }
    // max-relative equalises W·r: W = (1, 4), p = 1 gives x ∝ (1, 4), so shares 0.2 and 0.8.
    double[] m = WorkloadPlanner.allocateWeighted(s, new double[] {1, 4}, 1, 1,
        Objective.MAX_RELATIVE);
    assertEquals(0.8, m[1], 1e-9);
  }

  @Test
  void allocate_badInput_refusedNamingTheParameter() {
    assertThrows(IllegalArgumentException.class,
        () -> WorkloadPlanner.allocate(new double[0], 1, 1, Objective.MAX_RELATIVE));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> WorkloadPlanner.allocate(new double[] {1}, -1, 1, Objective.MAX_RELATIVE));
    assertTrue(e.getMessage().contains("budget"));
    assertThrows(IllegalArgumentException.class, () -> Objective.parse("median"));
  }

  private static double value(double[] s, double[] x, double p) {
    return WorkloadPlanner.objective(ratios(s, x, p), Objective.SUM_SQUARED);
  }

  private static double[] ratios(double[] s, double[] x, double p) {
    double[] r = new double[s.length];
    for (int i = 0; i < s.length; i++) {
      r[i] = WorkloadPlanner.predictedRatio(s[i], x[i], p);
    }
    return r;
  }
}
