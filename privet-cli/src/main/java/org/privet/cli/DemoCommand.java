package org.privet.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.privet.curator.LedgerCatalog;
import org.privet.accounting.Budget;
import org.privet.curator.QueryExecution;
import org.privet.curator.QueryRefusedException;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.ledger.BudgetStatus;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.PublicMetadata;
import org.privet.sql.DpStatement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet demo}: the main job on a fresh machine. Registers the bundled UCI Adult data in a
 * temporary workspace with a total budget, runs representative DP SQL queries through the same
 * path as {@code privet query} (ledger charge first), shows a refused query, and prints results
 * with confidence intervals and the remaining budget. Results go to stdout, progress to stderr.
 */
@Command(
    name = "demo",
    description = "Run DP queries on the bundled UCI Adult data in a temporary workspace.",
    mixinStandardHelpOptions = true,
    subcommands = org.privet.cli.anonymity.DemoAttacksCommand.class)
final class DemoCommand implements Callable<Integer> {
  static final String ATTRIBUTION = "UCI Adult (\"Census Income\"), Ronny Kohavi and Barry Becker, 1996;"
      + " UCI Machine Learning Repository, doi:10.24432/C5XW20, CC BY 4.0 (see data/adult-raw/README.md)";

  /** The columns of adult.data, in order (from adult.names; the file has no header). */
  static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");

  /** The public codebook's categories (adult.names), not derived from the rows. */
  static final Map<String, List<String>> PUBLIC_KEYS = Map.of("sex", List.of("Female", "Male"));

  static final Budget TOTAL_BUDGET = Budget.approx(3.0, 1e-5);

  static final List<String[]> QUERIES = List.of(
      new String[] {
        "How many people per education level? (private group selection needs delta > 0)",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6)\n"
            + "  education, COUNT(*) AS people\n"
            + "FROM adult GROUP BY education ORDER BY people DESC"
      },
      new String[] {
        "Mean hours worked per week by sex (public groups, each value clamped to [0, 100])",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5, group_selection_strategy = PUBLIC_GROUPS)\n"
            + "  sex, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS mean_hours\n"
            + "FROM adult GROUP BY sex"
      },
      new String[] {
        "Median age of adults over 25 (ages clamped to [0, 100])",
        "SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5)\n"
            + "  PERCENTILE_CONT(age, 0.5, contribution_bounds_per_row => (0, 100)) AS median_age\n"
            + "FROM adult WHERE age > 25"
      });

  static final String REFUSED_QUERY = "SELECT age, sex FROM adult";

  @Spec CommandSpec spec;

  @Option(names = "--data", paramLabel = "DIR",
      description = "Folder holding adult.data (default: data/adult-raw next to the privet launcher).")
  Path data;

  @Option(names = "--keep-workspace", description = "Keep the temporary workspace and print its path.")
  boolean keepWorkspace;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Path adult = data != null ? data.resolve("adult.data") : locateBundledAdult();
    if (!Files.isRegularFile(adult)) {
      throw new NoSuchFileException(adult.toString(), null, "no adult.data");
    }
    Path workspace = Files.createTempDirectory("privet-demo-");
    try {
      run(out, err, adult, workspace);
    } finally {
      if (keepWorkspace) {
        err.println("privet demo: workspace kept at " + workspace);
      } else {
        deleteTree(workspace);
      }
      err.flush();
    }
    return ExitCodes.OK;
  }

  private void run(PrintWriter out, PrintWriter err, Path adult, Path workspace) {
    out.println("Privet demo: differentially private queries with a durable privacy budget");
    out.println("Data: " + ATTRIBUTION);
    out.println();
    err.println("privet demo: temporary workspace " + workspace);
    err.flush();
    try (Ledger ledger = Ledger.open(workspace);
        DuckDbBackend backend = DuckDbBackend.inMemory()) {
      DatasetSpec spec = registerAdult(ledger, adult, backend);
      out.println("Registered dataset 'adult' (each row is one person, protected as a privacy unit)");
      out.println("with a total budget of " + spec.budget().describe() + " (" + spec.accountant().cliName()
          + " composition). Equivalent command:");
      out.println("  privet dataset register --name adult --source " + adult + " --no-header \\");
      out.println("      --columns " + String.join(",", COLUMNS) + " \\");
      out.println("      --delimiter ', ' --null-string '?' --row-privacy --epsilon 3 --delta 1e-5 \\");
      out.println("      --public-keys sex=Female,Male");
      QueryExecution execution = new QueryExecution(ledger, backend);
      int step = 1;
      for (String[] q : QUERIES) {
        out.println();
        out.println("[" + step + "/" + QUERIES.size() + "] " + q[0]);
        out.println(indent(q[1]));
        err.println("privet demo: query " + step + " of " + QUERIES.size() + "...");
        err.flush();
        DpStatement st = execution.parse(q[1]);
        QueryExecution.Outcome outcome = execution.run(st, "demo", err);
        ResultPrinter.print(out, outcome, OutputFormat.TABLE);
        out.println("  charged "
            + Budget.describe(outcome.result().receipt().charge().total(), RoundingMode.CEILING)
            + " (ledger charge #" + outcome.charge().id() + ", committed before release)");
        out.flush();
        step++;
      }
      out.println();
      out.println("A query that is not a DP aggregate is refused, and charges nothing:");
      out.println(indent(REFUSED_QUERY));
      try {
        execution.parse(REFUSED_QUERY);
        throw new IllegalStateException("the demo's unsafe query was not refused");
      } catch (QueryRefusedException e) {
        out.println("  -> " + e.getMessage());
      }
      out.println();
      BudgetStatus status = ledger.status("adult");
      out.println("Budget of 'adult' after " + status.charges() + " charges:");
      BudgetShowCommand.print(out, status, OutputFormat.TABLE);
      out.println();
      out.println("Intervals are 95% confidence intervals: they cover the exact value of the clamped");
      out.println("data (the median's: its grid cell, from a noisy quantile tree) at that rate.");
      out.println("Try it on your data: ./privet dataset register --help, ./privet query --help.");
      out.flush();
    }
  }

  /**
   * Registers the bundled Adult file as dataset {@code adult} (one row per person), with its public
   * schema inferred once at registration by {@code backend}.
   */
  static DatasetSpec registerAdult(Ledger ledger, Path adult, org.privet.engine.spi.Backend backend) {
    DatasetSpec adultSpec = DatasetSpec.builder()
        .name("adult")
        .source(adult.toAbsolutePath().toString())
        .csv(new CsvOptions(false, ", ", COLUMNS, "?"))
        .privacyUnit(PrivacyUnit.row())
        .budget(TOTAL_BUDGET)
        .publicMetadata(new PublicMetadata(Map.of(), PUBLIC_KEYS))
        .build();
    return ledger.register(adultSpec, LedgerCatalog.inferred(adultSpec, backend));
  }

  private static String indent(String sql) {
    return "  " + sql.replace("\n", "\n  ");
  }

  /**
   * The bundled {@code data/adult-raw/adult.data}, found by walking up from the folder of the
   * privet jar (the launcher sits at the repository root, the jar in {@code privet-cli/target}).
   */
  static Path locateBundledAdult() throws NoSuchFileException {
    Path start;
    try {
      start = JarLocation.path();
    } catch (IllegalStateException e) {
      throw new NoSuchFileException("data/adult-raw/adult.data", null, "cannot locate the privet jar");
    }
    for (Path p = start.toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("data").resolve("adult-raw").resolve("adult.data");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new NoSuchFileException("data/adult-raw/adult.data", null,
        "not found above " + start + "; pass --data DIR");
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A leftover temporary folder is harmless.
    }
  }
}
