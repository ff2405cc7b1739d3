package org.privet.accounting.pld;

import org.privet.accounting.PrivacyLoss;

/**
 * The composed privacy loss distribution of a list of privacy events, as computed by {@link
 * PldAccountant}: an immutable value answering δ(ε) and ε(δ) with upper bounds. Under add/remove
 * neighbours, subsampled events have different losses in the two directions; both compositions are
 * kept and every answer is the worse of the two.
 *
 * <p>The bounds include the discretisation (pessimistic by construction), the truncation of the
 * loss window (a Chernoff bound), events' own infinite-loss mass, and a bound on floating-point
 * error of the FFT; see docs/proofs/pld-accountant.md.
 */
public final class PrivacyLossDistribution {
  private final ComposedPld remove;
  private final ComposedPld add;

  PrivacyLossDistribution(ComposedPld remove, ComposedPld add) {
    this.remove = remove;
    this.add = add;
  }

  /** The grid spacing Δ of the loss values. */
  public double valueDiscretizationInterval() {
    return remove.interval;
  }

  /** An upper bound on the smallest δ such that the composition is (ε, δ)-DP. */
  public double delta(double epsilon) {
    PrivacyLoss.requireNonNegativeFinite("epsilon", epsilon);
    double d = remove.delta(epsilon);
    return add == remove ? d : Math.max(d, add.delta(epsilon));
  }

  /**
   * An upper bound on the smallest ε such that the composition is (ε, δ)-DP.
   *
   * @throws IllegalArgumentException if no finite ε reaches this δ (the events' infinite-loss mass,
   *     e.g. their own δ's, exceeds it)
   */
  public double epsilon(double delta) {
    if (Double.isNaN(delta) || delta <= 0 || delta >= 1) {
      throw new IllegalArgumentException("delta must be in (0, 1), was " + delta);
    }
    double e = remove.epsilon(delta);
    if (add != remove) {
      e = Math.max(e, add.epsilon(delta));
    }
    if (Double.isNaN(e)) {
      throw new IllegalArgumentException(
          "delta (" + delta + ") is below the composition's infinite-loss mass; no finite epsilon");
    }
    return e;
  }
}
