package org.privet.cli;

import picocli.CommandLine.Option;

/**
 * Shared option: who is asking (charges and per-analyst shares are recorded under this name).
 * Default: the {@code PRIVET_ANALYST} environment variable, else the operating-system user.
 */
public final class AnalystOption {
  @Option(
      names = "--analyst",
      paramLabel = "NAME",
      description = "Analyst name (default: $PRIVET_ANALYST, else the OS user).")
  String analyst;

  public String resolve() {
    if (analyst != null) {
      return analyst;
    }
    String fromEnv = System.getenv("PRIVET_ANALYST");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    return System.getProperty("user.name", "analyst");
  }
}
