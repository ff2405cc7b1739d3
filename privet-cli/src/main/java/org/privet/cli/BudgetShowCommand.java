package org.privet.cli;

import java.io.PrintWriter;
import java.math.RoundingMode;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.accounting.Budget;
import org.privet.ledger.BudgetStatus;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privet budget show --dataset NAME [--analyst A] [--format json]}. */
@Command(name = "show", description = "Show the total, spent and remaining budget of a dataset (or of one analyst).",
    mixinStandardHelpOptions = true)
final class BudgetShowCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin FormatOption format;
  @Mixin ServerOption server;

  @Option(names = "--dataset", required = true, paramLabel = "NAME", description = "Dataset name.")
  String dataset;

  @Option(names = "--analyst", paramLabel = "NAME",
      description = "Show this analyst's spend against their share (default: the dataset's total).")
  String analyst;

  @Override
  public Integer call() {
    BudgetStatus s;
    if (server.remote()) {
      if (analyst != null) {
        throw new IllegalArgumentException("--analyst: with --server the analyst is the key's holder");
      }
      print(spec.commandLine().getOut(), LedgerJson.readStatus(server.client().budget(dataset)), format.format);
      return ExitCodes.OK;
    }
    try (Ledger ledger = workspace.open()) {
      s = analyst == null ? ledger.status(dataset) : ledger.status(dataset, analyst);
    }
    print(spec.commandLine().getOut(), s, format.format);
    return ExitCodes.OK;
  }

  static void print(PrintWriter out, BudgetStatus s, OutputFormat format) {
    if (format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(LedgerJson.status(s)));
      out.flush();
      return;
    }
    TextTable t = new TextTable(List.of("dataset", "analyst", "accountant", "total", "spent", "remaining", "charges"));
    t.add(List.of(s.dataset(), s.analyst().orElse("(all)"), s.accountant().cliName(),
        s.total().describe(), Budget.describe(s.spent(), RoundingMode.CEILING),
        Budget.describe(s.remaining(), RoundingMode.FLOOR),
        Integer.toString(s.charges())));
    t.print(out, format);
  }
}
