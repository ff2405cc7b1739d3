package org.privet.models;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The public encoding of a row as a vector x of norm at most 1: an intercept coordinate 1, then
 * each feature's coordinates (a numeric in [0, 1], a categorical one-hot over its public keys),
 * all multiplied by 1/√(k + 1) for k features. Each of the k + 1 blocks has norm ≤ 1, so
 * ‖x‖₂ ≤ 1: the norm bound behind every sensitivity in docs/proofs/dp-models.md. Immutable.
 */
public final class FeatureEncoder {
  private final List<Feature> features;
  private final int dimension;
  private final double scale;

  /** @param features the features, distinct names, at least one */
  public FeatureEncoder(List<Feature> features) {
    if (features == null || features.isEmpty()) {
      throw new IllegalArgumentException("features: give at least one feature");
    }
    Set<String> seen = new HashSet<>();
    int d = 1;
    for (Feature f : features) {
      if (!seen.add(f.name())) {
        throw new IllegalArgumentException("features: " + f.name() + " is listed twice");
      }
      d += f.width();
    }
    this.features = List.copyOf(features);
    this.dimension = d;
    this.scale = 1.0 / Math.sqrt(features.size() + 1.0);
  }

  /** The features, in encoding order. */
  public List<Feature> features() {
    return features;
  }

  /** The feature column names, in encoding order. */
  public List<String> columns() {
    return features.stream().map(Feature::name).toList();
  }

  /** The length of an encoded vector (intercept included). */
  public int dimension() {
    return dimension;
  }

  /** The factor 1/√(k + 1) every coordinate is multiplied by. */
  public double scale() {
    return scale;
  }

  /** The names of the coordinates: {@code (intercept)}, then each feature's. */
  public List<String> coordinateNames() {
    List<String> out = new ArrayList<>();
    out.add("(intercept)");
    features.forEach(f -> out.addAll(f.coordinateNames()));
    return out;
  }

  /**
   * Encodes one row, given as the values of {@link #columns()} in order (null when missing);
   * total: never throws on a value. It is {@link #encodeFixed}·2^−K·{@link #scale()}.
   */
  public double[] encode(String[] values) {
    long[] u = encodeFixed(values);
    double[] x = new double[dimension];
    for (int i = 0; i < dimension; i++) {
      x[i] = fromFixed(u[i]);
    }
    return x;
  }

  /** The encoded coordinate of a fixed-point one: u·2^−K·{@link #scale()}. */
  double fromFixed(long u) {
    return Math.scalb((double) u, -Feature.GRID_BITS) * scale;
  }

  /**
   * The fixed-point encoding before the common factor {@link #scale()}: integers in [0, 2^K]
   * ({@link Feature#ONE} for the intercept and a matching key, {@link Feature.Numeric#fixed} for a
   * number). Total.
   */
  long[] encodeFixed(String[] values) {
    if (values.length != features.size()) {
      throw new IllegalArgumentException("expected " + features.size() + " feature values, got " + values.length);
    }
    long[] u = new long[dimension];
    u[0] = Feature.ONE;
    int off = 1;
    for (int i = 0; i < features.size(); i++) {
      Feature f = features.get(i);
      if (f instanceof Feature.Numeric n) {
        u[off] = n.fixed(Feature.Numeric.parse(values[i]));
      } else {
        int k = ((Feature.Categorical) f).indexOf(values[i]);
        if (k >= 0) {
          u[off + k] = Feature.ONE;
        }
      }
      off += f.width();
    }
    return u;
  }
}
