/**
 * The Apache Spark backend: the same {@link org.privet.engine.spi.BoundedAggregation} contract as
 * the embedded DuckDB backend, pushed into one Spark SQL statement per query (per-unit L0 selection
 * by a window over a salted {@code xxhash64}, L∞ capping per (unit, group) pair, exact BIGINT/DECIMAL
 * fixed-point sums guarded against overflow), with one row per group streamed back to the driver.
 * Privacy logic stays in {@code org.privet.engine}. Arithmetic argument:
 * {@code docs/proofs/engine-spark.md}. Spark: Zaharia et al., "Resilient Distributed Datasets",
 * NSDI 2012; Armbrust et al., "Spark SQL: Relational Data Processing in Spark", SIGMOD 2015.
 */
package org.privet.engine.spark;
