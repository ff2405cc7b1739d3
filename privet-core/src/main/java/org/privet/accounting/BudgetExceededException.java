package org.privet.accounting;

/**
 * Thrown when a {@link PrivacyFilter} refuses an event because admitting it would exceed the
 * budget. Nothing has been charged when this is thrown.
 */
public final class BudgetExceededException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BudgetExceededException(String message) {
    super(message);
  }
}
