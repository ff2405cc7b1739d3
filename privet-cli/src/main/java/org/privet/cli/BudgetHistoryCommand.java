package org.privet.cli;

import java.io.PrintWriter;
import java.math.RoundingMode;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.accounting.Budget;
import org.privet.ledger.Charge;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privet budget history --dataset NAME [--format json]}: the append-only charges, oldest first. */
@Command(name = "history", description = "List every charge on a dataset, oldest first (JSON: an array of charges).",
    mixinStandardHelpOptions = true)
final class BudgetHistoryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin FormatOption format;
  @Mixin ServerOption server;

  @Option(names = "--dataset", required = true, paramLabel = "NAME", description = "Dataset name.")
  String dataset;

  @Override
  public Integer call() {
    List<Charge> charges;
    if (server.remote()) {
      charges = LedgerJson.readCharges(server.client().history(dataset));
    } else {
      try (Ledger ledger = workspace.open()) {
        charges = ledger.history(dataset);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (format.format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(LedgerJson.charges(charges)));
      out.flush();
      return ExitCodes.OK;
    }
    TextTable t = new TextTable(List.of("id", "time", "analyst", "cost", "spent after", "query"));
    for (Charge c : charges) {
      t.add(List.of(Long.toString(c.id()), c.time().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString(), c.analyst(),
          String.join(" + ", c.cost().stream().map(l -> Budget.describe(l, RoundingMode.CEILING)).toList()),
          Budget.describe(c.spent(), RoundingMode.CEILING), c.query().replaceAll("\\s+", " ")));
    }
    t.print(out, format.format);
    return ExitCodes.OK;
  }
}
