package org.privet.stattests.accuracy;

import java.util.Arrays;
import java.util.Random;

/**
 * The textbook plan, computed here independently of the engine (no engine formula, class or
 * mechanism is used): the total budget split equally over the K outputs (and, with private
 * partition selection, over K + 1 parts, selection one of them, as PipelineDP's default weights),
 * each output an independent measurement, its part split equally over its noisy statistics:
 * <ul>
 *   <li>COUNT, COUNT(col), COUNT(DISTINCT unit), SUM, each histogram: one noisy vector;
 *   <li>AVG: a sum centred at the range's midpoint and a count, half each (Google's BoundedMean,
 *       OpenDP's mean), mean = c + S/max(1, N), clamped to the range;
 *   <li>VARIANCE/STDDEV: centred sum, centred sum of squares and count, a third each (Google's
 *       BoundedVariance), clamped to [0, ((hi − lo)/2)²];
 *   <li>PERCENTILE_CONT: Google's BoundedQuantiles tree (branching 16, height 4, every level
 *       noised, descent by noisy child counts, linear interpolation in the leaf).
 * </ul>
 * Noise: Laplace with scale Δ₁/ε (variance 2(Δ₁/ε)²) for ε budgets, Gaussian with variance
 * Δ₂²/(2ρ) for ρ budgets (Bun & Steinke 2016, Prop. 1.6), with the per-unit sensitivities of
 * L0 groups × L∞ rows: Δ₁ = L0·L∞·r, Δ₂ = √L0·L∞·r, r the largest per-row change (1 for counts,
 * max(|lo|, |hi|) for a sum, (hi − lo)/2 for a centred sum, its square for squares; a distinct-unit
 * count has L∞ = 1; a tree Δ₁ = L0·L∞·H, Δ₂ = √(L0·H)·L∞).
 */
final class Textbook {
  static final int TREE_BRANCHING = 16;
  static final int TREE_HEIGHT = 4;

  /** Budget family and contribution bounds of a plan. */
  record Plan(boolean rho, double total, int outputs, boolean privateSelection, int l0,
      int lInf) {
    /** The budget (ε or ρ) of one output. */
    double perOutput() {
      return total / (outputs + (privateSelection ? 1 : 0));
    }

    /** Noise variance of a statistic with per-row change r read at budget b, L∞ {@code linf}. */
    double variance(double r, double b, int linf) {
      if (rho) {
        double d2 = Math.sqrt(l0) * linf * r;
        return d2 * d2 / (2 * b);
      }
      double d1 = (double) l0 * linf * r;
      return 2 * (d1 / b) * (d1 / b);
    }

    double sample(Random random, double variance) {
      if (rho) {
        return Math.sqrt(variance) * random.nextGaussian();
      }
      double scale = Math.sqrt(variance / 2);
      return scale * (Math.log(random.nextDouble()) - Math.log(random.nextDouble()));
    }
  }

  private Textbook() {}

  /** MSE of a count (or histogram cell) of rows. */
  static double countMse(Plan p) {
    return p.variance(1, p.perOutput(), p.lInf());
  }

  /** MSE of a distinct-unit count (each unit counts once per group). */
  static double distinctMse(Plan p) {
    return p.variance(1, p.perOutput(), 1);
  }

  /** MSE of a sum over [lo, hi] (uncentred: the sum is of the clamped values themselves). */
  static double sumMse(Plan p, double lo, double hi) {
    return p.variance(Math.max(Math.abs(lo), Math.abs(hi)), p.perOutput(), p.lInf());
  }

  /** MSE of the textbook mean by simulation ({@code draws} draws). */
  static double meanMse(Plan p, SyntheticTables.GroupTruth t, double lo, double hi, int draws,
      long seed) {
    Random random = new Random(seed);
    double c = (lo + hi) / 2;
    double b = p.perOutput() / 2;
    double vs = p.variance((hi - lo) / 2, b, p.lInf());
    double vn = p.variance(1, b, p.lInf());
    double n = t.sortedValues().length;
    double s = t.sum() - c * n;
    double truth = t.mean();
    double se = 0;
    for (int i = 0; i < draws; i++) {
      double nn = Math.max(1, n + p.sample(random, vn));
      double m = Math.max(lo, Math.min(hi, c + (s + p.sample(random, vs)) / nn));
      se += (m - truth) * (m - truth);
    }
    return se / draws;
  }

  /** MSE of the textbook variance (or, with {@code sqrt}, standard deviation) by simulation. */
  static double varianceMse(Plan p, SyntheticTables.GroupTruth t, double lo, double hi,
      boolean sqrt, int draws, long seed) {
    Random random = new Random(seed);
    double c = (lo + hi) / 2;
    double h = (hi - lo) / 2;
    double b = p.perOutput() / 3;
    double vs = p.variance(h, b, p.lInf());
    double vq = p.variance(h * h, b, p.lInf());
    double vn = p.variance(1, b, p.lInf());
    double n = t.sortedValues().length;
    double s = Arrays.stream(t.sortedValues()).map(v -> v - c).sum();
    double q = Arrays.stream(t.sortedValues()).map(v -> (v - c) * (v - c)).sum();
    double truth = sqrt ? Math.sqrt(t.variance()) : t.variance();
    double se = 0;
    for (int i = 0; i < draws; i++) {
      double nn = Math.max(1, n + p.sample(random, vn));
      double ms = (s + p.sample(random, vs)) / nn;
      double v = Math.max(0, Math.min(h * h, (q + p.sample(random, vq)) / nn - ms * ms));
      double e = (sqrt ? Math.sqrt(v) : v) - truth;
      se += e * e;
    }
    return se / draws;
  }

  /**
   * MSE of Google's BoundedQuantiles tree for the quantile {@code rank} by simulation: only the
   * nodes on the descent path are noised (the others do not affect the answer).
   */
  static double quantileMse(Plan p, SyntheticTables.GroupTruth t, double lo, double hi,
      double rank, int draws, long seed) {
    Random random = new Random(seed);
    double[] v = t.sortedValues();
    double truth = t.percentile(rank);
    double node = p.rho()
        ? Math.pow(Math.sqrt((double) p.l0() * TREE_HEIGHT) * p.lInf(), 2) / (2 * p.perOutput())
        : 2 * Math.pow((double) p.l0() * p.lInf() * TREE_HEIGHT / p.perOutput(), 2);
    double se = 0;
    double[] counts = new double[TREE_BRANCHING];
    for (int i = 0; i < draws; i++) {
      double a = lo;
      double w = hi - lo;
      double want = rank; // the fraction of the current node's mass still to pass
      for (int level = 0; level < TREE_HEIGHT; level++) {
        double cw = w / TREE_BRANCHING;
        double total = 0;
        for (int k = 0; k < TREE_BRANCHING; k++) {
          double from = a + k * cw;
          double to = a + (k + 1) * cw;
          boolean last = to >= hi;
          double exact = count(v, from, to, last);
          counts[k] = Math.max(0, exact + p.sample(random, node));
          total += counts[k];
        }
        int k = 0;
        double target = want * total;
        double before = 0;
        while (k < TREE_BRANCHING - 1 && before + counts[k] < target) {
          before += counts[k];
          k++;
        }
        want = counts[k] > 0 ? Math.max(0, Math.min(1, (target - before) / counts[k])) : 0.5;
        a = a + k * cw;
        w = cw;
      }
      double est = a + want * w;
      se += (est - truth) * (est - truth);
    }
    return se / draws;
  }

  /** Values of sorted {@code v} in [from, to) (or [from, to] when {@code last}). */
  private static double count(double[] v, double from, double to, boolean last) {
    return upper(v, to, last) - upper(v, from, false);
  }

  /** The number of values < x (or ≤ x when {@code inclusive}). */
  private static int upper(double[] v, double x, boolean inclusive) {
    int lo = 0;
    int hi = v.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (v[mid] < x || (inclusive && v[mid] == x)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
