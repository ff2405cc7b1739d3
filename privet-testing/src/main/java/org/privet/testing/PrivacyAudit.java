package org.privet.testing;

/**
 * Empirical privacy auditing: from counts of one event E on two neighbouring inputs, a
 * statistically valid lower bound on the ε a mechanism can satisfy.
 *
 * <p>If M is (ε, δ)-DP then P[M(x) ∈ E] ≤ e<sup>ε</sup>P[M(x') ∈ E] + δ for neighbours x, x', so
 * ε ≥ ln((p − δ)/p'). Replacing p by a one-sided Clopper–Pearson lower bound and p' by an upper
 * bound, each at level 1 − α/2, gives a lower bound that holds with probability ≥ 1 − α (union
 * bound); both directions (E and its complement, x and x' swapped) are tried, each also at level
 * 1 − α/4 so the maximum is valid (cf. Jagielski, Ullman, Oprea 2020, "Auditing Differentially
 * Private Machine Learning"; Ding et al. 2018, "Detecting Violations of Differential Privacy").
 */
public final class PrivacyAudit {
  private PrivacyAudit() {}

  /**
   * A lower bound on ε, valid with probability at least {@code confidence}, from
   * {@code hitsA} of {@code trialsA} runs on input A and {@code hitsB} of {@code trialsB} on input
   * B landing in the event (and, by complement, outside it). Returns 0 when nothing can be
   * concluded.
   */
  public static double epsilonLowerBound(long hitsA, long trialsA, long hitsB, long trialsB,
      double confidence, double delta) {
    if (!(confidence > 0 && confidence < 1)) {
      throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
    }
    if (!(delta >= 0 && delta < 1)) {
      throw new IllegalArgumentException("delta must be in [0, 1), was " + delta);
    }
    double alpha = (1 - confidence) / 8; // 4 directions, 2 bounds each
    double best = 0;
    best = Math.max(best, bound(hitsA, trialsA, hitsB, trialsB, alpha, delta));
    best = Math.max(best, bound(hitsB, trialsB, hitsA, trialsA, alpha, delta));
    best = Math.max(best, bound(trialsA - hitsA, trialsA, trialsB - hitsB, trialsB, alpha, delta));
    best = Math.max(best, bound(trialsB - hitsB, trialsB, trialsA - hitsA, trialsA, alpha, delta));
    return best;
  }

  /** The pure-DP case δ = 0. */
  public static double epsilonLowerBound(long hitsA, long trialsA, long hitsB, long trialsB, double confidence) {
    return epsilonLowerBound(hitsA, trialsA, hitsB, trialsB, confidence, 0.0);
  }

  private static double bound(long hitsP, long nP, long hitsQ, long nQ, double alpha, double delta) {
    double pLow = ClopperPearson.lowerBound(hitsP, nP, alpha) - delta;
    double qHigh = ClopperPearson.upperBound(hitsQ, nQ, alpha);
    if (pLow <= 0 || qHigh <= 0) {
      return 0;
    }
    return Math.max(0, Math.log(pLow / qHigh));
  }
}
