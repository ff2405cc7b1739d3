package org.privet.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds budgets printed for people with long float tails (issue 22, item 5): every value after
 * {@code epsilon}, {@code rho}, {@code delta}, ε, ρ or δ (then {@code =} or {@code :}) must have at
 * most four significant digits and no Java {@code E} notation ({@code 0.4999999999995}, {@code
 * 9.99999999999E-7} and {@code 1.0E-6} are offences; {@code 0.4999}, {@code 1e-6} are not).
 */
public final class LongTails {
  private static final Pattern BUDGET = Pattern.compile(
      "(?i)(epsilon|rho|delta|ε|ρ|δ)\\s*[=:]\\s*(-?[0-9][0-9.]*(?:[eE][-+]?[0-9]+)?)");

  private LongTails() {}

  /** The offending {@code name=value} texts in {@code text} (empty if there are none). */
  public static List<String> in(String text) {
    List<String> out = new ArrayList<>();
    Matcher m = BUDGET.matcher(text);
    while (m.find()) {
      if (!fine(m.group(2))) {
        out.add(m.group());
      }
    }
    return out;
  }

  /** At most four significant digits, no upper-case E, no ".0" tails. */
  static boolean fine(String value) {
    if (value.contains("E") || value.endsWith(".0") || value.contains(".0e")) {
      return false;
    }
    String mantissa = value.replaceFirst("^-", "").split("e")[0];
    String digits = mantissa.replace(".", "").replaceFirst("^0+", "");
    if (mantissa.contains(".")) {
      return digits.length() <= 4;
    }
    return digits.replaceFirst("0+$", "").length() <= 4;
  }
}
