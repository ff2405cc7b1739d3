/**
 * Engine internals: turning exact per-group aggregates into noisy released values with their
 * intervals. {@link org.privet.engine.release.Releaser} (one noisy release per planned {@link
 * org.privet.engine.release.Release}, noise from {@link org.privet.engine.release.Releases} per
 * {@link org.privet.engine.release.MechanismSpec}), {@link
 * org.privet.engine.release.QuantileTree} and {@link
 * org.privet.engine.release.RatioIntervals}. Not an API: only {@code org.privet.engine..} may use
 * it (held by {@code EngineBoundaryTest}), with the exception documented there.
 */
package org.privet.engine.release;
