package org.privet.anonymity;

import java.util.Collection;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What one cell of a generalized table holds, and how it is written in the output CSV:
 *
 * <ul>
 *   <li>{@link Point}: the original value, unchanged ({@code 37}, {@code Female});
 *   <li>{@link Range}: a numeric interval, {@code [20..29]} (closed) or {@code [20..30)} (upper end
 *       open);
 *   <li>{@link Choice}: one of a set of categories, {@code {Black|White}};
 *   <li>{@link Any}: any value of the column's domain, {@code *} (the value is redacted).
 * </ul>
 *
 * <p>{@link #parse} reads these back, so {@code privet anonymity check} can measure a released
 * table. Immutable values.
 */
public sealed interface Generalization
    permits Generalization.Point, Generalization.Range, Generalization.Choice, Generalization.Any {

  /** The cell as written in the CSV. */
  String text();

  /** Whether an original value (as text, and as a number if numeric) is consistent with the cell. */
  boolean covers(String label, double number);

  /** An unchanged value. {@code number} is NaN for a categorical value. */
  record Point(String label, double number) implements Generalization {
    public Point {
      Objects.requireNonNull(label, "label");
    }

    @Override
    public String text() {
      return label;
    }

    @Override
    public boolean covers(String l, double n) {
      return Double.isNaN(number) ? label.equals(l) : n == number;
    }
  }

  /** The interval [lower, upper] (or [lower, upper) when {@code openUpper}). */
  record Range(double lower, double upper, boolean openUpper) implements Generalization {
    public Range {
      if (!(lower <= upper)) {
        throw new IllegalArgumentException("range: lower must not exceed upper");
      }
    }

    @Override
    public String text() {
      return "[" + number(lower) + ".." + number(upper) + (openUpper ? ")" : "]");
    }

    @Override
    public boolean covers(String l, double n) {
      return n >= lower && (openUpper ? n < upper : n <= upper);
    }

    /** The width, the numerator of the interval's normalized certainty penalty. */
    public double width() {
      return upper - lower;
    }
  }

  /** One of several categories. */
  record Choice(SortedSet<String> labels) implements Generalization {
    public Choice {
      labels = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(labels));
      if (labels.size() < 2) {
        throw new IllegalArgumentException("choice: needs two or more labels");
      }
    }

    @Override
    public String text() {
      return "{" + String.join("|", labels) + "}";
    }

    @Override
    public boolean covers(String l, double n) {
      return labels.contains(l);
    }
  }

  /** Any value (fully generalized or suppressed cell). */
  record Any() implements Generalization {
    @Override
    public String text() {
      return "*";
    }

    @Override
    public boolean covers(String l, double n) {
      return true;
    }
  }

  /** The single {@link Any} value. */
  Any ANY = new Any();

  /** A categorical cell holding {@code labels}: a point, a choice, or {@code *} if it is the domain. */
  static Generalization ofLabels(Collection<String> labels, int domainSize) {
    TreeSet<String> set = new TreeSet<>(labels);
    if (set.size() == 1) {
      return new Point(set.first(), Double.NaN);
    }
    return set.size() >= domainSize && domainSize > 1 ? ANY : new Choice(set);
  }

  /** A numeric cell covering [min, max]: a point when they are equal. */
  static Generalization ofNumbers(double min, double max) {
    return min == max ? new Point(number(min), min) : new Range(min, max, false);
  }

  /**
   * Reads a cell written by {@link #text()}. Plain text is a point (numeric when {@code numeric}).
   *
   * @throws IllegalArgumentException naming {@code column} if a numeric cell is not a number/range
   */
  static Generalization parse(String text, boolean numeric, String column) {
    String t = text == null ? Microdata.MISSING : text.strip();
    if (t.equals("*")) {
      return ANY;
    }
    if (numeric) {
      try {
        if (t.startsWith("[") && (t.endsWith("]") || t.endsWith(")")) && t.contains("..")) {
          int dots = t.indexOf("..");
          return new Range(Double.parseDouble(t.substring(1, dots)),
              Double.parseDouble(t.substring(dots + 2, t.length() - 1)), t.endsWith(")"));
        }
        double v = Double.parseDouble(t);
        return new Point(number(v), v);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("column '" + column
            + "': a numeric quasi-identifier cell is neither a number, a range [a..b] nor *");
      }
    }
    if (t.startsWith("{") && t.endsWith("}") && t.contains("|")) {
      return new Choice(new TreeSet<>(java.util.List.of(t.substring(1, t.length() - 1).split("\\|"))));
    }
    return new Point(t, Double.NaN);
  }

  /** A number as text: integral values without a decimal point. */
  static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }
}
