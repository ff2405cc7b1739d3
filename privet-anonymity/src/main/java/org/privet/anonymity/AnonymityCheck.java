package org.privet.anonymity;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Measures a generalized table: k and the class-size distribution, distinct ℓ-diversity,
 * t-closeness, and information loss.
 *
 * <ul>
 *   <li><b>k-anonymity</b> (Samarati &amp; Sweeney 1998; Sweeney, IJUFKS 2002): every class of rows
 *       with equal quasi-identifiers has at least k rows.
 *   <li><b>Distinct ℓ-diversity</b> (Machanavajjhala, Kifer, Gehrke &amp; Venkitasubramaniam,
 *       TKDD 2007): every class holds at least ℓ distinct sensitive values.
 *   <li><b>t-closeness</b> (Li, Li &amp; Venkatasubramanian, ICDE 2007): every class's distribution
 *       P of the sensitive value is within Earth Mover's Distance t of the table's distribution Q.
 *       Categorical values use the equal distance, EMD = ½ Σ |pᵢ − qᵢ|; numeric values the
 *       ordered distance over the table's m sorted distinct values, EMD = (1/(m−1)) Σᵢ |Σ_{j≤i}
 *       (pⱼ − qⱼ)| (the paper's Section 4.2 formulas).
 *   <li><b>Generalized information loss</b> (Iyengar, KDD 2002; as normalized by Byun et al.,
 *       DASFAA 2007): a numeric cell [a..b] loses (b − a)/(max − min) of the column's range, a
 *       categorical cell with s of the domain's |D| values (s − 1)/(|D| − 1); averaged over all
 *       cells, suppressed rows counting 1.
 *   <li><b>Discernibility</b> (Bayardo &amp; Agrawal, ICDE 2005): Σ |E|² over classes E, plus
 *       (input rows) for each suppressed row.
 *   <li><b>Marginal workload error</b>: every 1-way and 2-way marginal on the quasi-identifiers and
 *       the sensitive column, estimated from the generalized table by spreading each row uniformly
 *       over the original values its cell covers (independently per column), compared with the
 *       original's by total variation distance ½ Σ |p − p̂|.
 * </ul>
 */
public final class AnonymityCheck {
  private AnonymityCheck() {}

  /**
   * Measures {@code table}; {@code original} (may be null) is the input it was made from, holding
   * the same quasi-identifier and sensitive columns, for GIL's domains and the marginal error.
   */
  public static AnonymityReport check(GeneralizedTable table, Microdata original) {
    List<int[]> classes = table.classes();
    TreeMap<Integer, Integer> sizes = new TreeMap<>();
    int k = table.rows() == 0 ? 0 : Integer.MAX_VALUE;
    double discernibility = (double) table.suppressed() * table.inputRows();
    for (int[] c : classes) {
      sizes.merge(c.length, 1, Integer::sum);
      k = Math.min(k, c.length);
      discernibility += (double) c.length * c.length;
    }
    OptionalInt l = OptionalInt.empty();
    OptionalDouble t = OptionalDouble.empty();
    String distance = "";
    if (table.sensitive().isPresent()) {
      Microdata.Column s = table.sensitive().get();
      String[] labels = s.asCategorical().labels();
      int minL = table.rows() == 0 ? 0 : Integer.MAX_VALUE;
      for (int[] c : classes) {
        minL = Math.min(minL, (int) Arrays.stream(c).mapToObj(r -> labels[table.sourceRows()[r]]).distinct().count());
      }
      l = OptionalInt.of(minL);
      t = OptionalDouble.of(tCloseness(table, classes));
      distance = s.numeric() ? "ordered" : "equal";
    }
    double gil = gil(table, original);
    double[] marginal = original == null ? null : marginalErrors(table, original);
    return new AnonymityReport(table.rows(), table.suppressed(), k, sizes, classes.size(), l, t, distance, gil,
        discernibility,
        marginal == null || marginal.length == 0 ? OptionalDouble.empty() : OptionalDouble.of(Arrays.stream(marginal).average().orElse(0)),
        marginal == null || marginal.length == 0 ? OptionalDouble.empty() : OptionalDouble.of(Arrays.stream(marginal).max().orElse(0)),
        marginal == null ? 0 : marginal.length);
  }

  /** The largest EMD between a class's sensitive distribution and the released table's. */
  static double tCloseness(GeneralizedTable table, List<int[]> classes) {
    Microdata.Column s = table.sensitive().orElseThrow();
    int[] code = new int[table.rows()];
    int m;
    if (s.numeric()) {
      double[] distinct = Arrays.stream(table.sourceRows()).mapToDouble(r -> s.numbers()[r]).distinct().sorted().toArray();
      for (int r = 0; r < code.length; r++) {
        code[r] = Arrays.binarySearch(distinct, s.numbers()[table.sourceRows()[r]]);
      }
      m = distinct.length;
    } else {
      String[] distinct = Arrays.stream(table.sourceRows()).mapToObj(r -> s.labels()[r]).distinct().sorted().toArray(String[]::new);
      for (int r = 0; r < code.length; r++) {
        code[r] = Arrays.binarySearch(distinct, s.labels()[table.sourceRows()[r]]);
      }
      m = distinct.length;
    }
    double[] q = new double[m];
    for (int c : code) {
      q[c] += 1.0 / code.length;
    }
    double worst = 0;
    for (int[] cls : classes) {
      double[] p = new double[m];
      for (int r : cls) {
        p[code[r]] += 1.0 / cls.length;
      }
      worst = Math.max(worst, s.numeric() ? orderedEmd(p, q) : equalEmd(p, q));
    }
    return worst;
  }

  /** EMD under the equal ground distance: ½ Σ |pᵢ − qᵢ| (Li et al. 2007, Section 4.2). */
  public static double equalEmd(double[] p, double[] q) {
    double sum = 0;
    for (int i = 0; i < p.length; i++) {
      sum += Math.abs(p[i] - q[i]);
    }
    return sum / 2;
  }

  /**
   * EMD under the ordered ground distance |i − j|/(m − 1) over m ordered values: (1/(m−1)) Σᵢ
   * |Σ_{j≤i} (pⱼ − qⱼ)| (Li et al. 2007, Section 4.2); 0 when m = 1.
   */
  public static double orderedEmd(double[] p, double[] q) {
    int m = p.length;
    if (m <= 1) {
      return 0;
    }
    double prefix = 0;
    double sum = 0;
    for (int i = 0; i < m - 1; i++) {
      prefix += p[i] - q[i];
      sum += Math.abs(prefix);
    }
    return sum / (m - 1);
  }

  private static double gil(GeneralizedTable table, Microdata original) {
    int d = table.quasiIdentifiers().size();
    if (table.inputRows() == 0 || d == 0) {
      return 0;
    }
    double total = (double) table.suppressed() * d;
    for (int q = 0; q < d; q++) {
      String name = table.quasiIdentifiers().get(q);
      Microdata.Column o = original == null ? null : original.find(name).orElse(null);
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      TreeSet<String> domain = new TreeSet<>();
      if (o != null && o.numeric()) {
        lo = Arrays.stream(o.numbers()).min().orElse(0);
        hi = Arrays.stream(o.numbers()).max().orElse(0);
      } else if (o != null) {
        domain.addAll(Arrays.asList(o.labels()));
      } else {
        for (Generalization[] row : table.cells()) {
          Generalization g = row[q];
          if (g instanceof Generalization.Range r) {
            lo = Math.min(lo, r.lower());
            hi = Math.max(hi, r.upper());
          } else if (g instanceof Generalization.Point p && !Double.isNaN(p.number())) {
            lo = Math.min(lo, p.number());
            hi = Math.max(hi, p.number());
          } else if (g instanceof Generalization.Point p) {
            domain.add(p.label());
          } else if (g instanceof Generalization.Choice c) {
            domain.addAll(c.labels());
          }
        }
      }
      double span = hi - lo;
      for (Generalization[] row : table.cells()) {
        Generalization g = row[q];
        if (g instanceof Generalization.Any) {
          total += 1;
        } else if (g instanceof Generalization.Range r) {
          total += span > 0 ? Math.min(1, r.width() / span) : 0;
        } else if (g instanceof Generalization.Choice c) {
          total += domain.size() > 1 ? (c.labels().size() - 1) / (double) (domain.size() - 1) : 0;
        }
      }
    }
    return total / ((double) table.inputRows() * d);
  }

  /** Total-variation errors of every 1- and 2-way marginal on the QIs and the sensitive column. */
  private static double[] marginalErrors(GeneralizedTable table, Microdata original) {
    List<String> attrs = new ArrayList<>(table.quasiIdentifiers());
    table.sensitive().ifPresent(s -> attrs.add(s.name()));
    int a = attrs.size();
    int n = original.rows();
    if (n == 0) {
      return new double[0];
    }
    // Per attribute: the original's codes, and each released row's spread over those codes.
    int[][] codes = new int[a][n];
    int[] card = new int[a];
    List<Map<Generalization, int[]>> covers = new ArrayList<>();
    for (int i = 0; i < a; i++) {
      Microdata.Column c = original.column("--original", attrs.get(i));
      String[] text = new String[n];
      Arrays.setAll(text, r -> c.text(r));
      String[] distinctText;
      double[] distinctNum;
      if (c.numeric()) {
        distinctNum = Arrays.stream(c.numbers()).distinct().sorted().toArray();
        distinctText = Arrays.stream(distinctNum).mapToObj(Generalization::number).toArray(String[]::new);
        for (int r = 0; r < n; r++) {
          codes[i][r] = Arrays.binarySearch(distinctNum, c.numbers()[r]);
        }
      } else {
        distinctText = new TreeSet<>(Arrays.asList(c.labels())).toArray(new String[0]);
        distinctNum = new double[distinctText.length];
        Arrays.fill(distinctNum, Double.NaN);
        for (int r = 0; r < n; r++) {
          codes[i][r] = Arrays.binarySearch(distinctText, c.labels()[r]);
        }
      }
      card[i] = distinctText.length;
      final String[] dt = distinctText;
      final double[] dn = distinctNum;
      Map<Generalization, int[]> cache = new HashMap<>();
      covers.add(cache);
      for (Generalization[] row : table.cells()) {
        for (Generalization g : row) {
          cache.computeIfAbsent(g, x -> {
            List<Integer> hit = new ArrayList<>();
            for (int v = 0; v < dt.length; v++) {
              if (x.covers(dt[v], dn[v])) {
                hit.add(v);
              }
            }
            return hit.stream().mapToInt(Integer::intValue).toArray();
          });
        }
      }
    }
    // The released rows' cells per attribute (sensitive: its unchanged value).
    int rows = table.rows();
    int[][][] spread = new int[a][rows][];
    for (int i = 0; i < a; i++) {
      int[][] singletons = new int[card[i]][];
      Arrays.setAll(singletons, v -> new int[] {v});
      Map<String, Integer> codeOfText = new HashMap<>();
      if (i >= table.quasiIdentifiers().size()) {
        Microdata.Column c = original.column("--original", attrs.get(i));
        for (int r = 0; r < n; r++) {
          codeOfText.putIfAbsent(c.text(r), codes[i][r]);
        }
      }
      for (int r = 0; r < rows; r++) {
        if (i < table.quasiIdentifiers().size()) {
          spread[i][r] = covers.get(i).get(table.cells()[r][i]);
        } else {
          // The released sensitive value, located among the original's values by its text.
          Integer code = codeOfText.get(table.sensitive().get().text(table.sourceRows()[r]));
          spread[i][r] = code == null ? new int[0] : singletons[code];
        }
      }
    }
    List<Double> errors = new ArrayList<>();
    for (int i = 0; i < a; i++) {
      double[] truth = new double[card[i]];
      double[] est = new double[card[i]];
      for (int r = 0; r < n; r++) {
        truth[codes[i][r]] += 1.0 / n;
      }
      for (int r = 0; r < rows; r++) {
        int[] s = spread[i][r];
        for (int v : s) {
          est[v] += 1.0 / (n * (double) s.length);
        }
      }
      errors.add(equalEmd(truth, est));
    }
    for (int i = 0; i < a; i++) {
      for (int j = i + 1; j < a; j++) {
        Map<Long, Double> truth = new HashMap<>();
        Map<Long, Double> est = new HashMap<>();
        for (int r = 0; r < n; r++) {
          truth.merge((long) codes[i][r] * card[j] + codes[j][r], 1.0 / n, Double::sum);
        }
        // Group rows with the same pair of cells: each pair is spread once.
        Map<List<Object>, Integer> pairs = new HashMap<>();
        for (int r = 0; r < rows; r++) {
          pairs.merge(List.of(spread[i][r], spread[j][r]), 1, Integer::sum);
        }
        for (Map.Entry<List<Object>, Integer> e : pairs.entrySet()) {
          int[] si = (int[]) e.getKey().get(0);
          int[] sj = (int[]) e.getKey().get(1);
          double w = e.getValue() / (n * (double) Math.max(1, si.length) * Math.max(1, sj.length));
          for (int u : si) {
            for (int v : sj) {
              est.merge((long) u * card[j] + v, w, Double::sum);
            }
          }
        }
        double tv = 0;
        for (Map.Entry<Long, Double> e : truth.entrySet()) {
          tv += Math.abs(e.getValue() - est.getOrDefault(e.getKey(), 0.0));
        }
        for (Map.Entry<Long, Double> e : est.entrySet()) {
          if (!truth.containsKey(e.getKey())) {
            tv += e.getValue();
          }
        }
        errors.add(tv / 2);
      }
    }
    return errors.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
