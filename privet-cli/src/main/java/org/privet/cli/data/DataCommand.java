package org.privet.cli.data;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code privet data}: writes public or synthetic-by-construction datasets to try Privet on. */
@Command(
    name = "data",
    description = "Write datasets to try Privet on (TPC-H tables generated in Java).",
    mixinStandardHelpOptions = true,
    subcommands = DataTpchCommand.class)
public final class DataCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
