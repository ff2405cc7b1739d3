package org.privet.synth;

/**
 * Index arithmetic for dense factors over sorted attribute subsets (row-major, the last attribute
 * varying fastest), shared by marginal computation, belief propagation and sampling.
 */
final class IndexMap {
  private IndexMap() {}

  /** Number of cells of a factor over {@code attrs} (exact; throws if it exceeds an int array). */
  static int cells(int[] card, int[] attrs) {
    long c = 1;
    for (int a : attrs) {
      c *= card[a];
      if (c > Integer.MAX_VALUE - 8) {
        throw new IllegalArgumentException("factor over " + attrs.length + " attributes is too large");
      }
    }
    return (int) c;
  }

  /** Number of cells as a double (no overflow), for cost estimates. */
  static double cellsApprox(int[] card, int[] attrs) {
    double c = 1;
    for (int a : attrs) {
      c *= card[a];
    }
    return c;
  }

  /**
   * For each cell of the factor over {@code big}, the index of its projection in the factor over
   * {@code small}; every attribute of {@code small} must occur in {@code big}.
   */
  static int[] of(int[] card, int[] big, int[] small) {
    int[] strideSmall = new int[big.length];
    int s = 1;
    for (int j = small.length - 1; j >= 0; j--) {
      int pos = indexOf(big, small[j]);
      if (pos < 0) {
        throw new IllegalStateException("attribute " + small[j] + " is not in the larger factor");
      }
      strideSmall[pos] = s;
      s *= card[small[j]];
    }
    int[] map = {0};
    for (int j = 0; j < big.length; j++) {
      int c = card[big[j]];
      int[] next = new int[map.length * c];
      int st = strideSmall[j];
      for (int o = 0; o < map.length; o++) {
        int base = map[o];
        int off = o * c;
        for (int v = 0; v < c; v++) {
          next[off + v] = base + v * st;
        }
      }
      map = next;
    }
    return map;
  }

  static int indexOf(int[] sorted, int a) {
    for (int i = 0; i < sorted.length; i++) {
      if (sorted[i] == a) {
        return i;
      }
    }
    return -1;
  }

  static boolean contains(int[] big, int[] small) {
    for (int a : small) {
      if (indexOf(big, a) < 0) {
        return false;
      }
    }
    return true;
  }

  /** Sorted union of two sorted sets. */
  static int[] union(int[] x, int[] y) {
    return java.util.stream.IntStream.concat(java.util.Arrays.stream(x), java.util.Arrays.stream(y))
        .distinct().sorted().toArray();
  }

  /** Sorted intersection of two sorted sets. */
  static int[] intersect(int[] x, int[] y) {
    return java.util.Arrays.stream(x).filter(a -> indexOf(y, a) >= 0).toArray();
  }

  /** Sums {@code values} (over the big factor) into a factor of {@code size} cells via {@code map}. */
  static double[] sum(double[] values, int[] map, int size) {
    double[] out = new double[size];
    for (int i = 0; i < values.length; i++) {
      out[map[i]] += values[i];
    }
    return out;
  }

  /** log Σ exp over the cells mapping to each small cell. */
  static double[] logSumExp(double[] values, int[] map, int size) {
    double[] max = new double[size];
    java.util.Arrays.fill(max, Double.NEGATIVE_INFINITY);
    for (int i = 0; i < values.length; i++) {
      if (values[i] > max[map[i]]) {
        max[map[i]] = values[i];
      }
    }
    double[] acc = new double[size];
    for (int i = 0; i < values.length; i++) {
      double m = max[map[i]];
      if (m != Double.NEGATIVE_INFINITY) {
        acc[map[i]] += Math.exp(values[i] - m);
      }
    }
    for (int j = 0; j < size; j++) {
      acc[j] = max[j] == Double.NEGATIVE_INFINITY ? Double.NEGATIVE_INFINITY : max[j] + Math.log(acc[j]);
    }
    return acc;
  }
}
