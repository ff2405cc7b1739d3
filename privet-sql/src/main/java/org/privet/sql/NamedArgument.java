package org.privet.sql;

/**
 * A GoogleSQL named argument {@code name => (lower, upper)} found inside an aggregate call, e.g.
 * {@code contribution_bounds_per_group => (0, 100)}, {@code name => AUTO} (bounds estimated
 * privately; then lower and upper are NaN), or {@code report_format => "JSON"} (then {@code text}
 * holds the word, unquoted; else it is null). Offsets point into the user's text.
 */
record NamedArgument(String name, double lower, double upper, int nameOffset, boolean auto,
    String text) {
  /** An argument with literal bounds. */
  NamedArgument(String name, double lower, double upper, int nameOffset) {
    this(name, lower, upper, nameOffset, false, null);
  }

  /** An argument with literal bounds, or AUTO. */
  NamedArgument(String name, double lower, double upper, int nameOffset, boolean auto) {
    this(name, lower, upper, nameOffset, auto, null);
  }
}
