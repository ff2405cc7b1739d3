package org.privet.anonymity.attacks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.privet.mechanisms.LaplaceMechanism;
import org.privet.random.RandomSource;

/**
 * Attack 5, membership inference from marginals, simplified from Homer et al., "Resolving
 * individuals contributing trace amounts of DNA to highly complex mixtures using high-density SNP
 * genotyping microarrays", PLoS Genetics 4(8), 2008.
 *
 * <p>Records are one-hot vectors (one indicator per attribute value; each record has exactly
 * {@code attributes} ones). A pool of people is released as its 1-way marginals (counts of every
 * attribute value). The attacker knows the target's record y and reference frequencies p of the
 * population, and asks Homer's question, whether the pool's marginals lean towards the target,
 * with the likelihood-ratio statistic of {@link #homer}: large values say "member".
 *
 * <p>Each trial draws n − 1 other people and a target; the "in" world releases the others plus the
 * target, the "out" world the others alone (add/remove-one neighbours). Exact marginals separate the
 * worlds; DP marginals (each count plus Laplace noise of scale attributes/ε, ε-DP in total since a
 * record changes {@code attributes} counts by one) obey the hypothesis-testing bound of DP
 * (Wasserman &amp; Zhou 2010; Kairouz, Oh &amp; Viswanath 2015): for every threshold, TPR ≤ e^ε·FPR
 * + δ and 1 − FPR ≤ e^ε·(1 − TPR) + δ, with δ = 0 here (docs/proofs/attack-bounds.md).
 */
public final class MembershipAttack {
  private MembershipAttack() {}

  /** Homer statistics of the in and out trials, exact and DP. */
  public record Outcome(int pool, int features, double epsilon, double[] exactIn, double[] exactOut,
      double[] dpIn, double[] dpOut) {

    /**
     * The largest TPR − e^ε·FPR (or its mirror (1 − FPR) − e^ε·(1 − TPR)) over thresholds, and two
     * standard errors of that estimate at its threshold: {excess, 2·SE}. The DP bound says the true
     * excess is ≤ 0; the estimate carries sampling noise.
     */
    public double[] dpExcess() {
      return excess(dpIn, dpOut, epsilon);
    }
  }

  /**
   * Runs {@code trials} in/out pairs.
   *
   * @param population one-hot records (row × feature, 0/1), e.g. Adult's attribute values
   * @param reference the attacker's reference frequency of each feature (from other people)
   * @param attributes ones per record (the L1 sensitivity of the marginals)
   */
  public static Outcome run(byte[][] population, double[] reference, int attributes, int pool, double epsilon,
      int trials, RandomSource random) {
    int d = reference.length;
    LaplaceMechanism laplace = LaplaceMechanism.builder().epsilon(epsilon).sensitivity(attributes)
        .randomSource(random).build();
    double[][] stats = new double[4][trials];
    for (int t = 0; t < trials; t++) {
      int[] others = new int[pool - 1];
      for (int i = 0; i < others.length; i++) {
        others[i] = (int) random.nextLong(population.length);
      }
      byte[] target = population[(int) random.nextLong(population.length)];
      double[] counts = new double[d];
      for (int r : others) {
        for (int j = 0; j < d; j++) {
          counts[j] += population[r][j];
        }
      }
      double[] withTarget = counts.clone();
      for (int j = 0; j < d; j++) {
        withTarget[j] += target[j];
      }
      stats[0][t] = homer(target, reference, withTarget, pool);
      stats[1][t] = homer(target, reference, counts, pool);
      stats[2][t] = homer(target, reference, laplace.release(withTarget), pool);
      stats[3][t] = homer(target, reference, laplace.release(counts), pool);
    }
    return new Outcome(pool, d, epsilon, stats[0], stats[1], stats[2], stats[3]);
  }

  /**
   * The test statistic: the log-likelihood ratio of the target's values under the pool's released
   * frequencies against the population's, Σⱼ yⱼ · log((mⱼ + s)/(pⱼ + s)) with m = counts / pool and
   * smoothing s = 1/(2·pool) (negative noisy counts floor at 0). Sankararaman et al., Nature
   * Genetics 41, 2009, show this likelihood-ratio form is the most powerful test of Homer's question.
   */
  static double homer(byte[] y, double[] p, double[] counts, int pool) {
    double s = 0.5 / pool;
    double t = 0;
    for (int j = 0; j < y.length; j++) {
      if (y[j] != 0) {
        double m = Math.max(0, counts[j]) / pool;
        t += Math.log((m + s) / (p[j] + s));
      }
    }
    return t;
  }

  /** ROC points (FPR, TPR) of "member iff T &gt; τ" over all thresholds τ. */
  public static double[][] roc(double[] in, double[] out) {
    double[] all = new double[in.length + out.length];
    System.arraycopy(in, 0, all, 0, in.length);
    System.arraycopy(out, 0, all, in.length, out.length);
    Arrays.sort(all);
    List<double[]> pts = new ArrayList<>();
    pts.add(new double[] {1, 1});
    double[] si = in.clone();
    double[] so = out.clone();
    Arrays.sort(si);
    Arrays.sort(so);
    for (double tau : all) {
      pts.add(new double[] {above(so, tau), above(si, tau)});
    }
    pts.add(new double[] {0, 0});
    return pts.toArray(new double[0][]);
  }

  /** The fraction of sorted values strictly above {@code tau}. */
  static double above(double[] sorted, double tau) {
    int i = Arrays.binarySearch(sorted, tau);
    if (i < 0) {
      i = -i - 1;
    } else {
      while (i < sorted.length && sorted[i] <= tau) {
        i++;
      }
    }
    return (sorted.length - i) / (double) sorted.length;
  }

  static double[] excess(double[] in, double[] out, double epsilon) {
    double e = Math.exp(epsilon);
    double worst = Double.NEGATIVE_INFINITY;
    double se = 0;
    for (double[] p : roc(in, out)) {
      double fpr = p[0];
      double tpr = p[1];
      double variance = tpr * (1 - tpr) / in.length + e * e * fpr * (1 - fpr) / out.length;
      for (double x : new double[] {tpr - e * fpr, (1 - fpr) - e * (1 - tpr)}) {
        if (x > worst) {
          worst = x;
          se = Math.sqrt(variance);
        }
      }
    }
    return new double[] {worst, 2 * se};
  }

  /** The TPR at the largest threshold whose FPR is at most {@code fpr}. */
  public static double tprAt(double[] in, double[] out, double fpr) {
    double best = 0;
    for (double[] p : roc(in, out)) {
      if (p[0] <= fpr) {
        best = Math.max(best, p[1]);
      }
    }
    return best;
  }

  public static String summary(Outcome o) {
    return String.format(Locale.ROOT,
        "Membership inference (Homer et al. 2008) from %d one-hot marginals of a pool of %d people, %d trials each way:%n"
            + "  exact marginals: TPR %s at FPR 5%%, %s at FPR 1%%%n"
            + "  DP marginals (epsilon = %s): TPR %s at FPR 5%% (DP bound: at most %s);%n"
            + "  largest excess over the bound, TPR - e^eps*FPR over all thresholds: %.3f (the bound: <= 0 for the%n"
            + "  true rates; two standard errors of this estimate: %.3f)%n",
        o.features(), o.pool(), o.exactIn().length, HtmlReport.percent(tprAt(o.exactIn(), o.exactOut(), 0.05)),
        HtmlReport.percent(tprAt(o.exactIn(), o.exactOut(), 0.01)), HtmlReport.number(o.epsilon()),
        HtmlReport.percent(tprAt(o.dpIn(), o.dpOut(), 0.05)), HtmlReport.percent(Math.min(1, Math.exp(o.epsilon()) * 0.05)),
        o.dpExcess()[0], o.dpExcess()[1]);
  }

  public static void report(HtmlReport html, Outcome o, String setup) {
    html.heading("Attack 5: membership inference from marginals");
    html.paragraph(setup);
    html.pre(summary(o));
    double[][] ex = roc(o.exactIn(), o.exactOut());
    double[][] dp = roc(o.dpIn(), o.dpOut());
    int g = 50;
    double[] bx = new double[g + 1];
    double[] by = new double[g + 1];
    for (int i = 0; i <= g; i++) {
      bx[i] = i / (double) g;
      by[i] = Math.min(1, Math.min(Math.exp(o.epsilon()) * bx[i], 1 - Math.exp(-o.epsilon()) * (1 - bx[i])));
    }
    html.lineChart("ROC of the membership test; no test on the DP release can cross the bound", "false positive rate",
        "true positive rate", List.of(
            new HtmlReport.Series("exact marginals", column(ex, 0), column(ex, 1), "#c0392b"),
            new HtmlReport.Series("DP, eps = " + HtmlReport.number(o.epsilon()), column(dp, 0), column(dp, 1), "#2471a3"),
            new HtmlReport.Series("DP bound", bx, by, "#777", true),
            new HtmlReport.Series("chance", new double[] {0, 1}, new double[] {0, 1}, "#bbb", true)), false);
  }

  private static double[] column(double[][] pts, int c) {
    return Arrays.stream(pts).mapToDouble(p -> p[c]).toArray();
  }
}
