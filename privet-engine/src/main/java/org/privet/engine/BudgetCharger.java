package org.privet.engine;

/**
 * Charges a query's privacy cost against a budget (the ledger implements this durably).
 *
 * <p>The session calls {@link #charge} once per {@link Session#run run}, after compiling and
 * before reading any data or releasing any noisy value. If it returns normally, the charge is
 * final (even if the backend later fails); if it throws, the query is refused, nothing is read or
 * released and the exception propagates to the caller unchanged. {@link Session#explain explain}
 * never calls it.
 */
@FunctionalInterface
public interface BudgetCharger {

  /**
   * Records {@code charge} or refuses it.
   *
   * @throws RuntimeException to refuse (e.g. {@link org.privet.accounting.BudgetExceededException})
   */
  void charge(ChargeRequest charge);

  /** A charger that accepts everything (for tests and trusted local use; nothing is recorded). */
  static BudgetCharger unlimited() {
    return c -> { };
  }
}
