package org.privet.cli;

import java.util.concurrent.Callable;
import org.privet.ledger.Grant;
import org.privet.ledger.Ledger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privet budget grant --dataset NAME --analyst A --epsilon E [--delta D] | --rho R}. */
@Command(name = "grant", description = "Give an analyst a share of a dataset's total budget (replaces an earlier grant).",
    mixinStandardHelpOptions = true)
final class BudgetGrantCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin BudgetOptions budget;

  @Option(names = "--dataset", required = true, paramLabel = "NAME", description = "Dataset name.")
  String dataset;

  @Option(names = "--analyst", required = true, paramLabel = "NAME", description = "The analyst.")
  String analyst;

  @Override
  public Integer call() {
    Grant g;
    try (Ledger ledger = workspace.open()) {
      g = ledger.grant(dataset, analyst, budget.budget());
    }
    spec.commandLine().getOut().printf("granted analyst '%s' a share of %s on dataset '%s'%n",
        g.analyst(), g.share().describe(), g.dataset());
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}
