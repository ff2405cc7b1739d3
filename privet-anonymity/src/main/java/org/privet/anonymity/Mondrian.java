package org.privet.anonymity;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict multidimensional k-anonymity by Mondrian: LeFevre, DeWitt &amp; Ramakrishnan, "Mondrian
 * Multidimensional K-Anonymity", ICDE 2006.
 *
 * <p>The quasi-identifier space is cut recursively, as in a kd-tree. A partition is split on the
 * quasi-identifier with the widest normalized range (numeric: range over the table's range;
 * categorical: distinct values present over the table's distinct values), at the median: left the
 * rows with value &le; the median, right the rest ("strict": the two sides do not overlap). A cut
 * is <em>allowable</em> when both sides hold at least k rows (and, with ℓ set, at least ℓ distinct
 * sensitive values: distinct ℓ-diversity as in Machanavajjhala et al. 2007, the constraint that
 * LeFevre et al. note Mondrian enforces the same way). When the median cut is not allowable
 * because of ties, the cut just below the median value is tried; then the next-widest dimension.
 * A partition with no allowable cut is a leaf: an equivalence class.
 *
 * <p>Categorical values without a hierarchy are ordered by their text, so each class holds a set
 * of categories ({@code {a|b}}), written {@code *} when it is the whole domain. Each class's numeric
 * cell is the [min..max] of its rows (the paper's "range" summary).
 *
 * <p>Suppression: Mondrian never suppresses unless the whole table cannot be made k-anonymous
 * (fewer than k rows, or fewer than ℓ distinct sensitive values): then every row is suppressed,
 * and {@link GeneralizedTable#suppressed()} says so.
 *
 * <p>Not a privacy mechanism: the output has no formal guarantee. Deterministic; immutable.
 */
public final class Mondrian {
  private final int k;
  private final int l;

  /**
   * @param k the least class size, at least 1
   * @param l the least number of distinct sensitive values per class (1: no ℓ constraint)
   */
  public Mondrian(int k, int l) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
    if (l < 1) {
      throw new IllegalArgumentException("l must be at least 1, was " + l);
    }
    this.k = k;
    this.l = l;
  }

  /**
   * Anonymizes {@code data} on the given quasi-identifiers.
   *
   * @param sensitive the sensitive column (kept unchanged), or null; required when ℓ &gt; 1
   */
  public GeneralizedTable anonymize(Microdata data, List<String> quasiIdentifiers, String sensitive) {
    if (quasiIdentifiers.isEmpty()) {
      throw new IllegalArgumentException("--quasi-identifiers: name at least one column");
    }
    if (l > 1 && sensitive == null) {
      throw new IllegalArgumentException("--sensitive is required with --l");
    }
    int d = quasiIdentifiers.size();
    int n = data.rows();
    Microdata.Column[] cols = new Microdata.Column[d];
    int[][] codes = new int[d][];
    double[][] values = new double[d][]; // numeric: sorted distinct values; categorical: null
    String[][] labels = new String[d][]; // categorical: sorted distinct labels
    for (int q = 0; q < d; q++) {
      cols[q] = data.column("--quasi-identifiers", quasiIdentifiers.get(q));
      codes[q] = new int[n];
      if (cols[q].numeric()) {
        values[q] = Arrays.stream(cols[q].numbers()).distinct().sorted().toArray();
        for (int r = 0; r < n; r++) {
          codes[q][r] = Arrays.binarySearch(values[q], cols[q].numbers()[r]);
        }
      } else {
        labels[q] = new TreeSet<>(Arrays.asList(cols[q].labels())).toArray(new String[0]);
        for (int r = 0; r < n; r++) {
          codes[q][r] = Arrays.binarySearch(labels[q], cols[q].labels()[r]);
        }
      }
    }
    int[] sensitiveCodes = null;
    Microdata.Column s = sensitive == null ? null : data.column("--sensitive", sensitive);
    if (s != null) {
      sensitiveCodes = new int[n];
      String[] distinct = new TreeSet<>(Arrays.asList(s.asCategorical().labels())).toArray(new String[0]);
      String[] sl = s.asCategorical().labels();
      for (int r = 0; r < n; r++) {
        sensitiveCodes[r] = Arrays.binarySearch(distinct, sl[r]);
      }
    }
    String method = "Mondrian strict multidimensional, k=" + k + (l > 1 ? ", distinct l=" + l : "");
    boolean[] numeric = new boolean[d];
    for (int q = 0; q < d; q++) {
      numeric[q] = cols[q].numeric();
    }
    int[] all = new int[n];
    Arrays.setAll(all, i -> i);
    if (n < k || !diverse(all, sensitiveCodes)) {
      return new GeneralizedTable(quasiIdentifiers, numeric, new Generalization[0][d], Optional.ofNullable(s),
          new int[0], n, method);
    }
    List<int[]> leaves = new ArrayList<>();
    Deque<int[]> work = new ArrayDeque<>();
    work.push(all);
    while (!work.isEmpty()) {
      int[] part = work.pop();
      int[][] cut = split(part, codes, values, labels, sensitiveCodes);
      if (cut == null) {
        leaves.add(part);
      } else {
        work.push(cut[1]);
        work.push(cut[0]);
      }
    }
    Generalization[][] cells = new Generalization[n][];
    int[] sourceRows = new int[n];
    int out = 0;
    for (int[] leaf : leaves) {
      Generalization[] g = new Generalization[d];
      for (int q = 0; q < d; q++) {
        if (numeric[q]) {
          int lo = Integer.MAX_VALUE;
          int hi = Integer.MIN_VALUE;
          for (int r : leaf) {
            lo = Math.min(lo, codes[q][r]);
            hi = Math.max(hi, codes[q][r]);
          }
          g[q] = Generalization.ofNumbers(values[q][lo], values[q][hi]);
        } else {
          Set<String> present = new HashSet<>();
          for (int r : leaf) {
            present.add(labels[q][codes[q][r]]);
          }
          g[q] = Generalization.ofLabels(present, labels[q].length);
        }
      }
      for (int r : leaf) {
        cells[out] = g;
        sourceRows[out++] = r;
      }
    }
    return new GeneralizedTable(quasiIdentifiers, numeric, cells, Optional.ofNullable(s), sourceRows, 0, method);
  }

  /** The allowable cut of {@code part} on the widest dimension that has one, or null. */
  private int[][] split(int[] part, int[][] codes, double[][] values, String[][] labels, int[] sensitive) {
    if (part.length < 2 * k) {
      return null;
    }
    int d = codes.length;
    double[] width = new double[d];
    Integer[] order = new Integer[d];
    for (int dim = 0; dim < d; dim++) {
      final int q = dim;
      order[q] = q;
      int lo = Integer.MAX_VALUE;
      int hi = Integer.MIN_VALUE;
      for (int r : part) {
        lo = Math.min(lo, codes[q][r]);
        hi = Math.max(hi, codes[q][r]);
      }
      if (values[q] != null) {
        double span = values[q][values[q].length - 1] - values[q][0];
        width[q] = span == 0 ? 0 : (values[q][hi] - values[q][lo]) / span;
      } else {
        long distinct = Arrays.stream(part).map(r -> codes[q][r]).distinct().count();
        width[q] = labels[q].length <= 1 ? 0 : (distinct - 1) / (double) (labels[q].length - 1);
      }
    }
    Arrays.sort(order, (a, b) -> Double.compare(width[b], width[a]));
    for (int q : order) {
      if (width[q] == 0) {
        break;
      }
      int[] sorted = Arrays.stream(part).map(r -> codes[q][r]).sorted().toArray();
      int median = sorted[(sorted.length - 1) / 2]; // the lower median
      // Left: value <= median; failing that (ties at the median), value < median.
      for (int cutAt : new int[] {median, median - 1}) {
        int[][] sides = cut(part, codes[q], cutAt);
        if (sides[0].length >= k && sides[1].length >= k && diverse(sides[0], sensitive)
            && diverse(sides[1], sensitive)) {
          return sides;
        }
      }
    }
    return null;
  }

  private static int[][] cut(int[] part, int[] code, int cutAt) {
    int left = 0;
    for (int r : part) {
      if (code[r] <= cutAt) {
        left++;
      }
    }
    int[] lhs = new int[left];
    int[] rhs = new int[part.length - left];
    int i = 0;
    int j = 0;
    for (int r : part) {
      if (code[r] <= cutAt) {
        lhs[i++] = r;
      } else {
        rhs[j++] = r;
      }
    }
    return new int[][] {lhs, rhs};
  }

  private boolean diverse(int[] part, int[] sensitive) {
    if (l <= 1) {
      return true;
    }
    return Arrays.stream(part).map(r -> sensitive[r]).distinct().limit(l).count() >= l;
  }
}
