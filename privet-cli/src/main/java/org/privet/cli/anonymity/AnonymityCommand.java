package org.privet.cli.anonymity;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code privet anonymity}: measures of k-anonymity and its relatives. */
@Command(
    name = "anonymity",
    mixinStandardHelpOptions = true,
    description = "Measure a table's k-anonymity, l-diversity, t-closeness and information loss.",
    subcommands = {AnonymityCheckCommand.class})
public final class AnonymityCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
