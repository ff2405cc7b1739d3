package org.privet.accounting;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Budgets for people (issue 22, item 5): the one place that turns ε, δ and ρ into text a person
 * reads (CLI output, refusals, the ledger's messages, the web console). JSON keeps exact values.
 *
 * <p>Every number is rounded to {@link #DIGITS} significant digits in the honest direction, so that
 * the text never understates a loss nor overstates what is left: {@link #up} (toward +∞) for what
 * is spent, charged, needed or would be spent; {@link #down} (toward −∞) for what remains, and for
 * totals and grants (what may be spent). So a spend of 0.5000000000005 reads {@code 0.5001}, a
 * remainder of 0.4999999999995 reads {@code 0.4999}, and δ = 9.99999999999E-7 spent reads {@code
 * 1e-6}. Plain decimals between 10<sup>−4</sup> and 10<sup>6</sup>, else {@code 2.5e-7} style; no
 * trailing zeros.
 *
 * <p>The rounding starts from the double's shortest decimal ({@link Double#toString}), not its
 * binary expansion, so a charge of 0.1 reads {@code 0.1}, not {@code 0.1001}: the guarantee is that
 * the printed number, read back as a double, is never below a spend ({@link #up}) and never above
 * a remainder ({@link #down}). The web console's {@code budgetUp}/{@code budgetDown}
 * (privet-server, console/charts.js) implement the same rule; {@code ConsoleBrowserTest} checks
 * that both print the same text.
 */
public final class BudgetFormat {
  /** Significant digits shown. */
  public static final int DIGITS = 4;

  private BudgetFormat() {}

  /** {@code v} rounded up (toward +∞) to {@link #DIGITS} significant digits: spends and costs. */
  public static String up(double v) {
    return format(v, RoundingMode.CEILING);
  }

  /** {@code v} rounded down (toward −∞): what remains, totals and grants. */
  public static String down(double v) {
    return format(v, RoundingMode.FLOOR);
  }

  /** {@code v} rounded with {@code mode} ({@link RoundingMode#CEILING} or {@code FLOOR}). */
  public static String format(double v, RoundingMode mode) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return Double.toString(v);
    }
    if (v == 0) {
      return "0";
    }
    BigDecimal b = BigDecimal.valueOf(v).round(new MathContext(DIGITS, mode)).stripTrailingZeros();
    double abs = Math.abs(b.doubleValue());
    if (abs >= 1e-4 && abs < 1e6) {
      return b.toPlainString();
    }
    // d.ddde±x: unscaled digits and the decimal exponent of the leading one.
    String digits = b.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - b.scale();
    String mantissa = digits.length() == 1 ? digits
        : digits.charAt(0) + "." + digits.substring(1);
    return (b.signum() < 0 ? "-" : "") + mantissa + "e" + exponent;
  }

  /** A loss that is spent, charged or needed: {@code epsilon=0.5001, delta=1e-6}, rounded up. */
  public static String spent(PrivacyLoss loss) {
    return describe(loss, RoundingMode.CEILING);
  }

  /** What remains, a total or a grant: {@code epsilon=0.4999, delta=1e-6}, rounded down. */
  public static String remaining(PrivacyLoss loss) {
    return describe(loss, RoundingMode.FLOOR);
  }

  /** A loss in text, each parameter rounded with {@code mode}. */
  public static String describe(PrivacyLoss loss, RoundingMode mode) {
    if (loss instanceof Zcdp z) {
      return "rho=" + format(z.rho(), mode);
    }
    if (loss instanceof ApproxZcdp z) {
      return "rho=" + format(z.rho(), mode) + ", delta=" + format(z.delta(), mode);
    }
    if (loss instanceof PureDp p) {
      return "epsilon=" + format(p.epsilon(), mode);
    }
    if (loss instanceof ApproxDp a) {
      return "epsilon=" + format(a.epsilon(), mode) + ", delta=" + format(a.delta(), mode);
    }
    return String.valueOf(loss);
  }
}
