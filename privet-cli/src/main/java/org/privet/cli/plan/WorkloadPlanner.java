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
 *
 * <p>Statements planned by weight (issue 22, item 4; {@link #allocateWeighted}): query i has no
 * target; its relative error r<sub>i</sub> = error / public magnitude ({@link PublicMagnitude})
 * is again (s<sub>i</sub>/x<sub>i</sub>)<sup>1/p</sup>, s<sub>i</sub> now the budget at which r =
 * 1, and its weight W<sub>i</sub> weighs its term of the objective:
 * <ul>
 *   <li><b>sum-squared</b>: minimise Σ W<sub>i</sub> r<sub>i</sub>² subject to Σ x<sub>i</sub> = X.
 *       Lagrange: ∂/∂x<sub>i</sub> of W<sub>i</sub> s<sub>i</sub><sup>2/p</sup>
 *       x<sub>i</sub><sup>−2/p</sup> is −(2/p) W<sub>i</sub> s<sub>i</sub><sup>2/p</sup>
 *       x<sub>i</sub><sup>−2/p−1</sup> = −λ, so x<sub>i</sub> ∝ (W<sub>i</sub>
 *       s<sub>i</sub><sup>2/p</sup>)<sup>p/(p+2)</sup>: with p = 1 (ε, variance ∝ 1/ε²)
 *       x<sub>i</sub> ∝ W<sub>i</sub><sup>1/3</sup> s<sub>i</sub><sup>2/3</sup>, with p = 2 (ρ,
 *       variance ∝ 1/ρ) x<sub>i</sub> ∝ W<sub>i</sub><sup>1/2</sup> s<sub>i</sub><sup>1/2</sup>. The
 *       objective is convex in x, so this stationary point is the minimum;
 *   <li><b>max-relative</b>: minimise max W<sub>i</sub> r<sub>i</sub>: all W<sub>i</sub>
 *       r<sub>i</sub> equal, x<sub>i</sub> ∝ W<sub>i</sub><sup>p</sup> s<sub>i</sub>.
 * </ul>
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

  /**
   * The allocation of an additive total across statements planned by weight: minimises Σ
   * W<sub>i</sub> r<sub>i</sub>² (sum-squared) or max W<sub>i</sub> r<sub>i</sub> (max-relative)
   * with r<sub>i</sub> = (s<sub>i</sub>/x<sub>i</sub>)<sup>1/p</sup> (see the class comment).
   *
   * @param solved s<sub>i</sub>: the budget at which statement i's relative error is 1
   * @param weights W<sub>i</sub> &gt; 0
   */
  static double[] allocateWeighted(double[] solved, double[] weights, double total, double p,
      Objective objective) {
    if (weights.length != solved.length) {
      throw new IllegalArgumentException("weights: one per statement");
    }
    // Both optima are allocate()'s closed forms for a rescaled s'ᵢ: sum-squared wants xᵢ ∝
    // (Wᵢ^(p/2) sᵢ)^(2/(p+2)) = (Wᵢ sᵢ^(2/p))^(p/(p+2)); max-relative wants xᵢ ∝ Wᵢ^p sᵢ.
    double[] scaled = new double[solved.length];
    for (int i = 0; i < solved.length; i++) {
      if (!(weights[i] > 0) || Double.isInfinite(weights[i])) {
        throw new IllegalArgumentException("weight of statement " + (i + 1)
            + " must be positive and finite");
      }
      scaled[i] = solved[i] * Math.pow(weights[i],
          objective == Objective.MAX_RELATIVE ? p : p / 2);
    }
    return allocate(scaled, total, p, objective);
  }

  /** The weighted objective: max W<sub>i</sub> r<sub>i</sub>, or Σ W<sub>i</sub> r<sub>i</sub>². */
  static double weightedObjective(double[] r, double[] weights, Objective objective) {
    double v = 0;
    for (int i = 0; i < r.length; i++) {
      v = objective == Objective.MAX_RELATIVE ? Math.max(v, weights[i] * r[i])
          : v + weights[i] * r[i] * r[i];
    }
    return v;
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
