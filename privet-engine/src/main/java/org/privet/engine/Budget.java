package org.privet.engine;

import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;

/**
 * The total privacy budget one query may spend: ε-DP, (ε, δ)-DP, ρ-zCDP or δ-approximate ρ-zCDP
 * ({@link ApproxZcdp}, Bun &amp; Steinke 2016, Def. 8.1: "ρ plus δ", which private partition selection
 * needs under zCDP). The engine splits it across partition selection and the aggregations (see
 * {@link Plan}).
 *
 * @param loss the budget as a privacy-loss value
 */
public record Budget(PrivacyLoss loss) {
  /** Smallest ε (or ρ) accepted, as in Google's DP library: smaller budgets give pure noise. */
  public static final double MIN_EPSILON = 0x1p-50;

  public Budget {
    if (loss == null) {
      throw new IllegalArgumentException("budget must not be null");
    }
    if (loss instanceof PureDp p) {
      requirePositive("epsilon", p.epsilon());
    } else if (loss instanceof ApproxDp a) {
      requirePositive("epsilon", a.epsilon());
    } else if (loss instanceof Zcdp z) {
      requirePositive("rho", z.rho());
    } else if (loss instanceof ApproxZcdp a) {
      requirePositive("rho", a.rho());
      if (a.delta() == 0) {
        throw new IllegalArgumentException("delta of a zCDP budget with delta must be > 0; "
            + "use Budget.zcdp(rho) for pure zCDP");
      }
    } else {
      throw new IllegalArgumentException("budget must be pure, approximate DP, zCDP or "
          + "approximate zCDP, was " + loss.getClass().getSimpleName());
    }
  }

  /** Pure ε-DP. */
  public static Budget pure(double epsilon) {
    requirePositive("epsilon", epsilon);
    return new Budget(new PureDp(epsilon));
  }

  /** (ε, δ)-DP; δ = 0 gives pure DP. */
  public static Budget approx(double epsilon, double delta) {
    requirePositive("epsilon", epsilon);
    PrivacyLoss.requireDelta("delta", delta);
    return new Budget(delta == 0 ? new PureDp(epsilon) : new ApproxDp(epsilon, delta));
  }

  /** ρ-zCDP. */
  public static Budget zcdp(double rho) {
    requirePositive("rho", rho);
    return new Budget(new Zcdp(rho));
  }

  /**
   * δ-approximate ρ-zCDP ("ρ plus δ"); δ = 0 gives pure ρ-zCDP. The δ pays for private partition
   * selection; everything else is charged in ρ.
   */
  public static Budget zcdp(double rho, double delta) {
    requirePositive("rho", rho);
    PrivacyLoss.requireDelta("delta", delta);
    return new Budget(delta == 0 ? new Zcdp(rho) : new ApproxZcdp(rho, delta));
  }

  /** δ of the budget (0 for pure and pure-zCDP budgets). */
  public double delta() {
    if (loss instanceof ApproxDp a) {
      return a.delta();
    }
    return loss instanceof ApproxZcdp z ? z.delta() : 0.0;
  }

  /** True for ρ-zCDP and δ-approximate ρ-zCDP budgets. */
  public boolean isZcdp() {
    return loss instanceof Zcdp || loss instanceof ApproxZcdp;
  }

  /** ρ of a zCDP budget (NaN otherwise). */
  public double rho() {
    if (loss instanceof Zcdp z) {
      return z.rho();
    }
    return loss instanceof ApproxZcdp a ? a.rho() : Double.NaN;
  }

  private static void requirePositive(String name, double v) {
    if (Double.isNaN(v) || Double.isInfinite(v) || v < MIN_EPSILON) {
      throw new IllegalArgumentException(
          name + " must be finite and at least 2^-50, was " + v);
    }
  }

  @Override
  public String toString() {
    if (loss instanceof PureDp p) {
      return "ε=" + p.epsilon();
    } else if (loss instanceof ApproxDp a) {
      return "ε=" + a.epsilon() + ", δ=" + a.delta();
    }
    if (loss instanceof ApproxZcdp a) {
      return "ρ=" + a.rho() + ", δ=" + a.delta();
    }
    return "ρ=" + ((Zcdp) loss).rho();
  }
}
