package org.privet.cli;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.privet.ledger.Ledger;
import org.privet.ledger.PostgresLedger;
import picocli.CommandLine.Option;

/**
 * Shared options: where the ledger is. By default it is a SQLite file in the workspace folder:
 * {@code --workspace}, then the {@code PRIVET_HOME} environment variable, then {@code ~/.privet}.
 * With {@code --ledger-url} (or {@code PRIVET_LEDGER_URL}) it is a PostgreSQL database that several
 * curators, e.g. {@code privet serve} replicas on different hosts, share: one budget for all. Its
 * password comes from an environment variable or a file, never from the URL or the command line.
 */
public final class WorkspaceOption {
  static final String ENVIRONMENT_VARIABLE = "PRIVET_HOME";
  static final String LEDGER_URL_VARIABLE = "PRIVET_LEDGER_URL";
  static final String LEDGER_USER_VARIABLE = "PRIVET_LEDGER_USER";
  static final String LEDGER_PASSWORD_VARIABLE = "PRIVET_LEDGER_PASSWORD";

  @Option(
      names = "--workspace",
      paramLabel = "DIR",
      description = "Workspace folder with the ledger (default: $PRIVET_HOME, else ~/.privet).")
  Path workspace;

  @Option(
      names = "--ledger-url",
      paramLabel = "URL",
      description = "Keep the ledger on a PostgreSQL server shared by several curators,"
          + " jdbc:postgresql://HOST:5432/DB (default: $PRIVET_LEDGER_URL, else the workspace's SQLite file).")
  String ledgerUrl;

  @Option(
      names = "--ledger-user",
      paramLabel = "NAME",
      description = "Database user of --ledger-url (default: $PRIVET_LEDGER_USER, else the driver's default).")
  String ledgerUser;

  @Option(
      names = "--ledger-password-env",
      paramLabel = "VAR",
      description = "Environment variable holding the database password (default: PRIVET_LEDGER_PASSWORD when set).")
  String ledgerPasswordEnv;

  @Option(
      names = "--ledger-password-file",
      paramLabel = "FILE",
      description = "File whose first line is the database password.")
  Path ledgerPasswordFile;

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

  /** The shared PostgreSQL ledger, when one is named; empty for the workspace's SQLite file. */
  public Optional<PostgresLedger> server() {
    return server(ledgerUrl, ledgerUser, ledgerPasswordEnv, ledgerPasswordFile, System.getenv());
  }

  static Optional<PostgresLedger> server(
      String url, String user, String passwordEnv, Path passwordFile, Map<String, String> environment) {
    String u = url != null ? url : environment.get(LEDGER_URL_VARIABLE);
    if (u == null || u.isBlank()) {
      if (user != null || passwordEnv != null || passwordFile != null) {
        throw new IllegalArgumentException("--ledger-user and --ledger-password-* need --ledger-url (or "
            + LEDGER_URL_VARIABLE + ")");
      }
      return Optional.empty();
    }
    if (passwordEnv != null && passwordFile != null) {
      throw new IllegalArgumentException("give --ledger-password-env or --ledger-password-file, not both");
    }
    Optional<char[]> password = org.privet.ledger.DatabaseSource.password(passwordEnv, passwordFile,
        LEDGER_PASSWORD_VARIABLE, "ledger-password", environment);
    String who = user != null ? user : environment.get(LEDGER_USER_VARIABLE);
    return Optional.of(new PostgresLedger(u.strip(), Optional.ofNullable(who).filter(w -> !w.isBlank()), password));
  }

  /** Opens the ledger: the shared PostgreSQL one when named, else the workspace's SQLite file. */
  public Ledger open() {
    Optional<PostgresLedger> server = server();
    return server.isPresent() ? Ledger.open(server.get()) : Ledger.open(resolve());
  }
}
