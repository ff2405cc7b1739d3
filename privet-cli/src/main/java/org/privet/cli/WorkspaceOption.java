package org.privet.cli;

import java.nio.file.Path;
import java.util.Map;
import org.privet.ledger.Ledger;
import picocli.CommandLine.Option;

/**
 * Shared option: the workspace folder holding the ledger. Precedence: {@code --workspace}, then
 * the {@code PRIVET_HOME} environment variable, then {@code ~/.privet}.
 */
public final class WorkspaceOption {
  static final String ENVIRONMENT_VARIABLE = "PRIVET_HOME";

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description = "Workspace folder with the ledger (default: $PRIVET_HOME, else ~/.privet).")
  Path workspace;

  /** The workspace folder to use. */
  public Path resolve() {
    return resolve(workspace, System.getenv(), System.getProperty("user.home"));
  }

  static Path resolve(Path explicit, Map<String, String> environment, String userHome) {
    if (explicit != null) {
      return explicit.toAbsolutePath();
    }
    String home = environment.get(ENVIRONMENT_VARIABLE);
    if (home != null && !home.isBlank()) {
      return Path.of(home).toAbsolutePath();
    }
    return Path.of(userHome, ".privet");
  }

  /** Opens the workspace's ledger. */
  public Ledger open() {
    return Ledger.open(resolve());
  }
}
