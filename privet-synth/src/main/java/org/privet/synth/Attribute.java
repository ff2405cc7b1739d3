package org.privet.synth;

import java.util.List;
import java.util.Objects;

/**
 * One column of a {@link Domain}: public metadata, never read from the data.
 *
 * <p>Values of an attribute are coded as integers {@code 0 .. size-1}. Three kinds exist:
 *
 * <ul>
 *   <li>{@link Kind#CODED}: the table already holds the integer codes (the Private-PGM format);
 *   <li>{@link Kind#CATEGORICAL}: the table holds strings, coded by their position in {@link #values()};
 *   <li>{@link Kind#NUMERIC}: the table holds numbers in the public range [{@link #lower()}, {@link
 *       #upper()}), coded into {@link #size()} equal-width bins.
 * </ul>
 *
 * @param name column name
 * @param kind how the column's values are coded
 * @param size number of codes (≥ 1)
 * @param values the categorical values (empty unless {@code CATEGORICAL})
 * @param lower lower bound of a numeric column (inclusive; NaN unless {@code NUMERIC})
 * @param upper upper bound of a numeric column (exclusive; NaN unless {@code NUMERIC})
 * @param other the code that a missing, unparseable or unknown value takes when a registered
 *     table is read after its charge ({@link #encodeTotal}); default 0, the first code
 */
public record Attribute(String name, Kind kind, int size, List<String> values, double lower, double upper,
    int other) {

  /** How an attribute's values are coded. */
  public enum Kind {
    CODED,
    CATEGORICAL,
    NUMERIC
  }

  public Attribute {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    values = List.copyOf(values);
    if (name.isBlank()) {
      throw new IllegalArgumentException("attribute name must not be blank");
    }
    if (size < 1) {
      throw new IllegalArgumentException("size of attribute '" + name + "' must be at least 1, was " + size);
    }
    switch (kind) {
      case CATEGORICAL -> {
        if (values.size() != size || values.stream().distinct().count() != size) {
          throw new IllegalArgumentException("values of attribute '" + name + "' must be distinct and non-empty");
        }
      }
      case NUMERIC -> {
        if (!Double.isFinite(lower) || !Double.isFinite(upper) || !(lower < upper)) {
          throw new IllegalArgumentException(
              "bounds of numeric attribute '" + name + "' must be finite with lower < upper");
        }
      }
      case CODED -> { }
    }
    if (other < 0 || other >= size) {
      throw new IllegalArgumentException("other of attribute '" + name + "' must be one of its values");
    }
  }

  /** An attribute whose table values are already the codes {@code 0 .. size-1}. */
  public static Attribute coded(String name, int size) {
    return new Attribute(name, Kind.CODED, size, List.of(), Double.NaN, Double.NaN, 0);
  }

  /** A categorical attribute with the given public values. */
  public static Attribute categorical(String name, List<String> values) {
    return new Attribute(name, Kind.CATEGORICAL, values.size(), values, Double.NaN, Double.NaN, 0);
  }

  /** A numeric attribute on the public range [lower, upper) cut into {@code bins} equal-width bins. */
  public static Attribute numeric(String name, double lower, double upper, int bins) {
    return new Attribute(name, Kind.NUMERIC, bins, List.of(), lower, upper, 0);
  }

  /**
   * The same attribute with a declared "other" value: {@code value} is one of a categorical
   * attribute's values, a code of a coded attribute, or a number inside a numeric attribute's range
   * (its bin is used). Public metadata, checked here.
   *
   * @throws IllegalArgumentException if {@code value} is not in the domain (the message names the
   *     attribute; the value is the analyst's own)
   */
  public Attribute withOther(String value) {
    int code = encode(value);
    if (code < 0) {
      throw new IllegalArgumentException("other of attribute '" + name + "' must be one of its values");
    }
    return new Attribute(name, kind, size, values, lower, upper, code);
  }

  /**
   * Codes one value of a registered table read after its charge: a total, per-value rule that
   * never fails and never reports, so that no value can change what the analyst observes
   * (docs/proofs/synthetic-data.md, "Reading a registered table"):
   *
   * <ul>
   *   <li>a value in the domain takes its code, as {@link #encode};
   *   <li>a number outside a coded or numeric attribute's range is clamped to the nearest end
   *       (below: the first code or bin; above or +∞: the last); a coded value between two codes
   *       is rounded down;
   *   <li>anything else (SQL NULL, NaN, text that is not a number of a coded or numeric attribute,
   *       a categorical value not in the list) takes the declared {@link #other()} code.
   * </ul>
   */
  int encodeTotal(String raw) {
    if (raw == null) {
      return other;
    }
    int code = encode(raw);
    if (code >= 0) {
      return code;
    }
    if (kind == Kind.CATEGORICAL) {
      return other;
    }
    double x;
    try {
      x = Double.parseDouble(raw.strip());
    } catch (NumberFormatException e) {
      return other;
    }
    if (Double.isNaN(x)) {
      return other;
    }
    if (kind == Kind.CODED) {
      return x < 0 ? 0 : x >= size - 1 ? size - 1 : (int) Math.floor(x);
    }
    return x < lower ? 0 : size - 1;
  }

  /**
   * Codes one raw cell value, or returns −1 when it lies outside the domain. The value itself never
   * appears in an error message (it is private).
   */
  int encode(String raw) {
    String s = raw.strip();
    switch (kind) {
      case CODED -> {
        try {
          int code = Integer.parseInt(s);
          return code >= 0 && code < size ? code : -1;
        } catch (NumberFormatException e) {
          return -1;
        }
      }
      case CATEGORICAL -> {
        return values.indexOf(s);
      }
      default -> {
        double x;
        try {
          x = Double.parseDouble(s);
        } catch (NumberFormatException e) {
          return -1;
        }
        if (!(x >= lower && x < upper)) {
          return -1;
        }
        int bin = (int) Math.floor((x - lower) / ((upper - lower) / size));
        return Math.min(bin, size - 1);
      }
    }
  }

  /** The text written for a code: the code itself, the categorical value, or the bin midpoint. */
  String decode(int code) {
    return switch (kind) {
      case CODED -> Integer.toString(code);
      case CATEGORICAL -> values.get(code);
      case NUMERIC -> {
        double width = (upper - lower) / size;
        yield Double.toString(lower + (code + 0.5) * width);
      }
    };
  }

  /** A short label for a code in reports (public metadata only: the domain's own values or bins). */
  public String label(int code) {
    return switch (kind) {
      case CODED -> Integer.toString(code);
      case CATEGORICAL -> values.get(code);
      case NUMERIC -> {
        double width = (upper - lower) / size;
        yield "[" + trim(lower + code * width) + "," + trim(lower + (code + 1) * width) + ")";
      }
    };
  }

  private static String trim(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format("%.3g", d);
  }
}
