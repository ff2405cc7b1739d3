package org.privet.models;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * One input feature of a model and its public encoding: a numeric column scaled by public bounds
 * to [0, 1] (values outside are clamped, a missing or unparsable value takes the midpoint), or a
 * categorical column one-hot encoded over its public keys (a value outside the keys, or a missing
 * one, encodes as all zeros). Both are fixed before any row is read and never derived from the
 * protected data, so every encoded row has norm at most 1 per feature (the bound the privacy
 * arguments in docs/proofs/dp-models.md rely on).
 */
public sealed interface Feature permits Feature.Numeric, Feature.Categorical {

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

    /** The scaled value in [0, 1] of a raw number (NaN reads as the midpoint). */
    double scale(double v) {
      if (Double.isNaN(v)) {
        return 0.5;
      }
      if (upper == lower) {
        return 0.5;
      }
      double c = Math.min(upper, Math.max(lower, v));
      return (c - lower) / (upper - lower);
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
      if (value == null) {
        return;
      }
      int i = keys.indexOf(value.trim());
      if (i >= 0) {
        out[offset + i] = 1.0;
      }
    }

    @Override
    public List<String> coordinateNames() {
      return keys.stream().map(k -> name + "=" + k).toList();
    }
  }

  private static void requireName(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("feature name must not be empty");
    }
  }
}
