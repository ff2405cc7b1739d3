package org.privet.accounting;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a total budget over several releases in proportion to weights. Granted budgets round
 * down, so the parts never compose to more than the total: every share is {@link #share}, the
 * proportional part scaled by {@link #SHRINK}, which leaves room for the accountants' upward
 * rounding when the parts are composed again (the engine's split, {@code Compiler.Split}, uses the
 * same rule).
 *
 * <ul>
 *   <li>{@link #epsilons}: basic composition, ε<sub>i</sub> = ε·w<sub>i</sub>/Σw;
 *   <li>{@link #rhos}: zCDP, ρ<sub>i</sub> = ρ·w<sub>i</sub>/Σw;
 *   <li>{@link #gaussianNoiseMultipliers}: for Gaussian releases under any accountant, σ<sub>i</sub>
 *       = s/√w<sub>i</sub> (so that ρ<sub>i</sub> ∝ w<sub>i</sub>) with the common s solved by
 *       {@link NoiseCalibration} so that the releases compose to the total (ε, δ).
 * </ul>
 */
public final class BudgetSplit {
  /**
   * Every share is scaled by 1 − 10<sup>−12</sup>: far more than the few ulps by which the
   * upward-rounded composition of n ≤ 10<sup>6</sup> shares can exceed their exact sum.
   */
  public static final double SHRINK = 1 - 1e-12;

  private BudgetSplit() {}

  /**
   * The share of a total for one part of weight {@code weight} out of {@code totalWeight} (the sum
   * of all parts' weights): total · weight / totalWeight · {@link #SHRINK}, evaluated in that order.
   */
  public static double share(double total, double weight, double totalWeight) {
    return total * weight / totalWeight * SHRINK;
  }

  public static double[] epsilons(double totalEpsilon, double[] weights) {
    PrivacyLoss.requireNonNegativeFinite("totalEpsilon", totalEpsilon);
    return shares(totalEpsilon, weights);
  }

  public static double[] rhos(double totalRho, double[] weights) {
    PrivacyLoss.requireNonNegativeFinite("totalRho", totalRho);
    return shares(totalRho, weights);
  }

  /** Noise multipliers of Gaussian releases that together cost at most {@code total}. */
  public static double[] gaussianNoiseMultipliers(Accountant accountant, ApproxDp total, double[] weights) {
    double sum = weightSum(weights);
    double[] w = weights.clone();
    double s =
        NoiseCalibration.noiseMultiplier(
            accountant,
            scale -> {
              List<PrivacyLoss> events = new ArrayList<>();
              for (double wi : w) {
                events.add(new MechanismLoss.Gaussian(scale / Math.sqrt(wi / sum)));
              }
              return events;
            },
            total.epsilon(),
            total.delta(),
            1e-4);
    double[] out = new double[w.length];
    for (int i = 0; i < w.length; i++) {
      out[i] = UpwardRounding.up(s / Math.sqrt(w[i] / sum));
    }
    return out;
  }

  private static double[] shares(double total, double[] weights) {
    double sum = weightSum(weights);
    double[] out = new double[weights.length];
    for (int i = 0; i < weights.length; i++) {
      out[i] = share(total, weights[i], sum);
    }
    return out;
  }

  private static double weightSum(double[] weights) {
    if (weights.length == 0) {
      throw new IllegalArgumentException("weights must not be empty");
    }
    double sum = 0;
    for (double w : weights) {
      if (!(w > 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException("weights must be finite and positive, was " + w);
      }
      sum += w;
    }
    return sum;
  }
}
