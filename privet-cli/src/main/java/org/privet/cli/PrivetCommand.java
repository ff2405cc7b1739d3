package org.privet.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code privet} command: one subcommand class per command, exit codes in {@link ExitCodes}. */
@Command(
    name = "privet",
    mixinStandardHelpOptions = true,
    version = "privet 0.1.0-SNAPSHOT",
    description = "Privet: a differential privacy engine and trusted curator.")
public final class PrivetCommand implements Runnable {

  /**
   * The subcommands, in the order the usage lists them. Registered here rather than in the
   * annotation so that {@link #main} can build only the one it runs: picocli builds the model of
   * every registered command (reflecting over their options, loading the server's, synthesis' and
   * anonymity's classes) before running one, a large share of a short command's start-up.
   */
  static final List<Class<?>> SUBCOMMANDS = List.of(
      CommandLine.HelpCommand.class,
      DatasetCommand.class,
      BudgetCommand.class,
      QueryCommand.class,
      org.privet.cli.plan.PlanCommand.class,
      DemoCommand.class,
      org.privet.cli.mech.MechCommand.class,
      org.privet.cli.synth.SynthCommand.class,
      org.privet.cli.models.TrainCommand.class, org.privet.cli.models.PredictCommand.class,
      org.privet.cli.account.AccountCommand.class,
      ServeCommand.class,
      AnalystCommand.class,
      org.privet.cli.anonymity.AnonymizeCommand.class,
      org.privet.cli.anonymity.AnonymityCommand.class,
      org.privet.cli.anonymity.AttackCommand.class,
      org.privet.cli.data.DataCommand.class);

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Builds the command line with every subcommand and the project's exception-to-exit-code mapping. */
  public static CommandLine commandLine() {
    return commandLine(null);
  }

  /**
   * The command line for running {@code args}: with only the subcommand {@code args[0]} names if
   * it names one (the others are never run, so their models need not be built), else with all
   * (usage, {@code help}, options of {@code privet} itself, unknown commands and their suggestions).
   */
  static CommandLine commandLine(String[] args) {
    String first = args != null && args.length > 0 ? args[0] : null;
    boolean one = first != null && !first.equals("help") && SUBCOMMANDS.stream()
        .anyMatch(c -> c.getAnnotation(Command.class).name().equals(first));
    CommandLine cl = new CommandLine(new PrivetCommand());
    for (Class<?> c : SUBCOMMANDS) {
      if (!one || c.getAnnotation(Command.class).name().equals(first)) {
        cl.addSubcommand(c);
      }
    }
    cl.setExecutionExceptionHandler(ExitCodes::handleExecutionException);
    cl.setParameterExceptionHandler(ExitCodes::handleParameterException);
    return cl;
  }

  public static void main(String[] args) {
    System.exit(commandLine(args).execute(args));
  }
}
