package org.privet.cli;

import java.util.concurrent.Callable;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet dataset rename --name NAME --to NEW}: ends a clash of dataset names that differ
 * only in letter case, which a ledger written before such names were refused may hold (issue 23).
 * Both clashing datasets are refused, charging nothing, until all but one are renamed. {@code
 * --name} is matched exactly (case-sensitive); the dataset keeps its budget, grants and history.
 */
@Command(name = "rename", mixinStandardHelpOptions = true,
    description = {"Rename a dataset (names are matched ignoring case; a ledger holding two names that",
        "differ only in case refuses both until one is renamed). Budget, grants and history stay."})
final class DatasetRenameCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;

  @Option(names = {"--name", "--dataset"}, required = true, paramLabel = "NAME",
      description = "The dataset's name exactly as 'privet dataset list' shows it.")
  String name;

  @Option(names = "--to", required = true, paramLabel = "NEW",
      description = "The new name; must differ, ignoring case, from every dataset name ever used.")
  String to;

  @Override
  public Integer call() {
    try (Ledger ledger = workspace.open()) {
      DatasetSpec d = ledger.renameDataset(name, to);
      spec.commandLine().getOut().printf("dataset '%s' is now named '%s'%n", name, d.name());
      spec.commandLine().getOut().flush();
    }
    return ExitCodes.OK;
  }
}
