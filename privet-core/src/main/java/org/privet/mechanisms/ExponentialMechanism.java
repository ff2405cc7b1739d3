package org.privet.mechanisms;

import org.privet.random.RandomSource;

/**
 * The exponential mechanism over a finite candidate set (McSherry &amp; Talwar 2007, "Mechanism
 * Design via Differential Privacy"; Dwork &amp; Roth 2014, Thm. 3.10 and 3.11), sampled exactly.
 *
 * <p>Given utilities u<sub>1</sub>, …, u<sub>k</sub> whose sensitivity (the largest change of any
 * one u<sub>i</sub> between neighbouring datasets) is at most Δu, {@link #select} returns i with
 * probability proportional to exp(ε·u<sub>i</sub>/(2Δu)) (standard form), or to
 * exp(ε·u<sub>i</sub>/Δu) when {@linkplain Builder#monotone(boolean) monotone} (valid only if, for
 * each pair of neighbours, all utilities move in the same direction, e.g. counts under add/remove
 * one). Either form is ε-DP (Dwork &amp; Roth Thm. 3.10; McSherry &amp; Talwar Thm. 6 and the
 * remark on monotone utilities). Accuracy (Dwork &amp; Roth Thm. 3.11): with probability at least
 * 1 − β, u(output) ≥ max u − (2Δu/ε)·ln(k/β) (Δu/ε for the monotone form); see
 * {@link #utilityErrorBound}.
 *
 * <p><b>Exact sampling.</b> Floating-point implementations of exp and of weighted sampling break
 * the guarantee (Ilvento 2020, "Implementing the exponential mechanism with base-2 differential
 * privacy"). Here no probability is ever a floating-point number: utilities are mapped to integers
 * on a power-of-two grid of spacing h = Δu/2<sup>10</sup>…Δu/2<sup>11</sup> (floor, exact, integer
 * sensitivity ⌈Δu/h⌉), ε is rounded down to a dyadic rational, and the output is drawn by
 * rejection sampling with exact Bernoulli(exp(−γ)) coins of rational γ. The grid costs at most
 * one h of utility, which {@link #utilityErrorBound} includes. The privacy argument is in
 * {@code docs/proofs/exponential-mechanism.md}.
 * Expected cost: k/Σ<sub>i</sub>exp(−γ<sub>i</sub>) ≤ k proposals of O(1) each, independent of
 * the utility range.
 *
 * <p>Immutable and thread-safe (if its {@link RandomSource} is).
 */
public final class ExponentialMechanism extends SelectionMechanism {


  private ExponentialMechanism(SelectionScale scale) {
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
    return scale.weights(utilities).sampleProportional(scale.random);
  }

  /**
   * A bound b such that, with probability at least 1 − β, the utility of the output is at least
   * max<sub>i</sub> u<sub>i</sub> − b (Dwork &amp; Roth Thm. 3.11, plus one grid step): b =
   * (c·Δ'/ε̃)·ln(k/β) + h with c = 2 (standard) or 1 (monotone), where Δ' = h·⌈Δu/h⌉ ≥ Δu and
   * ε̃ ≤ ε are the grid sensitivity and the dyadic ε actually used. Rounded upward.
   *
   * @param candidates the number of candidates k ≥ 1
   * @param beta the failure probability, in (0, 1)
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
    public ExponentialMechanism build() {
      return new ExponentialMechanism(scale());
    }
  }
}
