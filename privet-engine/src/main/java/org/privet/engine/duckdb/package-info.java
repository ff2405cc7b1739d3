/**
 * The embedded DuckDB backend: pushes filtering, contribution bounding (window functions over a
 * salted hash, per unit) and exact fixed-point aggregation (HUGEINT sums) into one SQL statement per
 * query, streaming one row per group back to Java. DuckDB: Raasveldt &amp; Mühleisen, "DuckDB: an
 * Embeddable Analytical Database", SIGMOD 2019.
 */
package org.privet.engine.duckdb;
