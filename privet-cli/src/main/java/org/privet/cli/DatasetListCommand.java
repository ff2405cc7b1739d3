package org.privet.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privet dataset list}: the registered datasets. */
@Command(name = "list", description = "List the registered datasets.", mixinStandardHelpOptions = true)
final class DatasetListCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin FormatOption format;
  @Mixin ServerOption server;

  @Override
  public Integer call() {
    if (server.remote()) {
      return remote();
    }
    List<DatasetSpec> datasets;
    ArrayNode a = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    try (Ledger ledger = workspace.open()) {
      datasets = ledger.datasets();
      for (DatasetSpec d : datasets) {
        java.util.Optional<org.privet.ledger.RegisteredSchema> schema;
        try {
          schema = ledger.schema(d.name());
        } catch (org.privet.ledger.DatasetNameClashException clash) {
          // Listed so the curator can rename it; every other use is refused until then.
          spec.commandLine().getErr().println("privet: " + clash.getMessage());
          schema = java.util.Optional.empty();
        }
        com.fasterxml.jackson.databind.node.ObjectNode n = LedgerJson.dataset(d, schema);
        if (schema.isPresent()) {
          n.set("tables", LedgerJson.tables(d, ledger.tables(d.name())));
        }
        a.add(n);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (format.format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(a));
      out.flush();
      return ExitCodes.OK;
    }
    TextTable t = new TextTable(List.of("name", "privacy unit", "budget", "accountant", "source"));
    for (DatasetSpec d : datasets) {
      t.add(List.of(d.name(), d.privacyUnit().toString(), d.budget().describe(),
          d.accountant().cliName(), d.source()));
    }
    t.print(out, format.format);
    return ExitCodes.OK;
  }

  /** The datasets the key's holder may see (metadata and their budget view only). */
  private int remote() {
    com.fasterxml.jackson.databind.JsonNode datasets = server.client().datasets();
    PrintWriter out = spec.commandLine().getOut();
    if (format.format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(datasets));
      out.flush();
      return ExitCodes.OK;
    }
    TextTable t = new TextTable(List.of("name", "privacy unit", "budget", "spent", "remaining", "columns"));
    for (com.fasterxml.jackson.databind.JsonNode d : datasets) {
      List<String> columns = new java.util.ArrayList<>();
      d.path("columns").forEach(c -> columns.add(c.path("name").asText()));
      t.add(List.of(d.path("name").asText(), d.path("privacyUnit").asText(),
          org.privet.accounting.Budget.describe(LedgerJson.readPrivacyLossOf(d.path("budget").path("total"))),
          org.privet.accounting.Budget.describe(LedgerJson.readPrivacyLossOf(d.path("budget").path("spent")), java.math.RoundingMode.CEILING),
          org.privet.accounting.Budget.describe(LedgerJson.readPrivacyLossOf(d.path("budget").path("remaining")), java.math.RoundingMode.FLOOR),
          String.join(",", columns)));
    }
    t.print(out, format.format);
    return ExitCodes.OK;
  }
}
