package org.privet.accounting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.RoundingMode;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Budgets for people: four significant digits, rounded in the honest direction (issue 22). */
class BudgetFormatTest {
  /** Java's E notation, or five or more significant digits: what people must not read. */
  private static boolean longTail(String text) {
    java.util.regex.Matcher m = Pattern.compile("=(-?[0-9][0-9.]*(?:[eE][-+]?[0-9]+)?)")
        .matcher("=" + text.replace(" ", ""));
    while (m.find()) {
      String v = m.group(1);
      String mantissa = v.replaceFirst("^-", "").split("[eE]")[0];
      String digits = mantissa.replace(".", "").replaceFirst("^0+", "");
      if (!mantissa.contains(".")) {
        digits = digits.replaceFirst("0+$", ""); // 19390: trailing zeros of an integer
      }
      if (v.contains("E") || digits.length() > 4) {
        return true;
      }
    }
    return false;
  }

  @Test
  void up_spendsRoundTowardMoreLoss() {
    assertEquals("0.5001", BudgetFormat.up(0.5000000000005));
    assertEquals("0.5", BudgetFormat.up(0.5));
    assertEquals("0.1", BudgetFormat.up(0.1)); // the double's decimal, not 0.1000000000000000055
    assertEquals("0.3001", BudgetFormat.up(0.1 + 0.2)); // 0.30000000000000004
    assertEquals("1e-6", BudgetFormat.up(9.99999999999E-7));
    assertEquals("1.235e-7", BudgetFormat.up(1.234567e-7));
    assertEquals("2", BudgetFormat.up(1.9999999999980005));
    assertEquals("12350", BudgetFormat.up(12345.6));
    assertEquals("1.235e7", BudgetFormat.up(12345678));
    assertEquals("0.0001", BudgetFormat.up(1e-4));
    assertEquals("-0.3333", BudgetFormat.up(-1.0 / 3));
    assertEquals("0", BudgetFormat.up(0));
  }

  @Test
  void down_remaindersRoundTowardLessLeft() {
    assertEquals("0.4999", BudgetFormat.down(0.4999999999995));
    assertEquals("0.5", BudgetFormat.down(0.5));
    assertEquals("9.999e-7", BudgetFormat.down(9.99999999999E-7));
    assertEquals("1.999", BudgetFormat.down(1.9999999999980005));
    assertEquals("1.234e-7", BudgetFormat.down(1.234567e-7));
  }

  /** The printed value, read back, is never below a spend nor above a remainder. */
  @Test
  void format_readBack_neverUnderstatesLossOrOverstatesWhatIsLeft() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(22);
    for (int i = 0; i < 20_000; i++) {
      double v = Math.exp(r.nextDouble(-30, 10));
      assertTrue(Double.parseDouble(BudgetFormat.up(v)) >= v, "up " + v);
      assertTrue(Double.parseDouble(BudgetFormat.down(v)) <= v, "down " + v);
      assertFalse(longTail(BudgetFormat.up(v)), BudgetFormat.up(v));
    }
  }

  @Test
  void describe_eachMeasure() {
    assertEquals("epsilon=0.3334, delta=3.334e-8",
        BudgetFormat.spent(new ApproxDp(1.0 / 3, 1e-7 / 3)));
    assertEquals("epsilon=0.3333, delta=3.333e-8",
        BudgetFormat.remaining(new ApproxDp(1.0 / 3, 1e-7 / 3)));
    assertEquals("rho=0.5", BudgetFormat.spent(new Zcdp(0.5)));
    assertEquals("rho=0.01, delta=1e-6", BudgetFormat.spent(new ApproxZcdp(0.01, 1e-6)));
    assertEquals("epsilon=2", BudgetFormat.describe(new PureDp(2.0), RoundingMode.FLOOR));
  }

  /**
   * Realistic ledger arithmetic: a budget of (1, 1e-6), spends of 0.1 three times and 0.2 (each
   * composed with upward rounding, as the accountants do), with δ = 1e-7 each; neither the spend
   * nor the remainder nor a refusal's text has a long float tail.
   */
  @Test
  void realisticSpends_noLongFloatTails() {
    Budget total = Budget.approx(1, 1e-6);
    java.util.List<PrivacyLoss> charges = new java.util.ArrayList<>();
    for (double e : new double[] {0.1, 0.1, 0.1, 0.2}) {
      charges.add(new ApproxDp(e, 1e-7));
      PrivacyLoss spent = total.compose(charges, new BasicAccountant());
      PrivacyLoss left = total.remaining(spent);
      for (String text : new String[] {BudgetFormat.spent(spent), BudgetFormat.remaining(left),
          Budget.describe(spent, RoundingMode.CEILING), total.describe(), total.toString()}) {
        assertFalse(longTail(text), text);
      }
    }
    PrivacyFilter filter = new PrivacyFilter(new BasicAccountant(), new ApproxDp(0.6, 1e-6));
    for (double e : new double[] {0.1, 0.1, 0.1, 0.2}) {
      filter.admit(new PureDp(e));
    }
    BudgetExceededException e = org.junit.jupiter.api.Assertions.assertThrows(
        BudgetExceededException.class, () -> filter.admit(new PureDp(0.2)));
    assertFalse(longTail(e.getMessage()), e.getMessage());
  }

  /** A charge whose deltas use up the budget's δ: the refusal's numbers are rounded too. */
  @Test
  void deltaRefusal_noLongFloatTails() {
    Budget total = Budget.approx(1, 1e-6);
    BudgetExceededException e = org.junit.jupiter.api.Assertions.assertThrows(
        BudgetExceededException.class, () -> total.compose(java.util.List.of(
            new ApproxDp(0.1, 0.7e-6), new ApproxDp(0.1, 0.3e-6), new Zcdp(0.01)),
            new BasicAccountant()));
    assertTrue(e.getMessage().contains("delta (1e-6) must exceed the events' total delta (1e-6)"),
        e.getMessage());
    assertFalse(longTail(e.getMessage()), e.getMessage());
  }
}
