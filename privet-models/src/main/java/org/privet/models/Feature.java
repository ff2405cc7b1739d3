package org.privet.models;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * One input feature of a model and its public encoding: a numeric column scaled by public bounds
 * to [0, 1] on the fixed-point grid 2<sup>−{@value #GRID_BITS}</sup> (values outside are clamped,
 * a missing or unparsable value takes the midpoint; the scaled value is rounded half to even, the
 * same arithmetic in Java and in every backend's SQL: {@link BackendTraining}), or a
 * categorical column one-hot encoded over its public keys (a value outside the keys, or a missing
 * one, encodes as all zeros). Both are fixed before any row is read and never derived from the
 * protected data, so every encoded row has norm at most 1 per feature (the bound the privacy
 * arguments in docs/proofs/dp-models.md rely on).
 */
public sealed interface Feature permits Feature.Numeric, Feature.Categorical {
  /** K: encoded numeric coordinates are integers u ∈ [0, 2^K] times 2^−K. */
  int GRID_BITS = 20;
  /** 2^K, the fixed-point one. */
  long ONE = 1L << GRID_BITS;

  /** The column name. */
  String name();

  /** How many coordinates this feature occupies in the encoded vector. */
  int width();

  /** Writes the encoding of {@code value} (null when missing) at {@code offset}; total. */
  void encode(String value, double[] out, int offset);

  /** The names of its coordinates, e.g. {@code age} or {@code sex=Male}. */
  List<String> coordinateNames();

  /** A numeric column with public bounds {@code lower ≤ upper}, both finite. */
  record Numeric(String name, double lower, double upper) implements Feature {
    public Numeric {
      requireName(name);
      if (!Double.isFinite(lower) || !Double.isFinite(upper) || lower > upper) {
        throw new IllegalArgumentException("bounds of feature " + name + " must be finite with lower <= upper");
      }
    }

    @Override
    public int width() {
      return 1;
    }

    @Override
    public void encode(String value, double[] out, int offset) {
      out[offset] = scale(parse(value));
    }

    /** The scaled value in [0, 1] of a raw number (NaN reads as the midpoint): {@link #fixed}·2^−K. */
    double scale(double v) {
      return Math.scalb((double) fixed(v), -GRID_BITS);
    }

    /**
     * The fixed-point encoding u ∈ [0, 2^K] of a raw number: rint(((c − lower)/(upper − lower))·2^K)
     * with c = min(max(v, lower), upper), half to even; 2^(K−1) for NaN or equal bounds. Exactly
     * what {@link BackendTraining} renders in SQL (IEEE double subtraction, division and a
     * power-of-two product, then the dialect's half-to-even rounding).
     */
    long fixed(double v) {
      if (Double.isNaN(v) || upper == lower) {
        return ONE / 2;
      }
      double c = Math.min(upper, Math.max(lower, v));
      return (long) Math.rint((c - lower) / range() * ONE);
    }

    /** upper − lower, as a double (the SQL gets this literal). */
    double range() {
      return upper - lower;
    }

    static double parse(String value) {
      if (value == null) {
        return Double.NaN;
      }
      try {
        return Double.parseDouble(value.trim());
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }

    @Override
    public List<String> coordinateNames() {
      return List.of(name);
    }
  }

  /** A categorical column with its public keys (distinct, non-empty list). */
  record Categorical(String name, List<String> keys) implements Feature {
    public Categorical {
      requireName(name);
      Objects.requireNonNull(keys, "keys");
      if (keys.isEmpty()) {
        throw new IllegalArgumentException("feature " + name + " needs at least one public key");
      }
      if (new LinkedHashSet<>(keys).size() != keys.size()) {
        throw new IllegalArgumentException("public keys of feature " + name + " must be distinct");
      }
      keys = List.copyOf(keys);
    }

    @Override
    public int width() {
      return keys.size();
    }

    @Override
    public void encode(String value, double[] out, int offset) {
      int i = indexOf(value);
      if (i >= 0) {
        out[offset + i] = 1.0;
      }
    }

    /** The key's index of a raw value with its spaces trimmed (SQL's TRIM), or −1. */
    int indexOf(String value) {
      return value == null ? -1 : keys.indexOf(trimSpaces(value));
    }

    @Override
    public List<String> coordinateNames() {
      return keys.stream().map(k -> name + "=" + k).toList();
    }
  }

  /** {@code s} without leading and trailing spaces (U+0020 only, as SQL's {@code TRIM}). */
  static String trimSpaces(String s) {
    int a = 0;
    int b = s.length();
    while (a < b && s.charAt(a) == ' ') {
      a++;
    }
    while (b > a && s.charAt(b - 1) == ' ') {
      b--;
    }
    return s.substring(a, b);
  }

  private static void requireName(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("feature name must not be empty");
    }
  }
}
