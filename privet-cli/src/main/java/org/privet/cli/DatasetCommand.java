package org.privet.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privet dataset}: register (with their tables), list and show the datasets of a workspace. */
@Command(
    name = "dataset",
    description = "Register, list and show datasets (with their privacy unit and total budget).",
    mixinStandardHelpOptions = true,
    subcommands = {DatasetRegisterCommand.class, DatasetAddTableCommand.class, DatasetListCommand.class, DatasetShowCommand.class,
        DatasetFixSchemaCommand.class, DatasetRenameCommand.class})
final class DatasetCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
