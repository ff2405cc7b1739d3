package org.privet.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privet budget}: what is spent and left, analysts' shares, and the charge history. */
@Command(
    name = "budget",
    description = "Show budgets, grant analysts a share, and list the history of charges.",
    mixinStandardHelpOptions = true,
    subcommands = {BudgetShowCommand.class, BudgetGrantCommand.class, BudgetHistoryCommand.class})
final class BudgetCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
