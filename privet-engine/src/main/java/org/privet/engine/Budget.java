package org.privet.engine;

/**
 * Deprecated: the budget type is {@link org.privet.accounting.Budget} (privet-core), the one model
 * of a privacy budget. These factories return it, so that code written against the engine's former
 * {@code Budget} keeps compiling while it moves over; to be removed.
 */
@Deprecated(forRemoval = true)
public final class Budget {
  /** See {@link org.privet.accounting.Budget#MIN_EPSILON}. */
  public static final double MIN_EPSILON = org.privet.accounting.Budget.MIN_EPSILON;

  private Budget() {}

  public static org.privet.accounting.Budget pure(double epsilon) {
    return org.privet.accounting.Budget.pure(epsilon);
  }

  public static org.privet.accounting.Budget approx(double epsilon, double delta) {
    return org.privet.accounting.Budget.approx(epsilon, delta);
  }

  public static org.privet.accounting.Budget zcdp(double rho) {
    return org.privet.accounting.Budget.zcdp(rho);
  }

  public static org.privet.accounting.Budget zcdp(double rho, double delta) {
    return org.privet.accounting.Budget.zcdp(rho, delta);
  }
}
