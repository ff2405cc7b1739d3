package org.privet.cli.plan;

/**
 * Closed-form budget allocation across a workload (issue 16, item 2).
 *
 * <p>Model. Query i, run alone, meets its (weighted) targets exactly at budget s<sub>i</sub>
 * (its solved ε or ρ, times w<sub>i</sub><sup>p</sup> for an importance weight w<sub>i</sub>).
 * Every error statement scales as x<sup>−1/p</sup> in the query's budget x (p = 1 for ε and the
 * geometric mechanism, p = 2 for ρ and the discrete Gaussian: standard deviations ∝ 1/ε and
 * 1/√ρ), so query i's relative error (error / target) at x<sub>i</sub> is r<sub>i</sub> =
 * (s<sub>i</sub>/x<sub>i</sub>)<sup>1/p</sup>. With an additive total Σx<sub>i</sub> = X (basic
 * composition of ε, or zCDP composition of ρ):
 * <ul>
 *   <li><b>max-relative</b> (minimise max r<sub>i</sub>): all r<sub>i</sub> equal, x<sub>i</sub> =
 *       X·s<sub>i</sub>/Σs, r = (Σs/X)<sup>1/p</sup>;
 *   <li><b>sum-squared</b> (minimise Σr<sub>i</sub>²): Lagrange's condition
 *       s<sub>i</sub><sup>2/p</sup>x<sub>i</sub><sup>−2/p−1</sup> = const gives x<sub>i</sub> ∝
 *       s<sub>i</sub><sup>2/(p+2)</sup>.
 * </ul>
 * The planner then checks the result with each query's exact accuracy statements (grid effects
 * included) and, for ε with δ &gt; 0, scales the allocation up as far as PLD composition of all
 * releases allows.
 */
final class WorkloadPlanner {
  private WorkloadPlanner() {}

  /** What the planner minimises. */
  enum Objective {
    MAX_RELATIVE,
    SUM_SQUARED;

    static Objective parse(String s) {
      return switch (s) {
        case "max-relative" -> MAX_RELATIVE;
        case "sum-squared" -> SUM_SQUARED;
        default -> throw new IllegalArgumentException(
            "objective must be max-relative or sum-squared, was " + s);
      };
    }
  }

  /**
   * The allocation of an additive total.
   *
   * @param solved s<sub>i</sub>: the budget at which query i alone meets its weighted targets
   * @param total X, the total to split (Σ of the result)
   * @param p 1 for ε, 2 for ρ
   */
  static double[] allocate(double[] solved, double total, double p, Objective objective) {
    if (solved.length == 0) {
      throw new IllegalArgumentException("workload: at least one query is required");
    }
    if (!(total > 0) || Double.isInfinite(total)) {
      throw new IllegalArgumentException("budget must be positive and finite, was " + total);
    }
    double exponent = objective == Objective.MAX_RELATIVE ? 1 : 2 / (p + 2);
    double[] w = new double[solved.length];
    double sum = 0;
    for (int i = 0; i < solved.length; i++) {
      if (!(solved[i] > 0) || Double.isInfinite(solved[i])) {
        throw new IllegalArgumentException("solved budget of query " + (i + 1) + " must be positive");
      }
      w[i] = Math.pow(solved[i], exponent);
      sum += w[i];
    }
    double[] x = new double[solved.length];
    for (int i = 0; i < solved.length; i++) {
      // Round each share down a little so the composed total never exceeds the budget.
      x[i] = total * (w[i] / sum) * (1 - 1e-12);
    }
    return x;
  }

  /** The predicted relative error (s/x)<sup>1/p</sup> of a query with solved s at budget x. */
  static double predictedRatio(double solved, double x, double p) {
    return Math.pow(solved / x, 1 / p);
  }

  /** The objective's value for relative errors r. */
  static double objective(double[] r, Objective objective) {
    double v = 0;
    for (double x : r) {
      v = objective == Objective.MAX_RELATIVE ? Math.max(v, x) : v + x * x;
    }
    return v;
  }
}
