package org.privet.sql;

/**
 * A GoogleSQL named argument {@code name => (lower, upper)} found inside an aggregate call, e.g.
 * {@code contribution_bounds_per_group => (0, 100)}. Offsets point into the user's text.
 */
record NamedArgument(String name, double lower, double upper, int nameOffset) {}
