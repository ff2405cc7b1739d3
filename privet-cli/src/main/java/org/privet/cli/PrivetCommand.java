package org.privet.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code privet} command: one subcommand class per command, exit codes in {@link ExitCodes}. */
@Command(
    name = "privet",
    mixinStandardHelpOptions = true,
    version = "privet 0.1.0-SNAPSHOT",
    description = "Privet: a differential privacy engine and trusted curator.",
    subcommands = {
      CommandLine.HelpCommand.class,
      DatasetCommand.class,
      BudgetCommand.class,
      QueryCommand.class,
      org.privet.cli.plan.PlanCommand.class,
      DemoCommand.class,
      org.privet.cli.mech.MechCommand.class,
      org.privet.cli.synth.SynthCommand.class,
      org.privet.cli.account.AccountCommand.class,
      ServeCommand.class,
      AnalystCommand.class,
      org.privet.cli.anonymity.AnonymizeCommand.class, org.privet.cli.anonymity.AnonymityCommand.class, org.privet.cli.anonymity.AttackCommand.class,
    })
public final class PrivetCommand implements Runnable {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Builds the command line with the project's exception-to-exit-code mapping. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new PrivetCommand());
    cl.setExecutionExceptionHandler(ExitCodes::handleExecutionException);
    cl.setParameterExceptionHandler(ExitCodes::handleParameterException);
    return cl;
  }

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }
}
