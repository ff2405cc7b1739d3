package org.privet.anonymity.attacks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.PrivacyFilter;
import org.privet.mechanisms.LaplaceMechanism;
import org.privet.random.RandomSource;

/**
 * Attack 4, reconstruction: Dinur &amp; Nissim, "Revealing information while preserving privacy",
 * PODS 2003.
 *
 * <p>A secret bit column x ∈ {0,1}ⁿ; the attacker asks m subset counts Σ_{i∈S} xᵢ for random subsets
 * S (each row in with probability ½) and solves the least-squares problem min ‖A x̂ − b‖² (A the
 * m × n subset matrix, b the answers), regularized towards the share of ones c that the answers
 * themselves estimate (x̂ = c + (AᵀA + λI)⁻¹ Aᵀ (b − A·c), the Gaussian-prior MAP estimate with
 * λ = noise variance / ¼), then rounds x̂ at ½. Dinur and
 * Nissim show that answers with error o(√n) to O(n log² n) such queries let the attacker recover
 * all but o(n) bits; with exact answers, m ≥ n random subsets already determine x.
 *
 * <p>With DP answers, each count goes through the Laplace mechanism at ε/m, admitted by
 * privet-core's accountant ({@link PrivacyFilter} with basic composition) within ε in total. For a
 * uniformly random secret bit, ε-DP caps any attacker's chance of guessing it right at
 * e^ε/(1 + e^ε) (0.731 at ε = 1; see Wasserman &amp; Zhou, JASA 2010, on DP as a bound on tests), and
 * the least-squares attacker lands at chance: a coin flip, or guessing the commoner value. The bound's
 * derivation: docs/proofs/attack-bounds.md.
 */
public final class ReconstructionAttack {
  private ReconstructionAttack() {}

  /**
   * Recovery for one number of queries: from exact answers, from exact answers under a
   * query-set-size restriction of k, and from DP answers.
   */
  public record Point(int queries, double exactRecovered, double restrictedRecovered, double dpRecovered) {}

  /** The outcome on one secret column. */
  public record Outcome(int n, double epsilon, int k, double majority, List<Point> points) {

    /**
     * The most any attacker recovers, in expectation, of bits drawn independently with this column's
     * prevalence under ε-DP: max(majority, e^ε/(1 + e^ε)). (A guess of one bit is a test between its
     * two values; with a = P[guess 1 | 1] ≤ e^ε P[guess 1 | 0] = e^ε b and 1 − b ≤ e^ε (1 − a), the
     * success p·a + (1 − p)(1 − b) peaks at a vertex: always guessing one value, or a = 1 − b =
     * e^ε/(1 + e^ε).)
     */
    public double dpBound() {
      return Math.max(majority, bound(epsilon));
    }
  }

  /**
   * e^ε/(1 + e^ε): the most any attacker recovers of uniformly random bits under ε-DP ({@link
   * org.privet.accounting.ApproxDp#bestTestAccuracy} at δ = 0).
   */
  public static double bound(double epsilon) {
    return new org.privet.accounting.ApproxDp(epsilon, 0).bestTestAccuracy();
  }

  /** Recovers {@code secret} from {@code queries} random subset counts, exact ({@code epsilon} NaN) or DP. */
  public static boolean[] reconstruct(boolean[] secret, int queries, double epsilon, RandomSource random) {
    return reconstruct(secret, queries, epsilon, 0, random);
  }

  /**
   * As {@link #reconstruct(boolean[], int, double, RandomSource)}, against a curator that refuses
   * counts over fewer than {@code minQuerySetSize} rows: the query-set-size restriction, the
   * aggregate analogue of k-anonymity (Denning &amp; Schlörer 1983 showed it does not stop trackers).
   */
  public static boolean[] reconstruct(boolean[] secret, int queries, double epsilon, int minQuerySetSize,
      RandomSource random) {
    int n = secret.length;
    double[][] a = new double[queries][n];
    double[] b = new double[queries];
    PrivacyFilter budget = Double.isNaN(epsilon) ? null
        : new PrivacyFilter(BasicAccountant.INSTANCE, new ApproxDp(epsilon, 0));
    LaplaceMechanism laplace = Double.isNaN(epsilon) ? null
        : LaplaceMechanism.builder().epsilon(epsilon / queries).sensitivity(1).randomSource(random).build();
    int answered = 0;
    for (int q = 0; q < queries; q++) {
      long count = 0;
      int size = 0;
      java.util.Arrays.fill(a[answered], 0);
      for (int i = 0; i < n; i++) {
        if (random.nextBoolean()) {
          a[answered][i] = 1;
          count += secret[i] ? 1 : 0;
          size++;
        }
      }
      if (size < minQuerySetSize) {
        continue; // refused by the curator's query-set-size rule
      }
      if (laplace != null && !budget.tryAdmit(laplace.privacyLoss())) {
        break; // the accountant refuses: the attacker works with the answers it has
      }
      b[answered++] = laplace == null ? count : laplace.release(count);
    }
    double variance = laplace == null ? 0 : 2 * laplace.scale() * laplace.scale();
    double lambda = Math.max(1e-9, variance / 0.25);
    // The prior mean: the column's share of ones as the answers themselves estimate it.
    double answeredSum = 0;
    double setSizes = 0;
    for (int q = 0; q < answered; q++) {
      answeredSum += b[q];
      for (int i = 0; i < n; i++) {
        setSizes += a[q][i];
      }
    }
    double center = setSizes == 0 ? 0.5 : Math.min(1, Math.max(0, answeredSum / setSizes));
    // Normal equations around the prior mean c: (AᵀA + λI) y = Aᵀ(b − A·c), x̂ = c + y.
    double[][] m = new double[n][n];
    double[] rhs = new double[n];
    for (int q = 0; q < answered; q++) {
      double[] row = a[q];
      double prior = 0;
      for (int i = 0; i < n; i++) {
        prior += row[i] * center;
      }
      double r = b[q] - prior;
      for (int i = 0; i < n; i++) {
        if (row[i] != 0) {
          rhs[i] += r;
          for (int j = 0; j < n; j++) {
            m[i][j] += row[j];
          }
        }
      }
    }
    for (int i = 0; i < n; i++) {
      m[i][i] += lambda;
    }
    double[] y = Cholesky.solve(m, rhs);
    boolean[] guess = new boolean[n];
    for (int i = 0; i < n; i++) {
      guess[i] = center + y[i] >= 0.5;
    }
    return guess;
  }

  static double agreement(boolean[] a, boolean[] b) {
    int same = 0;
    for (int i = 0; i < a.length; i++) {
      same += a[i] == b[i] ? 1 : 0;
    }
    return same / (double) a.length;
  }

  /**
   * Runs the attack for each number of queries: exact, exact with query sets of at least {@code k}
   * rows, and at total ε.
   */
  public static Outcome run(boolean[] secret, int[] queryCounts, double epsilon, int k, RandomSource random) {
    int ones = 0;
    for (boolean s : secret) {
      ones += s ? 1 : 0;
    }
    double majority = Math.max(ones, secret.length - ones) / (double) secret.length;
    List<Point> points = new ArrayList<>();
    for (int m : queryCounts) {
      double exact = agreement(secret, reconstruct(secret, m, Double.NaN, random));
      double restricted = agreement(secret, reconstruct(secret, m, Double.NaN, k, random));
      double dp = agreement(secret, reconstruct(secret, m, epsilon, random));
      points.add(new Point(m, exact, restricted, dp));
    }
    return new Outcome(secret.length, epsilon, k, majority, points);
  }

  public static String summary(Outcome o) {
    StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
        "Reconstruction of a secret bit column of n = %d rows from m random subset counts (least squares):%n",
        o.n()));
    s.append(String.format(Locale.ROOT, "%10s %15s %26s %26s%n", "queries m", "exact answers",
        "exact, query sets >= " + o.k(), "DP answers (eps = " + HtmlReport.number(o.epsilon()) + " total)"));
    for (Point p : o.points()) {
      s.append(String.format(Locale.ROOT, "%10d %15s %26s %26s%n", p.queries(), HtmlReport.percent(p.exactRecovered()),
          HtmlReport.percent(p.restrictedRecovered()), HtmlReport.percent(p.dpRecovered())));
    }
    s.append(String.format(Locale.ROOT,
        "Chance: 50%% (coin flip), %s (always guess the commoner value). Under the DP answers no attacker%n"
            + "recovers more than %s in expectation (max of the commoner value and e^eps/(1+e^eps)).%n",
        HtmlReport.percent(o.majority()), HtmlReport.percent(o.dpBound())));
    return s.toString();
  }

  public static void report(HtmlReport html, Outcome o, String setup) {
    html.heading("Attack 4: reconstruction from subset counts (Dinur-Nissim)");
    html.paragraph(setup);
    html.pre(summary(o));
    double[] x = o.points().stream().mapToDouble(Point::queries).toArray();
    double[] half = new double[x.length];
    double[] major = new double[x.length];
    java.util.Arrays.fill(half, 0.5);
    java.util.Arrays.fill(major, o.majority());
    html.lineChart("Fraction of the secret column recovered against the number of queries", "queries m (log scale)",
        "fraction recovered", List.of(
            new HtmlReport.Series("exact answers", x, o.points().stream().mapToDouble(Point::exactRecovered).toArray(), "#c0392b"),
            new HtmlReport.Series("exact, sets >= " + o.k(), x,
                o.points().stream().mapToDouble(Point::restrictedRecovered).toArray(), "#e67e22", true),
            new HtmlReport.Series("DP, eps = " + HtmlReport.number(o.epsilon()), x,
                o.points().stream().mapToDouble(Point::dpRecovered).toArray(), "#2471a3"),
            new HtmlReport.Series("coin flip", x, half, "#777", true),
            new HtmlReport.Series("commoner value", x, major, "#aaa", true)), true);
  }
}
