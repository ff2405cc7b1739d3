package org.privet.accounting;

/**
 * How each kind of privacy event reads in the simple measures (pure/approximate DP and zCDP), used
 * by the accountants that work in those measures (here and in {@code org.privet.accounting.pld}).
 */
public final class EventMeasures {
  private EventMeasures() {}

  /**
   * The event as (ε, δ)-DP if it is naturally stated that way (pure or approximate DP, or a
   * mechanism with a pure-DP guarantee), else {@code null} (the event is zCDP-like).
   */
  public static ApproxDp asApproxDpIfDirect(PrivacyLoss event) {
    if (event instanceof ApproxDp a) {
      return a;
    }
    if (event instanceof PureDp p) {
      return p.toApproxDp();
    }
    if (event instanceof MechanismLoss m && !Double.isNaN(m.pureEpsilon())) {
      return new ApproxDp(m.pureEpsilon(), 0.0);
    }
    if (event instanceof PoissonSubsampled s) {
      return s.amplifiedApproxDp();
    }
    return null;
  }

  /**
   * The ρ of a zCDP-like event, or an exception naming the accountant that cannot handle it. For a
   * δ-approximate zCDP event this is its ρ only: callers must add {@link #zcdpDelta} to their δ.
   */
  static double zcdpRho(PrivacyLoss event, String accountant) {
    if (event instanceof Zcdp z) {
      return z.rho();
    }
    if (event instanceof ApproxZcdp a) {
      return a.rho();
    }
    if (event instanceof MechanismLoss m) {
      return m.zcdpRho();
    }
    if (event instanceof PoissonSubsampled s && s.base() instanceof MechanismLoss m) {
      // Subsampling never hurts: Rényi divergence is jointly quasi-convex, so the mixture pair is
      // bounded by the base pair at every order (van Erven & Harremoës 2014, Thm. 13).
      return m.zcdpRho();
    }
    throw new IllegalArgumentException(
        accountant + " does not support events of type " + event.getClass().getSimpleName()
            + (event instanceof RdpCurve ? " (use RdpAccountant)" : ""));
  }

  /** The δ of a zCDP-like event ({@link ApproxZcdp}'s δ, else 0). */
  static double zcdpDelta(PrivacyLoss event) {
    return event instanceof ApproxZcdp a ? a.delta() : 0.0;
  }

  /** Builds an ApproxDp from upward-rounded totals, failing loudly if δ reaches 1 or ε overflows. */
  public static ApproxDp approxDp(double epsilon, double delta, String what) {
    if (Double.isInfinite(epsilon) || Double.isNaN(epsilon)) {
      throw new IllegalArgumentException(what + ": epsilon is unbounded");
    }
    if (delta >= 1) {
      throw new IllegalArgumentException(what + ": total delta reaches 1 ("
          + BudgetFormat.up(delta) + ")");
    }
    return new ApproxDp(epsilon, delta);
  }
}
