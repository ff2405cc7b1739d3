package org.privet.cli;

/** How a command prints its results on stdout. */
public enum OutputFormat {
  /** Aligned columns for people. */
  TABLE,
  /** JSON for scripts. */
  JSON,
  /** RFC 4180 CSV with a header line. */
  CSV
}
