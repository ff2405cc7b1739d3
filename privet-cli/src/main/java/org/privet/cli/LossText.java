package org.privet.cli;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/**
 * Privacy losses for people, to six significant digits, rounded in the safe direction: spends and
 * costs up, what remains down. Exact values are in {@code --format json}.
 */
final class LossText {
  private static final int DIGITS = 6;

  private LossText() {}

  /** A spend or cost, rounded up. */
  static String up(PrivacyLoss loss) {
    return describe(loss, RoundingMode.CEILING);
  }

  /** What remains of a budget, rounded down. */
  static String down(PrivacyLoss loss) {
    return describe(loss, RoundingMode.FLOOR);
  }

  private static String describe(PrivacyLoss loss, RoundingMode mode) {
    if (loss instanceof Zcdp z) {
      return "rho=" + number(z.rho(), mode);
    }
    if (loss instanceof ApproxZcdp z) {
      return "rho=" + number(z.rho(), mode) + ", delta=" + number(z.delta(), mode);
    }
    if (loss instanceof PureDp p) {
      return "epsilon=" + number(p.epsilon(), mode);
    }
    if (loss instanceof ApproxDp a) {
      return "epsilon=" + number(a.epsilon(), mode) + ", delta=" + number(a.delta(), mode);
    }
    return loss.toString();
  }

  static String number(double v, RoundingMode mode) {
    if (!Double.isFinite(v)) {
      return Double.toString(v);
    }
    return new BigDecimal(v).round(new MathContext(DIGITS, mode)).stripTrailingZeros().toString();
  }
}
