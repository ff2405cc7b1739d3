package org.privet.mechanisms;

import org.privet.random.RandomSource;

/**
 * The permute-and-flip mechanism (McKenna &amp; Sheldon 2020, "Permute-and-Flip: A new mechanism
 * for differentially private selection", NeurIPS 2020, Algorithm 1), sampled exactly.
 *
 * <p>Candidates are visited in a uniformly random order; candidate r is returned with probability
 * exp(ε·(u<sub>r</sub> − u*)/(2Δu)) (u* = max utility), otherwise the next one is tried. It is ε-DP
 * (McKenna &amp; Sheldon Thm. 1) and never less accurate in expectation than the exponential
 * mechanism (their Thm. 2). It equals report-noisy-max with exponential noise of scale 2Δu/ε
 * (Ding, Kifer, Neel, Zhang 2021, "The permute-and-flip mechanism is identical to
 * report-noisy-max with exponential noise"); with {@linkplain SelectionBuilder#monotone(boolean)
 * monotone} utilities the scale Δu/ε, i.e. exp(ε·(u<sub>r</sub> − u*)/Δu), is also ε-DP by the
 * report-noisy-max argument (Dwork &amp; Roth 2014, Claim 3.9).
 *
 * <p>Accuracy: with probability at least 1 − β the output's utility is at least u* − b with b =
 * {@link #utilityErrorBound}, the exponential mechanism's bound (each candidate with gap ≥ g is
 * accepted, when visited, with probability at most exp(−εg/(2Δu)), so a union bound gives the same
 * tail).
 *
 * <p>Exact: utilities go to an integer grid (spacing h ≤ Δu/2<sup>10</sup>) and every coin is an
 * exact Bernoulli(exp(−γ)) of rational γ; see {@code docs/proofs/exponential-mechanism.md}.
 * At most k coins per release. Immutable and thread-safe (if its {@link RandomSource} is).
 */
public final class PermuteAndFlip extends SelectionMechanism {


  private PermuteAndFlip(SelectionScale scale) {
    super(scale);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Returns the 0-based index of the chosen candidate.
   *
   * @param utilities one finite utility per candidate (higher is better)
   * @throws IllegalArgumentException if {@code utilities} is empty or holds NaN or an infinity
   */
  @Override
  public int select(double[] utilities) {
    return scale.weights(utilities).permuteAndFlip(scale.random);
  }

  /**
   * A bound b with P[u(output) ≥ max u − b] ≥ 1 − β: (c·Δ'/ε̃)·ln(k/β) + h as for
   * {@link ExponentialMechanism#utilityErrorBound}.
   */
  @Override
  public double utilityErrorBound(int candidates, double beta) {
    return scale.exponentialErrorBound(candidates, beta);
  }

  /** Validating builder; ε and the sensitivity are required. */
  public static final class Builder extends SelectionBuilder<Builder> {
    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** @throws IllegalArgumentException if ε or the sensitivity was not set */
    public PermuteAndFlip build() {
      return new PermuteAndFlip(scale());
    }
  }
}
