package org.privet.sql;

/**
 * A GoogleSQL named argument {@code name => (lower, upper)} found inside an aggregate call, e.g.
 * {@code contribution_bounds_per_group => (0, 100)}, or {@code name => AUTO} (bounds estimated
 * privately; then lower and upper are NaN). Offsets point into the user's text.
 */
record NamedArgument(String name, double lower, double upper, int nameOffset, boolean auto) {
  /** An argument with literal bounds. */
  NamedArgument(String name, double lower, double upper, int nameOffset) {
    this(name, lower, upper, nameOffset, false);
  }
}
