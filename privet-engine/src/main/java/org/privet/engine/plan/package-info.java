/**
 * The engine's relational plan (issue 25): an immutable tree of {@link
 * org.privet.engine.plan.Relation} nodes (scan, filter, project, compute, join, key unit, truncate,
 * aggregate), each stating its {@link org.privet.engine.plan.Stability} once, and {@link
 * org.privet.engine.plan.RelationSql}, which renders the nodes below the truncation with a
 * backend's dialect as the FROM of the bounding plan. A backend reads a plan as a {@link
 * org.privet.engine.Source.Relational} source.
 *
 * <p>The privacy argument (unit-locality of every node under the neighbour relation "removing a
 * unit removes every row that references it, transitively", and the truncation per unit over the
 * joined rows) is {@code docs/proofs/engine-joins.md}. References: Dong, Fang, Yi, Tao,
 * Machanavajjhala, "R2T: Instance-optimal Truncation for Differentially Private Query Evaluation
 * with Foreign Keys", SIGMOD 2022; Tumult Analytics' privacy IDs and truncation after private
 * joins.
 */
package org.privet.engine.plan;
