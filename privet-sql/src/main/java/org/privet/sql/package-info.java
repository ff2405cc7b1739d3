/**
 * Privet's DP SQL: BigQuery-style {@code SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (...)} queries
 * parsed, validated and compiled into engine queries ({@link org.privet.engine.Query}).
 *
 * <p>Public face: {@link org.privet.sql.DpSql#parse}, {@link org.privet.sql.DatasetCatalog},
 * {@link org.privet.sql.DatasetDescriptor}, {@link org.privet.sql.DpStatement}, {@link
 * org.privet.sql.SqlResult}, {@link org.privet.sql.OutputColumn} and {@link
 * org.privet.sql.DpSqlException}. Everything else is package-private: a tokenizer and
 * recursive-descent parser for the DP clause, named arguments and WHERE ({@code DpClauseParser},
 * {@code FilterParser}), and a compiler over JSqlParser's AST for the rest ({@code
 * SelectCompiler}).
 *
 * <p>Privacy argument: every accepted query maps onto an engine query whose contribution bounds
 * are at least as strict as the SQL's; ORDER BY, LIMIT and OFFSET act on released values only
 * (post-processing, Dwork &amp; Roth 2014, Prop. 2.1); refusals depend only on the query text and
 * public metadata, never on the data. See {@code docs/proofs/sql-rewrites.md}.
 *
 * <p>References: Google, "Differential privacy clause" and "Differentially private aggregate
 * functions", GoogleSQL for BigQuery documentation; Wilson et al., "Differentially Private SQL with
 * Bounded User Contribution", PoPETs 2020; Dwork &amp; Roth, "The Algorithmic Foundations of
 * Differential Privacy", 2014. Dialect: {@code docs/sql.md}.
 */
package org.privet.sql;
