package org.privet.testing;

/**
 * The Clopper–Pearson (1934) exact binomial confidence interval: the bounds are quantiles of Beta
 * distributions, B(α/2; k, n−k+1) and B(1−α/2; k+1, n−k), found by bisection on the regularized
 * incomplete beta function. Its coverage is at least the nominal level for every p.
 */
public final class ClopperPearson {
  private ClopperPearson() {}

  /** A two-sided interval [lower, upper] for a binomial proportion. */
  public record Interval(double lower, double upper) {}

  /**
   * The two-sided interval at the given confidence (e.g. 0.99).
   *
   * @throws IllegalArgumentException unless 0 ≤ successes ≤ trials, trials &gt; 0, confidence in (0,1)
   */
  public static Interval interval(long successes, long trials, double confidence) {
    check(successes, trials, confidence);
    double alpha = 1 - confidence;
    return new Interval(lowerBound(successes, trials, alpha / 2), upperBound(successes, trials, alpha / 2));
  }

  /** A one-sided lower bound: P[p &lt; bound] ≤ α over the sampling (level 1 − α). */
  public static double lowerBound(long successes, long trials, double alpha) {
    check(successes, trials, 1 - alpha);
    if (successes == 0) {
      return 0.0;
    }
    // Largest p with P[Bin(n, p) >= k] <= alpha, i.e. I_p(k, n-k+1) <= alpha.
    return bisect(p -> Gamma.regularizedBeta(p, successes, trials - successes + 1.0) - alpha);
  }

  /** A one-sided upper bound: P[p &gt; bound] ≤ α over the sampling (level 1 − α). */
  public static double upperBound(long successes, long trials, double alpha) {
    check(successes, trials, 1 - alpha);
    if (successes == trials) {
      return 1.0;
    }
    // Smallest p with P[Bin(n, p) <= k] <= alpha, i.e. 1 - I_p(k+1, n-k) <= alpha.
    return bisect(p -> (1 - Gamma.regularizedBeta(p, successes + 1.0, (double) trials - successes)) - alpha, true);
  }

  private static double bisect(java.util.function.DoubleUnaryOperator f) {
    return bisect(f, false);
  }

  /** Root of a monotone function on [0, 1]: increasing unless {@code decreasing}. */
  private static double bisect(java.util.function.DoubleUnaryOperator f, boolean decreasing) {
    double lo = 0;
    double hi = 1;
    for (int i = 0; i < 100; i++) {
      double mid = (lo + hi) / 2;
      double v = f.applyAsDouble(mid);
      if ((v < 0) != decreasing) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return decreasing ? hi : lo;
  }

  private static void check(long successes, long trials, double confidence) {
    if (trials <= 0) {
      throw new IllegalArgumentException("trials must be positive, was " + trials);
    }
    if (successes < 0 || successes > trials) {
      throw new IllegalArgumentException("successes must be in [0, trials], was " + successes);
    }
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
    }
  }
}
