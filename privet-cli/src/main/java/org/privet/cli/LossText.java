package org.privet.cli;

import java.math.RoundingMode;
import org.privet.accounting.Budget;
import org.privet.accounting.PrivacyLoss;

/**
 * Deprecated: losses for people are {@link Budget#describe(PrivacyLoss, RoundingMode)} (privet-core),
 * rounded up for spends and down for what remains. Kept only while code on other branches moves
 * over; to be removed.
 */
@Deprecated(forRemoval = true)
final class LossText {
  private LossText() {}

  /** A spend or cost, rounded up. */
  static String up(PrivacyLoss loss) {
    return Budget.describe(loss, RoundingMode.CEILING);
  }

  /** What remains of a budget, rounded down. */
  static String down(PrivacyLoss loss) {
    return Budget.describe(loss, RoundingMode.FLOOR);
  }
}
