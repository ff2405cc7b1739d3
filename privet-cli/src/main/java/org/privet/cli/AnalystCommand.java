package org.privet.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.ledger.Analyst;
import org.privet.ledger.Ledger;
import org.privet.ledger.Role;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet analyst add|list|revoke}: the server's accounts, kept in the workspace's ledger. The
 * curator runs these on the machine that holds the ledger; analysts then reach the data only through
 * {@code privet serve} with their API key.
 */
@Command(name = "analyst", mixinStandardHelpOptions = true,
    description = "Manage the server's accounts (API keys for privet serve).",
    subcommands = {AnalystCommand.Add.class, AnalystCommand.ListAccounts.class, AnalystCommand.Revoke.class})
final class AnalystCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code privet analyst add --name NAME [--role analyst|curator]}: prints a fresh key once. */
  @Command(name = "add", mixinStandardHelpOptions = true,
      description = "Add an account and print its API key (shown once; the ledger keeps only a salted hash).")
  static final class Add implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin WorkspaceOption workspace;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "The account's name (its identity in the ledger).")
    String name;

    @Option(names = "--role", defaultValue = "analyst", paramLabel = "ROLE", description = "analyst or curator (default: ${DEFAULT-VALUE}).")
    String role;

    @Override
    public Integer call() {
      Role r = Role.parse(role);
      Ledger.NewAnalyst added;
      try (Ledger ledger = workspace.open()) {
        added = ledger.addAnalyst(name, r);
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(added.apiKey());
      out.flush();
      PrintWriter err = spec.commandLine().getErr();
      err.println("privet: added " + r.cliName() + " '" + name + "'; the API key above is shown only once"
          + " (use it as: export PRIVET_API_KEY=...)");
      err.flush();
      return ExitCodes.OK;
    }
  }

  /** {@code privet analyst list [--format table|json|csv]}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the accounts (never their keys).")
  static final class ListAccounts implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin WorkspaceOption workspace;
    @Mixin FormatOption format;

    @Override
    public Integer call() {
      List<Analyst> all;
      try (Ledger ledger = workspace.open()) {
        all = ledger.analysts();
      }
      PrintWriter out = spec.commandLine().getOut();
      if (format.format == OutputFormat.JSON) {
        out.println(org.privet.ledger.LedgerJson.writePretty(org.privet.ledger.LedgerJson.analysts(all)));
        out.flush();
        return ExitCodes.OK;
      }
      TextTable t = new TextTable(List.of("name", "role", "created", "status"));
      for (Analyst a : all) {
        t.add(List.of(a.name(), a.role().cliName(),
            a.created().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(),
            a.revoked().map(x -> "revoked " + x.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)).orElse("active")));
      }
      t.print(out, format.format);
      return ExitCodes.OK;
    }
  }

  /** {@code privet analyst revoke --name NAME}: the key fails from the next request on. */
  @Command(name = "revoke", mixinStandardHelpOptions = true, description = "Revoke an account's key.")
  static final class Revoke implements Callable<Integer> {
    @Spec CommandSpec spec;
    @Mixin WorkspaceOption workspace;

    @Option(names = "--name", required = true, paramLabel = "NAME", description = "The account to revoke.")
    String name;

    @Override
    public Integer call() {
      try (Ledger ledger = workspace.open()) {
        ledger.revokeAnalyst(name);
      }
      spec.commandLine().getErr().println("privet: revoked '" + name + "'");
      spec.commandLine().getErr().flush();
      return ExitCodes.OK;
    }
  }
}
