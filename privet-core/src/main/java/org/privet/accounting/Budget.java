package org.privet.accounting;

import java.math.RoundingMode;
import java.util.List;

/**
 * A privacy budget: how much privacy loss a query, a dataset or an analyst's share may spend, in
 * one of four measures — pure ε-DP, (ε, δ)-DP, ρ-zCDP, or δ-approximate ρ-zCDP ("ρ plus δ", Bun
 * &amp; Steinke 2016, Def. 8.1, which private partition selection needs under zCDP). The one model
 * of a budget in Privet: the engine's per-query budget, the ledger's dataset budgets and grants, and
 * what the CLI prints all go through it.
 *
 * <ul>
 *   <li>{@link #compose}: the composition of a list of privacy losses in this budget's measure (ρ
 *       budgets: Σρ and Σδ by {@link ZcdpAccountant#totalApproxZcdp}; ε budgets: the given
 *       accountant at this budget's δ), rounded up by the accountants.
 *   <li>{@link #admits}: whether a spend fits.
 *   <li>{@link #remaining}: budget minus spend per parameter, rounded down, never negative.
 *   <li>{@link #describe(PrivacyLoss)}: text for people; {@link #describe(PrivacyLoss, RoundingMode)}
 *       to four digits rounded in the safe direction (spends up, what remains down), by {@link
 *       BudgetFormat}.
 * </ul>
 *
 * <p>Arithmetic is directed toward more loss (charges up, grants and what remains down). A budget
 * on a growing, adaptively chosen sequence of charges is a privacy filter; basic and zCDP
 * composition are valid filters (Rogers, Roth, Ullman, Vadhan 2016; Feldman &amp; Zrnic
 * 2021), see {@link PrivacyFilter}. Immutable; ε and ρ are in [{@link #MIN_EPSILON}, {@link
 * #MAX_EPSILON}].
 */
public sealed interface Budget {
  /** Smallest ε (or ρ) accepted, as in Google's DP library: smaller budgets give pure noise. */
  double MIN_EPSILON = 0x1p-50;

  /**
   * Largest ε (or ρ) accepted: 2^40, the mechanisms' own limit (e.g. randomized response and
   * selection on a dyadic grid). Larger budgets protect nothing, and their arithmetic (ρ = ε²/2,
   * sums over composed charges, e^ε) leaves the doubles, so a budget that EXPLAIN accepts could be
   * refused by the ledger's accountant at the run (issue 23, item 5). Checked once, here, where
   * every query, dataset and grant budget is built, before anything is charged.
   */
  double MAX_EPSILON = 0x1p40;

  /** Pure ε-DP. */
  record Epsilon(double epsilon) implements Budget {
    public Epsilon {
      requirePositive("epsilon", epsilon);
    }

    @Override
    public PrivacyLoss loss() {
      return new PureDp(epsilon);
    }

    @Override
    public String toString() {
      return "ε=" + BudgetFormat.up(epsilon);
    }
  }

  /** (ε, δ)-DP with δ ∈ (0, 1). */
  record EpsilonDelta(double epsilon, double delta) implements Budget {
    public EpsilonDelta {
      requirePositive("epsilon", epsilon);
      PrivacyLoss.requireDelta("delta", delta);
      if (delta == 0) {
        throw new IllegalArgumentException("delta must be > 0 for an (epsilon, delta) budget; use Budget.pure");
      }
    }

    @Override
    public PrivacyLoss loss() {
      return new ApproxDp(epsilon, delta);
    }

    @Override
    public String toString() {
      return "ε=" + BudgetFormat.up(epsilon) + ", δ=" + BudgetFormat.up(delta);
    }
  }

  /** ρ-zCDP. */
  record Rho(double rho) implements Budget {
    public Rho {
      requirePositive("rho", rho);
    }

    @Override
    public PrivacyLoss loss() {
      return new Zcdp(rho);
    }

    @Override
    public String toString() {
      return "ρ=" + BudgetFormat.up(rho);
    }
  }

  /** δ-approximate ρ-zCDP with δ ∈ (0, 1): the δ pays for private partition selection. */
  record RhoDelta(double rho, double delta) implements Budget {
    public RhoDelta {
      requirePositive("rho", rho);
      PrivacyLoss.requireDelta("delta", delta);
      if (delta == 0) {
        throw new IllegalArgumentException("delta of a zCDP budget with delta must be > 0; "
            + "use Budget.zcdp(rho) for pure zCDP");
      }
    }

    @Override
    public PrivacyLoss loss() {
      return new ApproxZcdp(rho, delta);
    }

    @Override
    public String toString() {
      return "ρ=" + BudgetFormat.up(rho) + ", δ=" + BudgetFormat.up(delta);
    }
  }

  /** Pure ε-DP. */
  static Budget pure(double epsilon) {
    return new Epsilon(epsilon);
  }

  /** (ε, δ)-DP; δ = 0 gives pure DP. */
  static Budget approx(double epsilon, double delta) {
    requirePositive("epsilon", epsilon);
    PrivacyLoss.requireDelta("delta", delta);
    return delta == 0 ? new Epsilon(epsilon) : new EpsilonDelta(epsilon, delta);
  }

  /** ρ-zCDP. */
  static Budget zcdp(double rho) {
    return new Rho(rho);
  }

  /** δ-approximate ρ-zCDP ("ρ plus δ"); δ = 0 gives pure ρ-zCDP. */
  static Budget zcdp(double rho, double delta) {
    requirePositive("rho", rho);
    PrivacyLoss.requireDelta("delta", delta);
    return delta == 0 ? new Rho(rho) : new RhoDelta(rho, delta);
  }

  /**
   * The budget stated by a summary privacy-loss value: {@link PureDp}, {@link ApproxDp} (δ = 0
   * reads as pure), {@link Zcdp} or {@link ApproxZcdp} (δ = 0 reads as pure ρ).
   *
   * @throws IllegalArgumentException for other measures, or ε (ρ) below {@link #MIN_EPSILON}
   */
  static Budget of(PrivacyLoss loss) {
    if (loss instanceof PureDp p) {
      return pure(p.epsilon());
    } else if (loss instanceof ApproxDp a) {
      return approx(a.epsilon(), a.delta());
    } else if (loss instanceof Zcdp z) {
      return zcdp(z.rho());
    } else if (loss instanceof ApproxZcdp a) {
      return zcdp(a.rho(), a.delta());
    }
    throw new IllegalArgumentException("budget must be pure, approximate DP, zCDP or "
        + "approximate zCDP, was " + (loss == null ? "null" : loss.getClass().getSimpleName()));
  }

  /** The budget as a privacy-loss value ({@link PureDp}, {@link ApproxDp}, {@link Zcdp}, {@link ApproxZcdp}). */
  PrivacyLoss loss();

  /** δ of the budget (0 for pure and pure-zCDP budgets). */
  default double delta() {
    return deltaOf(loss());
  }

  /** True for ρ-zCDP and δ-approximate ρ-zCDP budgets. */
  default boolean isZcdp() {
    return this instanceof Rho || this instanceof RhoDelta;
  }

  /** ρ of a zCDP budget (NaN otherwise). */
  default double rho() {
    return this instanceof Rho r ? r.rho() : this instanceof RhoDelta r ? r.rho() : Double.NaN;
  }

  /** ε of an ε or (ε, δ) budget (NaN otherwise). */
  default double epsilon() {
    return this instanceof Epsilon e ? e.epsilon() : this instanceof EpsilonDelta e ? e.epsilon() : Double.NaN;
  }

  /**
   * The composed spend of {@code parts} in this budget's measure, rounded up: for a ρ budget
   * {@link Zcdp} (pure ρ) or {@link ApproxZcdp} (Σρ and Σδ, (ε, δ) parts as δ-approximate
   * ε²/2-zCDP, Bun &amp; Steinke 2016, Lemma 8.2); for an ε or (ε, δ) budget the {@code accountant}'s
   * {@link ApproxDp} at this budget's δ ((0, 0) for no parts).
   *
   * @throws BudgetExceededException if the parts cannot be paid in this measure (a δ part under a
   *     pure ρ budget, a δ that reaches 1, an event the accountant cannot compose)
   */
  default PrivacyLoss compose(List<? extends PrivacyLoss> parts, Accountant accountant) {
    if (isZcdp()) {
      ApproxZcdp total;
      try {
        total = ZcdpAccountant.INSTANCE.totalApproxZcdp(parts);
      } catch (IllegalArgumentException e) {
        throw new BudgetExceededException("the budget cannot cover this charge: " + e.getMessage());
      }
      if (this instanceof Rho) {
        if (total.delta() > 0) {
          throw new BudgetExceededException("a rho budget cannot pay for a release with delta > 0 "
              + "(e.g. an (epsilon, delta) release or private partition selection); register the "
              + "dataset with rho and delta");
        }
        return new Zcdp(total.rho());
      }
      return total;
    }
    if (parts.isEmpty()) {
      return new ApproxDp(0.0, 0.0);
    }
    try {
      return accountant.compose(parts, delta());
    } catch (IllegalArgumentException e) {
      throw new BudgetExceededException("the budget cannot cover this charge: " + e.getMessage());
    }
  }

  /**
   * Whether a composed spend fits: a ρ budget admits {@link Zcdp} and {@link ApproxZcdp} spends
   * with ρ and δ within it (δ = 0 for a pure ρ budget), an ε or (ε, δ) budget admits {@link
   * PureDp} and {@link ApproxDp} spends with ε and δ within it. Spends in another measure never fit.
   */
  default boolean admits(PrivacyLoss spent) {
    if (isZcdp()) {
      return (spent instanceof Zcdp || spent instanceof ApproxZcdp)
          && rhoOf(spent) <= rho()
          && deltaOf(spent) <= delta();
    }
    if (spent instanceof PureDp p) {
      return p.epsilon() <= epsilon();
    }
    return spent instanceof ApproxDp a && a.epsilon() <= epsilon() && a.delta() <= delta();
  }

  /**
   * What remains after {@code spent}, per parameter rounded down and never negative: {@link Zcdp}
   * or {@link ApproxZcdp} for ρ budgets, {@link ApproxDp} for ε and (ε, δ) budgets.
   */
  default PrivacyLoss remaining(PrivacyLoss spent) {
    if (this instanceof Rho r) {
      return new Zcdp(subtractDown(r.rho(), rhoOf(spent)));
    }
    if (this instanceof RhoDelta r) {
      return new ApproxZcdp(subtractDown(r.rho(), rhoOf(spent)), subtractDown(r.delta(), deltaOf(spent)));
    }
    ApproxDp s = spent instanceof PureDp p ? p.toApproxDp() : (ApproxDp) spent;
    return new ApproxDp(subtractDown(epsilon(), s.epsilon()), subtractDown(delta(), s.delta()));
  }

  /** This budget for people ({@link BudgetFormat#remaining}): {@code epsilon=1, delta=1e-6}. */
  default String describe() {
    return describe(loss());
  }

  /**
   * A budget, total or grant for people: {@link BudgetFormat#remaining}, four significant digits
   * rounded down (what may be spent is never overstated). Spends: {@link BudgetFormat#spent}.
   */
  static String describe(PrivacyLoss loss) {
    return BudgetFormat.remaining(loss);
  }

  /**
   * A budget, spend or remainder for people ({@link BudgetFormat#describe}), rounded with {@code
   * mode}: {@link RoundingMode#CEILING} for spends and costs, {@link RoundingMode#FLOOR} for what
   * remains, so that the text never understates a loss nor overstates what is left.
   */
  static String describe(PrivacyLoss loss, RoundingMode mode) {
    return BudgetFormat.describe(loss, mode);
  }

  private static double rhoOf(PrivacyLoss spent) {
    return spent instanceof ApproxZcdp z ? z.rho() : ((Zcdp) spent).rho();
  }

  private static double deltaOf(PrivacyLoss loss) {
    if (loss instanceof ApproxZcdp z) {
      return z.delta();
    }
    return loss instanceof ApproxDp a ? a.delta() : 0.0;
  }

  private static double subtractDown(double a, double b) {
    return Math.max(0.0, UpwardRounding.subtractDown(a, b));
  }

  private static void requirePositive(String name, double v) {
    if (Double.isNaN(v) || Double.isInfinite(v) || v < MIN_EPSILON || v > MAX_EPSILON) {
      throw new IllegalArgumentException(name + " must be finite and in [2^-50, 2^40], was " + v);
    }
  }
}
