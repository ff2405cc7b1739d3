package org.privet.mechanisms;

import org.privet.accounting.PureDp;

/**
 * A pure ε-DP mechanism that selects one of k candidates from their utilities (sensitivity Δu):
 * {@link ExponentialMechanism}, {@link PermuteAndFlip} or {@link ReportNoisyMax}. All three sample
 * exactly on a power-of-two utility grid; see {@code docs/proofs/exponential-mechanism.md}.
 */
public abstract sealed class SelectionMechanism
    permits ExponentialMechanism, PermuteAndFlip, ReportNoisyMax {

  final SelectionScale scale;

  SelectionMechanism(SelectionScale scale) {
    this.scale = scale;
  }

  /**
   * Returns the 0-based index of the chosen candidate.
   *
   * @param utilities one finite utility per candidate (higher is better)
   * @throws IllegalArgumentException if {@code utilities} is empty or holds NaN or an infinity
   */
  public abstract int select(double[] utilities);

  /**
   * A bound b such that, with probability at least 1 − β, the chosen candidate's utility is at
   * least max<sub>i</sub> u<sub>i</sub> − b.
   *
   * @param candidates the number of candidates k ≥ 1
   * @param beta the failure probability, in (0, 1)
   */
  public abstract double utilityErrorBound(int candidates, double beta);

  /** The privacy loss of one {@code select} call: pure ε-DP. */
  public PureDp privacyLoss() {
    return new PureDp(scale.epsilon);
  }

  /** The ε given to the builder (the mechanism uses a dyadic ε̃ ≤ ε). */
  public double epsilon() {
    return scale.epsilon;
  }

  /** The utility sensitivity Δu. */
  public double sensitivity() {
    return scale.sensitivity;
  }

  /** Whether the monotone form is used. */
  public boolean monotone() {
    return scale.monotone;
  }
}
