package org.privet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.math.RoundingMode;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import org.privet.accounting.Budget;
import org.privet.accounting.PrivacyLoss;
import org.privet.curator.QueryExecution;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.client.PrivetClient;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.sql.DpStatement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet query [--format table|json|csv] [--explain] "<sql>"}: one DP SQL query against a
 * registered dataset (the FROM), charged to the ledger before anything is released. Files are
 * read by an in-process DuckDB, or with {@code --spark-master URL} by Apache Spark ({@link
 * SparkFiles}).
 */
@Command(
    name = "query",
    description = {
      "Run a DP SQL query on a registered dataset; the ledger is charged before release.",
      "The query is SELECT WITH DIFFERENTIAL_PRIVACY ... FROM <dataset> (see docs/sql.md); the",
      "answer is printed with confidence intervals. A refused query charges nothing."
    },
    mixinStandardHelpOptions = true)
final class QueryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin FormatOption format;
  @Mixin AnalystOption analyst;
  @Mixin ServerOption server;

  @Option(names = "--explain", description = "Show the plan (bounds, budget split, mechanisms, noise, expected errors); runs and charges nothing.")
  boolean explain;

  @Option(names = "--spark-master", paramLabel = "URL",
      description = {"Read the dataset's files (every table of it) with Apache Spark at this master,"
          + " e.g. local[2] or spark://HOST:7077, instead of DuckDB; the answer and the charge are"
          + " the same. Spark's jars must be on the classpath (README, \"Running on Spark\")."})
  String sparkMaster;

  @Parameters(index = "0", paramLabel = "SQL", description = "The DP SQL query.")
  String sql;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (server.remote()) {
      if (sparkMaster != null) {
        throw new IllegalArgumentException("--spark-master applies to the local workspace; the server"
            + " reads its own data (leave out --server or --spark-master)");
      }
      return remote(out, err);
    }
    try (Ledger ledger = workspace.open();
        Backend backend = sparkMaster == null ? DuckDbBackend.inMemory() : SparkFiles.open(sparkMaster);
        QueryExecution execution = new QueryExecution(ledger, backend)) {
      DpStatement st = execution.parse(sql);
      if (explain || st.explain()) {
        out.print(execution.explain(st));
        out.flush();
        return ExitCodes.OK;
      }
      QueryExecution.Outcome outcome = execution.run(st, analyst.resolve(), err);
      ResultPrinter.print(out, outcome, format.format);
      err.println(receiptLine(ledger, outcome));
      err.flush();
      return ExitCodes.OK;
    }
  }

  /**
   * The same query through {@code privet serve}: the same output, a receipt on stderr. A fresh
   * Idempotency-Key per invocation keeps the client's own retries from buying a second draw.
   */
  private int remote(PrintWriter out, PrintWriter err) {
    PrivetClient client = server.client();
    if (explain) {
      out.print(client.explain(sql).path("plan").asText());
      out.flush();
      return ExitCodes.OK;
    }
    JsonNode answer = client.query(sql, Optional.of(UUID.randomUUID().toString()));
    ResultPrinter.printRemote(out, answer, format.format);
    org.privet.ledger.Charge c = LedgerJson.readCharge(answer.path("charge"));
    err.println("privet: charged " + String.join(" + ", c.cost().stream().map(l -> Budget.describe(l, RoundingMode.CEILING)).toList())
        + " (ledger charge #" + c.id() + " at " + server.server + "); on dataset '" + c.dataset()
        + "' you have now spent " + Budget.describe(c.analystSpent(), RoundingMode.CEILING));
    err.flush();
    return ExitCodes.OK;
  }

  /** One line on what was charged and what the dataset has spent. */
  static String receiptLine(Ledger ledger, QueryExecution.Outcome outcome) {
    org.privet.ledger.Charge c = outcome.charge();
    PrivacyLoss total = outcome.result().receipt().charge().total();
    return "privet: charged " + Budget.describe(total, RoundingMode.CEILING)
        + " (ledger charge #" + c.id() + ", " + c.cost().size() + " mechanism(s)); dataset '"
        + c.dataset() + "' has now spent " + Budget.describe(c.spent(), RoundingMode.CEILING) + " of "
        + ledger.dataset(c.dataset()).budget().describe();
  }
}
