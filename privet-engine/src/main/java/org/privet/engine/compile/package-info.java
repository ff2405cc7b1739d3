/**
 * Engine internals: compiling a {@link org.privet.engine.Query} into a plan. The {@link
 * org.privet.engine.compile.Compiler} runs the rewrites ({@link org.privet.engine.compile.Rewrite}:
 * bounding, fixed-point scale, mechanism choice, budget split) and asks one planner per aggregation
 * ({@link org.privet.engine.compile.AggregationPlanner}) for its noisy releases; {@link
 * org.privet.engine.compile.AutoBoundsPass} runs the private bounds pass first when the query asks
 * for automatic bounds. Not an API: only {@code org.privet.engine..} may use it (held by {@code
 * EngineBoundaryTest}).
 */
package org.privet.engine.compile;
