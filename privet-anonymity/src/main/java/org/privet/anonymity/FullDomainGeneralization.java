package org.privet.anonymity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Full-domain generalization with suppression (Samarati, "Protecting respondents' identities in
 * microdata release", IEEE TKDE 2001; Sweeney, IJUFKS 2002): every value of a quasi-identifier is
 * generalized to the same level of its hierarchy, and the rows left in classes smaller than k (or
 * less than ℓ-diverse) are suppressed, up to a limit.
 *
 * <p>The search is exhaustive over the generalization lattice (one level per quasi-identifier) and
 * returns the node of least generalized information loss (suppressed cells count 1) among those
 * within the suppression limit: the optimum that Incognito (LeFevre, DeWitt &amp; Ramakrishnan,
 * SIGMOD 2005) and Flash (Kohlmayer et al., PASSAT 2012) reach with pruning. Lattices above {@link
 * #MAX_NODES} nodes are refused (use Mondrian).
 *
 * <p>Hierarchies: categorical columns use the user's {@link Hierarchies} (a level's cell lists the
 * original values it groups, or {@code *}); without one, a categorical column has two levels, the
 * value and {@code *}. Numeric columns without a hierarchy get intervals automatically: widths
 * w, 2w, 4w, … from the column's minimum, with w the "nice" number (1, 2 or 5 × 10ʲ) at least
 * range/32, then {@code *}.
 *
 * <p>Not a privacy mechanism: the output has no formal guarantee. Deterministic; immutable.
 */
public final class FullDomainGeneralization {
  /** The largest lattice searched. */
  public static final int MAX_NODES = 5_000;

  private final int k;
  private final int l;
  private final double maxSuppression;

  /**
   * @param maxSuppression the largest fraction of rows that may be suppressed, in [0, 1]
   */
  public FullDomainGeneralization(int k, int l, double maxSuppression) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be at least 1, was " + k);
    }
    if (l < 1) {
      throw new IllegalArgumentException("l must be at least 1, was " + l);
    }
    if (!(maxSuppression >= 0 && maxSuppression <= 1)) {
      throw new IllegalArgumentException("max-suppression must be in [0, 1], was " + maxSuppression);
    }
    this.k = k;
    this.l = l;
    this.maxSuppression = maxSuppression;
  }

  /** One quasi-identifier's levels: per level, each row's cell id, and the cells. */
  private record Levels(int[][] cellOfRow, List<List<Generalization>> cells, List<double[]> loss) {}

  public GeneralizedTable anonymize(Microdata data, List<String> quasiIdentifiers, String sensitive,
      Hierarchies hierarchies) {
    if (quasiIdentifiers.isEmpty()) {
      throw new IllegalArgumentException("--quasi-identifiers: name at least one column");
    }
    if (l > 1 && sensitive == null) {
      throw new IllegalArgumentException("--sensitive is required with --l");
    }
    int d = quasiIdentifiers.size();
    int n = data.rows();
    Levels[] levels = new Levels[d];
    boolean[] numeric = new boolean[d];
    long nodes = 1;
    for (int q = 0; q < d; q++) {
      Microdata.Column c = data.column("--quasi-identifiers", quasiIdentifiers.get(q));
      numeric[q] = c.numeric();
      levels[q] = c.numeric() && hierarchies.of(c.name()).isEmpty() ? intervals(c) : categorical(c, hierarchies);
      nodes *= levels[q].cells().size();
      if (nodes > MAX_NODES) {
        throw new IllegalArgumentException("--hierarchies: the generalization lattice has more than " + MAX_NODES
            + " nodes; use --method mondrian or fewer levels");
      }
    }
    int[] sensitiveCode = null;
    Microdata.Column s = sensitive == null ? null : data.column("--sensitive", sensitive);
    if (s != null) {
      Map<String, Integer> ids = new HashMap<>();
      sensitiveCode = new int[n];
      for (int r = 0; r < n; r++) {
        sensitiveCode[r] = ids.computeIfAbsent(s.text(r), x -> ids.size());
      }
    }
    int[] node = new int[d];
    int[] best = null;
    double bestLoss = Double.POSITIVE_INFINITY;
    boolean[] bestSuppressed = null;
    long limit = (long) Math.floor(maxSuppression * n);
    for (long i = 0; i < nodes; i++) {
      long rest = i;
      for (int q = 0; q < d; q++) {
        node[q] = (int) (rest % levels[q].cells().size());
        rest /= levels[q].cells().size();
      }
      boolean[] suppressed = new boolean[n];
      int count = suppress(node, levels, sensitiveCode, suppressed);
      if (count > limit) {
        continue;
      }
      double loss = count * (double) d;
      for (int r = 0; r < n; r++) {
        if (!suppressed[r]) {
          for (int q = 0; q < d; q++) {
            loss += levels[q].loss().get(node[q])[levels[q].cellOfRow()[node[q]][r]];
          }
        }
      }
      if (loss < bestLoss || (loss == bestLoss && Arrays.stream(node).sum() < Arrays.stream(best).sum())) {
        bestLoss = loss;
        best = node.clone();
        bestSuppressed = suppressed;
      }
    }
    String method = "full-domain generalization, k=" + k + (l > 1 ? ", distinct l=" + l : "")
        + ", max suppression " + maxSuppression;
    if (best == null) {
      // Even the top of the lattice leaves too many small classes: suppress everything.
      return new GeneralizedTable(quasiIdentifiers, numeric, new Generalization[0][d], Optional.ofNullable(s),
          new int[0], n, method);
    }
    List<Generalization[]> cells = new ArrayList<>();
    List<Integer> rows = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      if (!bestSuppressed[r]) {
        Generalization[] g = new Generalization[d];
        for (int q = 0; q < d; q++) {
          g[q] = levels[q].cells().get(best[q]).get(levels[q].cellOfRow()[best[q]][r]);
        }
        cells.add(g);
        rows.add(r);
      }
    }
    StringBuilder levelText = new StringBuilder();
    for (int q = 0; q < d; q++) {
      levelText.append(q > 0 ? ", " : "").append(quasiIdentifiers.get(q)).append(" level ").append(best[q]);
    }
    return new GeneralizedTable(quasiIdentifiers, numeric, cells.toArray(new Generalization[0][]),
        Optional.ofNullable(s), rows.stream().mapToInt(Integer::intValue).toArray(), n - rows.size(),
        method + "; " + levelText);
  }

  /** Marks rows of classes below k (or below ℓ distinct sensitive values); returns how many. */
  private int suppress(int[] node, Levels[] levels, int[] sensitive, boolean[] suppressed) {
    int n = suppressed.length;
    // A class key: the row's cell ids, mixed-radix in a long when that fits, else a list.
    double space = 1;
    for (int q = 0; q < node.length; q++) {
      space *= levels[q].cells().get(node[q]).size();
    }
    Map<Object, List<Integer>> classes = new HashMap<>();
    for (int r = 0; r < n; r++) {
      Object key;
      if (space < 0x1p62) {
        long k = 0;
        for (int q = 0; q < node.length; q++) {
          k = k * levels[q].cells().get(node[q]).size() + levels[q].cellOfRow()[node[q]][r];
        }
        key = k;
      } else {
        List<Integer> list = new ArrayList<>(node.length);
        for (int q = 0; q < node.length; q++) {
          list.add(levels[q].cellOfRow()[node[q]][r]);
        }
        key = list;
      }
      classes.computeIfAbsent(key, x -> new ArrayList<>()).add(r);
    }
    int count = 0;
    for (List<Integer> members : classes.values()) {
      boolean small = members.size() < k;
      if (!small && l > 1) {
        Set<Integer> distinct = new HashSet<>();
        for (int r : members) {
          distinct.add(sensitive[r]);
        }
        small = distinct.size() < l;
      }
      if (small) {
        for (int r : members) {
          suppressed[r] = true;
        }
        count += members.size();
      }
    }
    return count;
  }

  /** Automatic interval levels of a numeric column. */
  private static Levels intervals(Microdata.Column c) {
    double[] v = c.numbers();
    int n = v.length;
    double min = Arrays.stream(v).min().orElse(0);
    double max = Arrays.stream(v).max().orElse(0);
    double range = max - min;
    List<int[]> cellOfRow = new ArrayList<>();
    List<List<Generalization>> cells = new ArrayList<>();
    List<double[]> loss = new ArrayList<>();
    // Level 0: the values.
    double[] distinct = Arrays.stream(v).distinct().sorted().toArray();
    int[] own = new int[n];
    for (int r = 0; r < n; r++) {
      own[r] = Arrays.binarySearch(distinct, v[r]);
    }
    cellOfRow.add(own);
    cells.add(Arrays.stream(distinct).mapToObj(x -> Generalization.ofNumbers(x, x)).toList());
    loss.add(new double[distinct.length]);
    if (range > 0) {
      for (double w = nice(range / 32); w < range * 2; w *= 2) {
        Map<Double, Integer> ids = new HashMap<>();
        List<Generalization> level = new ArrayList<>();
        int[] of = new int[n];
        for (int r = 0; r < n; r++) {
          double lo = min + Math.floor((v[r] - min) / w) * w;
          final double width = w;
          of[r] = ids.computeIfAbsent(lo, x -> {
            level.add(new Generalization.Range(x, x + width, true));
            return level.size() - 1;
          });
        }
        cellOfRow.add(of);
        cells.add(level);
        double[] lost = new double[level.size()];
        Arrays.fill(lost, Math.min(1, w / range));
        loss.add(lost);
        if (w >= range) {
          break;
        }
      }
    }
    cellOfRow.add(new int[n]);
    cells.add(List.of(Generalization.ANY));
    loss.add(new double[] {1});
    return new Levels(cellOfRow.toArray(new int[0][]), cells, loss);
  }

  /** The smallest of 1, 2, 5 × 10ʲ at least x. */
  static double nice(double x) {
    double p = Math.pow(10, Math.floor(Math.log10(x)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * p >= x) {
        return m * p;
      }
    }
    return 10 * p;
  }

  /** Levels of a categorical (or hierarchy-given) column: each level's cell lists its values. */
  private static Levels categorical(Microdata.Column c, Hierarchies hierarchies) {
    String[] text = new String[c.size()];
    Arrays.setAll(text, c::text);
    TreeSet<String> domain = new TreeSet<>(Arrays.asList(text));
    Map<String, List<String>> h = hierarchies.of(c.name()).orElse(null);
    int height;
    if (h == null) {
      height = 2;
    } else {
      for (String v : domain) {
        if (!h.containsKey(v)) {
          throw new IllegalArgumentException("--hierarchies: column '" + c.name()
              + "' has a value that its hierarchy does not list");
        }
      }
      height = h.values().iterator().next().size();
    }
    int n = text.length;
    int[][] cellOfRow = new int[height][n];
    List<List<Generalization>> cells = new ArrayList<>();
    List<double[]> loss = new ArrayList<>();
    for (int lv = 0; lv < height; lv++) {
      final int level = lv;
      // Group the domain's values by their label at this level.
      Map<String, TreeSet<String>> groups = new HashMap<>();
      for (String v : domain) {
        String label = h == null ? (level == 0 ? v : "*") : h.get(v).get(level);
        groups.computeIfAbsent(label, x -> new TreeSet<>()).add(v);
      }
      Map<String, Integer> ids = new HashMap<>();
      List<Generalization> level0 = new ArrayList<>();
      List<Double> lost = new ArrayList<>();
      for (int r = 0; r < n; r++) {
        String label = h == null ? (level == 0 ? text[r] : "*") : h.get(text[r]).get(level);
        cellOfRow[level][r] = ids.computeIfAbsent(label, x -> {
          TreeSet<String> members = groups.get(x);
          Generalization g = x.equals("*") ? Generalization.ANY
              : members.size() == 1 && level == 0 ? pointOf(c, members.first())
              : Generalization.ofLabels(members, domain.size());
          level0.add(g);
          lost.add(g instanceof Generalization.Any ? 1.0
              : domain.size() > 1 ? (members.size() - 1) / (double) (domain.size() - 1) : 0);
          return level0.size() - 1;
        });
      }
      cells.add(level0);
      loss.add(lost.stream().mapToDouble(Double::doubleValue).toArray());
    }
    return new Levels(cellOfRow, cells, loss);
  }

  private static Generalization pointOf(Microdata.Column c, String text) {
    return c.numeric() ? new Generalization.Point(text, Double.parseDouble(text)) : new Generalization.Point(text, Double.NaN);
  }
}
