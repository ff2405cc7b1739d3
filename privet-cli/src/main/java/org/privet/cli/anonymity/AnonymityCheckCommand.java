package org.privet.cli.anonymity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.anonymity.AnonymityCheck;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Microdata;
import org.privet.anonymity.TableReader;
import org.privet.cli.WorkspaceOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet anonymity check}: k and the class-size distribution, distinct ℓ-diversity,
 * t-closeness, generalized information loss, discernibility, and (with {@code --original}) the
 * marginal workload error. Reads raw tables and the generalized CSVs of {@code privet anonymize}.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = {
      "Report k, class sizes, distinct l-diversity, t-closeness and information loss of a table.",
      "Example: privet anonymity check --data adult-k5.csv --quasi-identifiers age,sex,race,native_country"
          + " --sensitive income"
    })
final class AnonymityCheckCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin TableOptions table;
  @Mixin WorkspaceOption workspace;

  @Option(names = "--original", paramLabel = "FILE",
      description = "The table before anonymization (a file, or a directory of Parquet part files),"
          + " for the marginal workload error and GIL's ranges.")
  Path original;

  @Option(names = "--original-no-header", description = "The original CSV has no header (give --original-columns).")
  boolean originalNoHeader;

  @Option(names = "--original-columns", split = ",", paramLabel = "NAME",
      description = "Column names of the original CSV without header.")
  List<String> originalColumns = List.of();

  @Option(names = "--original-delimiter", paramLabel = "TEXT", defaultValue = ",",
      description = "The original CSV's field separator (default ',').")
  String originalDelimiter;

  @Option(names = "--original-null-string", paramLabel = "TEXT", defaultValue = "",
      description = "The original CSV's text for a missing value.")
  String originalNullString;

  @Option(names = NotDpGuard.CONFIRM,
      description = "Allow reading a dataset registered in the ledger (nothing here is DP).")
  boolean confirmed;

  @Override
  public Integer call() throws IOException {
    table.requireData();
    NotDpGuard.check(workspace, table.data, "--data", confirmed);
    if (original != null) {
      TableOptions.requireReadable(original, "--original",
          originalNoHeader || !originalColumns.isEmpty());
      NotDpGuard.check(workspace, original, "--original", confirmed);
    }
    List<String> cols = table.columnsRead();
    Microdata data = TableReader.read(table.source(), cols, "--quasi-identifiers").withCategorical(table.categorical);
    Microdata before = original == null ? null
        : TableReader.read(TableOptions.source(original, originalNoHeader, originalColumns, originalDelimiter,
            originalNullString), cols, "--original").withCategorical(table.categorical);
    PrintWriter o = spec.commandLine().getOut();
    CheckPrinter.print(o, AnonymityCheck.check(GeneralizedTable.fromMicrodata(data, table.quasiIdentifiers,
        table.sensitive), before));
    o.flush();
    return 0;
  }
}
