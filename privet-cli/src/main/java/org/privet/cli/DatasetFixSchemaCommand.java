package org.privet.cli;

import java.util.concurrent.Callable;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.PublicSchema;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.RegisteredSchema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet dataset fix-schema --name NAME [--schema name:type,...]}: the migration step for a
 * dataset registered before public schemas were fixed at registration. Queries on such a dataset
 * are refused until its curator fixes its schema, once, as {@code dataset register} does.
 */
@Command(name = "fix-schema", mixinStandardHelpOptions = true,
    description = {"Fix the public schema of a dataset registered without one (older ledgers).",
        "Queries on such a dataset are refused until this is done; the schema is fixed once."})
final class DatasetFixSchemaCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;

  @Option(names = {"--name", "--dataset"}, required = true, paramLabel = "NAME", description = "Dataset name.")
  String name;

  @Option(names = "--schema", paramLabel = "NAME:TYPE,...",
      description = "The public schema (as for dataset register); default: inferred from the file now.")
  String schema;

  @Override
  public Integer call() {
    try (Ledger ledger = workspace.open()) {
      DatasetSpec d = ledger.dataset(name);
      RegisteredSchema fixed = ledger.fixSchema(d.name(), schema != null
          ? LedgerCatalog.registered(PublicSchema.parse(schema), RegisteredSchema.Origin.DECLARED)
          : DatasetRegisterCommand.inferSchema(d));
      spec.commandLine().getOut().printf("dataset '%s': public schema (%s) fixed: %s%n", d.name(),
          fixed.origin().cliName(), fixed);
      spec.commandLine().getOut().flush();
    }
    return ExitCodes.OK;
  }
}
