package org.privet.cli;

import picocli.CommandLine.Option;

/**
 * Shared option: who is asking (charges and per-analyst shares are recorded under this name).
 * Default: the {@code PRIVET_ANALYST} environment variable, else the operating-system user.
 *
 * <p>The name is self-declared, not authenticated: the local CLI is the curator's own tool, not a
 * boundary between analysts, so a share granted to one name binds only analysts who do not lie
 * about theirs. The server authenticates analysts (docs/proofs/threat-model.md, "Identity").
 */
public final class AnalystOption {
  @Option(
      names = "--analyst",
      paramLabel = "NAME",
      description = "Analyst name, self-declared (default: $PRIVET_ANALYST, else the OS user).")
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
