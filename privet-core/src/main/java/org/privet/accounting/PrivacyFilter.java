package org.privet.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A thread-safe privacy filter: a total (ε, δ) budget that admits privacy events one at a time and
 * refuses the first event whose admission would make the composition, as counted by the chosen
 * {@link Accountant}, exceed the budget (Rogers, Roth, Ullman, Vadhan 2016, "Privacy odometers and
 * filters"; Feldman &amp; Zrnic 2021 for zCDP).
 *
 * <p>Events may be chosen adaptively, so only accountants whose bound holds under fully adaptive
 * composition are accepted ({@link Accountant#supportsFullyAdaptiveComposition()}): basic
 * composition and zCDP. Admission is atomic: the check and the charge happen under one lock, so
 * concurrent admissions can never together exceed the budget. A refused event charges nothing.
 *
 * <p>{@link #spent()} is the accountant's composition of the admitted events at the budget's δ;
 * {@link #remaining()} is budget minus spent, rounded down. For accountants that do not simply add
 * (zCDP), an event may fit even if its own (ε, δ) exceeds {@link #remaining()}, or not fit although
 * it is smaller; use {@link #wouldAdmit} to ask.
 */
public final class PrivacyFilter {
  private final Accountant accountant;
  private final ApproxDp budget;
  private final Budget limit;
  private final List<PrivacyLoss> admitted = new ArrayList<>();
  private ApproxDp spent = new ApproxDp(0.0, 0.0);

  /**
   * @param accountant how events are composed; must support fully adaptive composition
   * @param budget the total (ε, δ) that may be spent (ε at least {@link Budget#MIN_EPSILON})
   */
  public PrivacyFilter(Accountant accountant, ApproxDp budget) {
    Objects.requireNonNull(accountant, "accountant");
    Objects.requireNonNull(budget, "budget");
    if (!accountant.supportsFullyAdaptiveComposition()) {
      throw new IllegalArgumentException(
          "accountant " + accountant + " is not valid under fully adaptive composition; use basic or zcdp");
    }
    this.accountant = accountant;
    this.budget = budget;
    this.limit = Budget.of(budget);
  }

  /** Admits the event if the budget covers it, returning whether it was admitted. */
  public synchronized boolean tryAdmit(PrivacyLoss event) {
    ApproxDp next = composeWith(event);
    if (next == null) {
      return false;
    }
    admitted.add(event);
    spent = next;
    return true;
  }

  /**
   * Admits the event, or throws (charging nothing) if the budget does not cover it.
   *
   * @throws BudgetExceededException if admitting it would exceed the budget
   */
  public synchronized void admit(PrivacyLoss event) {
    Objects.requireNonNull(event, "event");
    ApproxDp next;
    try {
      List<PrivacyLoss> candidate = new ArrayList<>(admitted);
      candidate.add(event);
      next = accountant.compose(candidate, budget.delta());
    } catch (IllegalArgumentException e) {
      throw new BudgetExceededException("privacy budget refused the event: " + e.getMessage());
    }
    if (!fits(next)) {
      throw new BudgetExceededException(
          "privacy budget exceeded: spending would reach (" + BudgetFormat.spent(next)
              + ") of a budget of (" + BudgetFormat.remaining(budget) + ")");
    }
    admitted.add(event);
    spent = next;
  }

  /** Whether the event would be admitted now (the answer may change once others are admitted). */
  public synchronized boolean wouldAdmit(PrivacyLoss event) {
    return composeWith(event) != null;
  }

  /** The composition of the admitted events under the accountant, at the budget's δ. */
  public synchronized ApproxDp spent() {
    return spent;
  }

  /** Budget minus spent, each rounded down and never negative ({@link Budget#remaining}). */
  public synchronized ApproxDp remaining() {
    return (ApproxDp) limit.remaining(spent);
  }

  /** The events admitted so far, in order (a copy). */
  public synchronized List<PrivacyLoss> admitted() {
    return List.copyOf(admitted);
  }

  public ApproxDp budget() {
    return budget;
  }

  public Accountant accountant() {
    return accountant;
  }

  private ApproxDp composeWith(PrivacyLoss event) {
    Objects.requireNonNull(event, "event");
    List<PrivacyLoss> candidate = new ArrayList<>(admitted);
    candidate.add(event);
    ApproxDp next;
    try {
      next = accountant.compose(candidate, budget.delta());
    } catch (IllegalArgumentException e) {
      return null;
    }
    return fits(next) ? next : null;
  }

  private boolean fits(ApproxDp composed) {
    return limit.admits(composed);
  }
}
