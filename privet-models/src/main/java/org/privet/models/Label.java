package org.privet.models;

/**
 * What a model predicts, with its public encoding as a number y ∈ [−1, 1]: a binary label (y = +1
 * when the column, spaces trimmed, equals the positive value, −1 otherwise, a missing value
 * included) or a numeric target scaled by public bounds to [−1, 1] on the 2<sup>−20</sup> grid
 * (clamped; a missing or unparsable value is the midpoint 0). Total on every value.
 */
public sealed interface Label permits Label.Binary, Label.Numeric {

  /** The label column. */
  String column();

  /** The encoded value of a raw label (null when missing): {@link #encodeFixed}·2^−K. */
  default double encode(String value) {
    return Math.scalb((double) encodeFixed(value), -Feature.GRID_BITS);
  }

  /** The fixed-point encoding in [−2^K, 2^K] of a raw label (null when missing); total. */
  long encodeFixed(String value);

  /** A classifier's label: {@code column = positive} or not. */
  record Binary(String column, String positive, String negative) implements Label {
    /** With the negative class named {@code not <positive>}. */
    public Binary(String column, String positive) {
      this(column, positive, positive == null ? null : "not " + positive);
    }

    public Binary {
      if (negative == null || negative.isEmpty() || negative.equals(positive)) {
        negative = positive == null ? null : "not " + positive;
      }
      if (column == null || column.isBlank()) {
        throw new IllegalArgumentException("label must name a column");
      }
      if (positive == null || positive.isEmpty()) {
        throw new IllegalArgumentException("positive: give the label value that counts as positive");
      }
    }

    @Override
    public long encodeFixed(String value) {
      return value != null && Feature.trimSpaces(value).equals(positive) ? Feature.ONE : -Feature.ONE;
    }
  }

  /** A regression target with public bounds. */
  record Numeric(String column, double lower, double upper) implements Label {
    public Numeric {
      if (column == null || column.isBlank()) {
        throw new IllegalArgumentException("label must name a column");
      }
      if (!Double.isFinite(lower) || !Double.isFinite(upper) || !(lower < upper)) {
        throw new IllegalArgumentException("label bounds must be finite with lower < upper");
      }
    }

    @Override
    public long encodeFixed(String value) {
      return fixed(Feature.Numeric.parse(value));
    }

    /**
     * The fixed-point label 2u − 2^K ∈ [−2^K, 2^K], with u the {@link Feature.Numeric#fixed}
     * encoding over these bounds (0 for a missing value).
     */
    long fixed(double v) {
      return 2 * new Feature.Numeric(column, lower, upper).fixed(v) - Feature.ONE;
    }

    /** The raw value of an encoded y ∈ [−1, 1]. */
    public double decode(double y) {
      return lower + (y + 1) / 2 * (upper - lower);
    }
  }
}
