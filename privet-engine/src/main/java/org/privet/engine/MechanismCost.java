package org.privet.engine;

import java.util.Objects;
import org.privet.accounting.PrivacyLoss;

/**
 * What one mechanism of a query costs, and why.
 *
 * @param output the output it serves (e.g. {@code avg_age}), or {@code <groups>} for partition
 *     selection
 * @param purpose what it releases (e.g. "noisy sum of age, part of a mean")
 * @param mechanism the mechanism (e.g. "GeometricMechanism(sensitivity=2^24)")
 * @param loss its privacy loss, under add/remove-one-unit neighbouring
 * @param share its fraction of the query's budget (its weight over the sum of all weights; NaN if
 *     not stated), see {@code docs/proofs/engine-budget-split.md}
 * @param shareReason why it got that share (default or explicit weight), for receipts
 */
public record MechanismCost(String output, String purpose, String mechanism, PrivacyLoss loss,
    double share, String shareReason) {
  public MechanismCost {
    Objects.requireNonNull(output, "output");
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(mechanism, "mechanism");
    Objects.requireNonNull(loss, "loss");
    Objects.requireNonNull(shareReason, "shareReason");
  }

  /** A cost without a stated budget share. */
  public MechanismCost(String output, String purpose, String mechanism, PrivacyLoss loss) {
    this(output, purpose, mechanism, loss, Double.NaN, "");
  }
}
