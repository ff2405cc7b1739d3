/**
 * Engine internals: splitting a query's budget over its releases. {@link
 * org.privet.engine.budget.DefaultSplit} is the default split (and the report comparing it with
 * the equal split); {@link org.privet.engine.budget.BudgetSolver} finds the smallest budget that
 * meets accuracy targets. Their public results ({@link org.privet.engine.SplitReport}, {@link
 * org.privet.engine.BudgetSolution}) stay in {@code org.privet.engine}. Not an API: only {@code
 * org.privet.engine..} may use it (held by {@code EngineBoundaryTest}).
 */
package org.privet.engine.budget;
