/**
 * The backend SPI: where a compiled query's bounded aggregation runs.
 *
 * <p>A backend receives a {@link org.privet.engine.spi.BoundedAggregation}: a precise description
 * of the contribution bounding and fixed-point aggregation to perform (filter, privacy unit, group
 * columns, L0, L∞, clamping bounds, fixed-point scale, selection salt). It returns exact per-group
 * aggregates. All privacy logic — sensitivities, budget split, partition selection, noise — stays in
 * {@code org.privet.engine} and is shared by every backend; a backend only has to implement the
 * bounding contract documented on {@code BoundedAggregation} exactly (see
 * {@code docs/proofs/engine-bounding.md}). This mirrors PipelineDP4j, whose engine is written once
 * against small collection interfaces with local and Beam/Spark implementations.
 *
 * <p>SQL backends do not write that transformation themselves: {@link
 * org.privet.engine.spi.BoundingPlan} renders it once as one statement, and each database supplies
 * only a {@link org.privet.engine.spi.SqlDialect} (DuckDB, Spark, PostgreSQL); {@link
 * org.privet.engine.spi.JdbcBackend} runs it over JDBC. {@code BackendContractTest} (in this
 * module's test-jar) checks every backend against a literal reading of the contract.
 *
 * <p>Backends must never put data values into exception messages (a failing SQL statement's
 * driver message can quote a value: wrap it).
 */
package org.privet.engine.spi;
