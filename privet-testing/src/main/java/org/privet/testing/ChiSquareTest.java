package org.privet.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * Pearson's chi-square goodness-of-fit test of observed counts against exact cell probabilities.
 * Adjacent cells are pooled (in order) until each pooled cell expects at least
 * {@value #MIN_EXPECTED} observations, so the χ² approximation holds; the p-value is
 * Q((k−1)/2, X²/2) for k pooled cells.
 */
public final class ChiSquareTest {
  /** The minimum expected count per pooled cell. */
  public static final double MIN_EXPECTED = 5.0;

  private ChiSquareTest() {}

  /** The outcome: statistic X², degrees of freedom and p-value. */
  public record Result(double statistic, int degreesOfFreedom, double pValue) {}

  /**
   * Tests observed counts against cell probabilities (which should sum to 1; the last cell should
   * be the remainder of the support, e.g. "all other values").
   *
   * @throws IllegalArgumentException if lengths differ, a probability is negative, or fewer than
   *     two pooled cells remain
   */
  public static Result goodnessOfFit(long[] observed, double[] probabilities) {
    if (observed.length != probabilities.length) {
      throw new IllegalArgumentException("observed and probabilities must have the same length");
    }
    long n = 0;
    for (long o : observed) {
      n += o;
    }
    List<double[]> cells = new ArrayList<>(); // {observed, expected}
    double accObs = 0;
    double accExp = 0;
    for (int i = 0; i < observed.length; i++) {
      if (probabilities[i] < 0 || Double.isNaN(probabilities[i])) {
        throw new IllegalArgumentException("probabilities must be non-negative");
      }
      accObs += observed[i];
      accExp += n * probabilities[i];
      if (accExp >= MIN_EXPECTED) {
        cells.add(new double[] {accObs, accExp});
        accObs = 0;
        accExp = 0;
      }
    }
    if (accExp > 0 || accObs > 0) {
      if (cells.isEmpty()) {
        cells.add(new double[] {accObs, accExp});
      } else {
        double[] last = cells.get(cells.size() - 1);
        last[0] += accObs;
        last[1] += accExp;
      }
    }
    if (cells.size() < 2) {
      throw new IllegalArgumentException("need at least two cells with enough expected observations");
    }
    double stat = 0;
    for (double[] c : cells) {
      if (c[1] == 0) {
        if (c[0] > 0) {
          return new Result(Double.POSITIVE_INFINITY, cells.size() - 1, 0.0);
        }
        continue;
      }
      double diff = c[0] - c[1];
      stat += diff * diff / c[1];
    }
    int df = cells.size() - 1;
    return new Result(stat, df, Gamma.regularizedQ(df / 2.0, stat / 2.0));
  }

  /**
   * Bins integer samples into cells {@code lo, lo+1, …, hi} plus two tail cells
   * ({@code < lo} first, {@code > hi} last), the layout {@link #goodnessOfFit} expects with
   * probabilities from {@link #probabilities}.
   */
  public static long[] histogram(long[] samples, long lo, long hi) {
    long[] counts = new long[(int) (hi - lo + 3)];
    for (long s : samples) {
      int cell = s < lo ? 0 : s > hi ? counts.length - 1 : (int) (s - lo + 1);
      counts[cell]++;
    }
    return counts;
  }

  /**
   * Cell probabilities in the layout of {@link #histogram} from a probability mass function that
   * decreases away from [lo, hi]: the tail cells sum the pmf outward until terms fall below
   * 10<sup>−20</sup> of the running sum (or 10<sup>7</sup> terms).
   */
  public static double[] probabilities(java.util.function.LongToDoubleFunction pmf, long lo, long hi) {
    double[] p = new double[(int) (hi - lo + 3)];
    for (long v = lo; v <= hi; v++) {
      p[(int) (v - lo + 1)] = pmf.applyAsDouble(v);
    }
    p[0] = tailSum(pmf, lo - 1, -1);
    p[p.length - 1] = tailSum(pmf, hi + 1, +1);
    return p;
  }

  private static double tailSum(java.util.function.LongToDoubleFunction pmf, long start, int step) {
    double sum = 0;
    long v = start;
    for (int i = 0; i < 10_000_000; i++, v += step) {
      double t = pmf.applyAsDouble(v);
      sum += t;
      if (t <= 1e-20 * sum || t == 0) {
        break;
      }
    }
    return sum;
  }
}
