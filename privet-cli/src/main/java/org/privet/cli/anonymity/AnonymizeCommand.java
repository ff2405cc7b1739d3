package org.privet.cli.anonymity;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.anonymity.AnonymityCheck;
import org.privet.anonymity.FullDomainGeneralization;
import org.privet.anonymity.GeneralizedTable;
import org.privet.anonymity.Hierarchies;
import org.privet.anonymity.Microdata;
import org.privet.anonymity.Mondrian;
import org.privet.anonymity.TableReader;
import org.privet.cli.WorkspaceOption;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code privet anonymize}: a k-anonymous (optionally ℓ-diverse) copy of a table by generalization
 * and suppression. Not a DP release: it charges no budget, says so in the output's header comment
 * and report, and refuses a dataset registered in the ledger unless the curator confirms.
 */
@Command(
    name = "anonymize",
    mixinStandardHelpOptions = true,
    description = {
      "Write a k-anonymous copy of a table (generalization and suppression).",
      "NOT differential privacy: no formal guarantee, no budget charged (see `privet attack`).",
      "Example: privet anonymize --data data/adult-raw/adult.data --no-header --columns age,workclass,..."
          + " --delimiter ', ' --quasi-identifiers age,sex,race,native_country --sensitive income --k 5"
          + " --out adult-k5.csv"
    })
public final class AnonymizeCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Mixin TableOptions table;
  @Mixin WorkspaceOption workspace;

  @Option(names = "--k", required = true, description = "Least equivalence-class size (>= 1).")
  int k;

  @Option(names = "--l", defaultValue = "1",
      description = "Least number of distinct sensitive values per class (distinct l-diversity; default 1: off).")
  int l;

  @Option(names = "--method", defaultValue = "mondrian",
      description = "mondrian (strict multidimensional, default) | full-domain (needs --hierarchies"
          + " for categorical quasi-identifiers; numeric ones get interval hierarchies).")
  String method;

  @Option(names = "--hierarchies", paramLabel = "FILE",
      description = "Full-domain hierarchies: lines COLUMN;value;level1;level2;... (last level usually *).")
  Path hierarchies;

  @Option(names = "--max-suppression", defaultValue = "0.05",
      description = "Full-domain: most rows that may be suppressed, as a fraction (default 0.05).")
  double maxSuppression;

  @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the CSV.")
  Path out;

  @Option(names = NotDpGuard.CONFIRM,
      description = "Allow reading a dataset registered in the ledger (the output is NOT a DP release).")
  boolean confirmed;

  @Override
  public Integer call() throws IOException {
    if (k < 1) {
      throw new IllegalArgumentException("--k must be at least 1");
    }
    if (l < 1) {
      throw new IllegalArgumentException("--l must be at least 1");
    }
    if (l > 1 && table.sensitive == null) {
      throw new IllegalArgumentException("--l needs --sensitive");
    }
    table.requireData();
    NotDpGuard.check(workspace, table.data, "--data", confirmed);
    List<String> cols = table.columnsRead();
    Microdata data = TableReader.read(table.source(), cols, "--quasi-identifiers").withCategorical(table.categorical);
    GeneralizedTable g = switch (method) {
      case "mondrian" -> new Mondrian(k, l).anonymize(data, table.quasiIdentifiers, table.sensitive);
      case "full-domain" -> new FullDomainGeneralization(k, l, maxSuppression)
          .anonymize(data, table.quasiIdentifiers, table.sensitive,
              hierarchies == null ? Hierarchies.none() : Hierarchies.read(hierarchies));
      default -> throw new IllegalArgumentException("--method must be mondrian or full-domain");
    };
    try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      g.writeCsv(w);
    }
    PrintWriter o = spec.commandLine().getOut();
    o.println("Wrote " + out + ": " + g.rows() + " rows, " + g.suppressed() + " suppressed (" + g.method() + ").");
    o.println("NOT a differential privacy release: no formal guarantee, no privacy budget charged.");
    CheckPrinter.print(o, AnonymityCheck.check(g, data));
    o.flush();
    return 0;
  }
}
