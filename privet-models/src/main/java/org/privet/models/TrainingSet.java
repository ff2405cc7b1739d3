package org.privet.models;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Encoded training rows with per-unit contribution bounding: each privacy unit keeps at most
 * {@code maxRowsPerUnit} of its rows (the first ones read), and each kept row of a unit with m kept
 * rows has weight 1/m, so a unit's rows together weigh at most 1 (user-level DP: adding or removing
 * one unit adds or removes a convex combination of at most {@code maxRowsPerUnit} row terms;
 * docs/proofs/dp-models.md). With row-level privacy every row is its own unit, of weight 1.
 *
 * <p>Rows are stored sparse (one-hot encodings are mostly zeros). Built once, then read-only.
 */
public final class TrainingSet {
  final FeatureEncoder encoder;
  final Label label;
  final int maxRowsPerUnit;
  /** Per row: nonzero coordinate indices and values, label, weight, unit index. */
  final List<int[]> index = new ArrayList<>();
  final List<double[]> value = new ArrayList<>();
  /** Per row: the fixed-point values of the nonzero coordinates (before the encoder's scale). */
  final List<long[]> fixed = new ArrayList<>();
  long[] yFixed = new long[16];
  double[] y = new double[16];
  double[] weight = new double[16];
  int[] unit = new int[16];
  int rows;
  int units;

  private TrainingSet(FeatureEncoder encoder, Label label, int maxRowsPerUnit) {
    this.encoder = encoder;
    this.label = label;
    this.maxRowsPerUnit = maxRowsPerUnit;
  }

  /** The feature encoding. */
  public FeatureEncoder encoder() {
    return encoder;
  }

  /** The label. */
  public Label label() {
    return label;
  }

  /** The contribution bound: rows kept per privacy unit. */
  public int maxRowsPerUnit() {
    return maxRowsPerUnit;
  }

  /** Rows kept (curator-only: never released). */
  int rows() {
    return rows;
  }

  /** Units seen (curator-only: never released). */
  int units() {
    return units;
  }

  /** Dense x of row i. */
  double[] dense(int i) {
    double[] x = new double[encoder.dimension()];
    int[] idx = index.get(i);
    double[] v = value.get(i);
    for (int k = 0; k < idx.length; k++) {
      x[idx[k]] = v[k];
    }
    return x;
  }

  /** ⟨θ, x_i⟩. */
  double dot(int i, double[] theta) {
    int[] idx = index.get(i);
    double[] v = value.get(i);
    double s = 0;
    for (int k = 0; k < idx.length; k++) {
      s += theta[idx[k]] * v[k];
    }
    return s;
  }

  /**
   * A builder for one pass over the rows.
   *
   * @param maxRowsPerUnit rows kept per privacy unit (≥ 1); 1 for row-level privacy
   */
  public static Builder builder(FeatureEncoder encoder, Label label, int maxRowsPerUnit) {
    if (encoder == null || label == null) {
      throw new IllegalArgumentException("encoder and label are required");
    }
    if (maxRowsPerUnit < 1) {
      throw new IllegalArgumentException("max-rows-per-unit must be at least 1, was " + maxRowsPerUnit);
    }
    return new Builder(new TrainingSet(encoder, label, maxRowsPerUnit));
  }

  /** Accepts rows (total on every value), then {@link #build()}. */
  public static final class Builder {
    private final TrainingSet set;
    private final Map<String, List<Integer>> rowsOfUnit = new HashMap<>();
    private final List<List<Integer>> unitRows = new ArrayList<>();
    private boolean built;

    private Builder(TrainingSet set) {
      this.set = set;
    }

    /**
     * Adds a row: its unit key (null: the row is its own unit), its feature values in
     * {@link FeatureEncoder#columns()} order and its label value (null when missing).
     */
    public Builder add(String unitKey, String[] features, String labelValue) {
      return addFixed(unitKey, set.encoder.encodeFixed(features), set.label.encodeFixed(labelValue));
    }

    /**
     * Adds a row already encoded: its fixed-point coordinates ({@link FeatureEncoder#encodeFixed},
     * intercept included) and label ({@link Label#encodeFixed}).
     */
    Builder addFixed(String unitKey, long[] u, long yFixed) {
      if (u.length != set.encoder.dimension()) {
        throw new IllegalArgumentException("expected " + set.encoder.dimension() + " coordinates");
      }
      if (built) {
        throw new IllegalStateException("already built");
      }
      List<Integer> mine;
      if (unitKey == null) {
        mine = new ArrayList<>(1);
        unitRows.add(mine);
      } else {
        mine = rowsOfUnit.get(unitKey);
        if (mine == null) {
          mine = new ArrayList<>();
          rowsOfUnit.put(unitKey, mine);
          unitRows.add(mine);
        }
      }
      if (mine.size() >= set.maxRowsPerUnit) {
        return this; // contribution bounding: later rows of this unit are dropped
      }
      int nz = 0;
      for (long v : u) {
        if (v != 0) {
          nz++;
        }
      }
      int[] idx = new int[nz];
      double[] val = new double[nz];
      long[] fix = new long[nz];
      for (int i = 0, k = 0; i < u.length; i++) {
        if (u[i] != 0) {
          idx[k] = i;
          fix[k] = u[i];
          val[k++] = set.encoder.fromFixed(u[i]);
        }
      }
      int r = set.rows++;
      if (r == set.y.length) {
        set.y = java.util.Arrays.copyOf(set.y, 2 * r);
        set.weight = java.util.Arrays.copyOf(set.weight, 2 * r);
        set.unit = java.util.Arrays.copyOf(set.unit, 2 * r);
        set.yFixed = java.util.Arrays.copyOf(set.yFixed, 2 * r);
      }
      set.index.add(idx);
      set.value.add(val);
      set.fixed.add(fix);
      set.yFixed[r] = yFixed;
      set.y[r] = Math.scalb((double) yFixed, -Feature.GRID_BITS);
      mine.add(r);
      return this;
    }

    /** Fixes the weights (1/m for a unit's m kept rows) and returns the set. */
    public TrainingSet build() {
      built = true;
      int u = 0;
      for (List<Integer> rows : unitRows) {
        for (int r : rows) {
          set.weight[r] = 1.0 / rows.size();
          set.unit[r] = u;
        }
        u++;
      }
      set.units = u;
      return set;
    }
  }
}
