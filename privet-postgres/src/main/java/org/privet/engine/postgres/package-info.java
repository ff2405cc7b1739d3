/**
 * The PostgreSQL data backend: the engine's {@link org.privet.engine.spi.BoundingPlan} rendered in
 * PostgreSQL SQL ({@code docs/proofs/engine-postgres.md}). All privacy logic stays in the engine.
 */
package org.privet.engine.postgres;
