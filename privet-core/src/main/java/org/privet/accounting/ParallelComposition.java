package org.privet.accounting;

import java.util.List;

/**
 * Parallel composition (McSherry 2009, "Privacy integrated queries", Thm. 4): mechanisms applied to
 * disjoint parts of the data, where each privacy unit lies in at most one part, cost the maximum of
 * their losses, not the sum. The parts must be chosen without looking at the data values (e.g. a
 * public partition key).
 */
public final class ParallelComposition {
  private ParallelComposition() {}

  /**
   * The loss of running each event on its own disjoint part: the maximum ε (and δ, ρ). All pure →
   * {@link PureDp}; all zCDP → {@link Zcdp}; zCDP and δ-approximate zCDP → {@link ApproxZcdp}
   * with the maximum ρ and δ; pure and approximate mixed → {@link ApproxDp} with the
   * maximum ε and the maximum δ.
   */
  public static PrivacyLoss of(List<? extends PrivacyLoss> events) {
    if (events.isEmpty()) {
      return new PureDp(0.0);
    }
    if (events.stream().allMatch(e -> e instanceof Zcdp)) {
      return new Zcdp(events.stream().mapToDouble(e -> ((Zcdp) e).rho()).max().orElse(0));
    }
    if (events.stream().allMatch(e -> e instanceof Zcdp || e instanceof ApproxZcdp)) {
      double rho = 0;
      double delta = 0;
      for (PrivacyLoss e : events) {
        rho = Math.max(rho, EventMeasures.zcdpRho(e, "parallel composition"));
        delta = Math.max(delta, EventMeasures.zcdpDelta(e));
      }
      return new ApproxZcdp(rho, delta);
    }
    double eps = 0;
    double delta = 0;
    boolean pure = true;
    for (PrivacyLoss e : events) {
      ApproxDp a = EventMeasures.asApproxDpIfDirect(e);
      if (a == null) {
        throw new IllegalArgumentException(
            "parallel composition needs all events pure/approximate DP or all (approximate) zCDP; got "
                + e.getClass().getSimpleName());
      }
      pure &= a.delta() == 0;
      eps = Math.max(eps, a.epsilon());
      delta = Math.max(delta, a.delta());
    }
    return pure ? new PureDp(eps) : new ApproxDp(eps, delta);
  }
}
