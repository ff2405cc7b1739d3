package org.privet.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.privet.curator.LedgerCatalog;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;
import org.privet.ledger.RegisteredSchema;
import org.privet.ledger.TableReference;
import org.privet.ledger.TableSpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet dataset add-table --dataset NAME --name TABLE --source PATH (--references
 * COLUMN=TABLE.COLUMN ... | --public)}: adds a table to a registered dataset, which keeps its one
 * budget (issue 25). A private table reaches the privacy unit through its references (each to a
 * table added before it, the first being the unit table); a public table's contents are public,
 * and {@code --referenced-by} declares the references to it of private tables added before it (the
 * unit table's, e.g. {@code customer.c_nationkey}, which no other command could declare).
 * Its public schema is fixed now, as {@code dataset register} fixes the first table's, and its
 * references and public flag with it. For a dataset in PostgreSQL, {@code --table SCHEMA.TABLE}
 * names a table of the dataset's database. Each reference's target column must be a key of its
 * table (no duplicate non-NULL values), checked on the data now ({@link LedgerCatalog#addTable}).
 */
@Command(name = "add-table", mixinStandardHelpOptions = true,
    description = {"Add a table to a registered dataset (one dataset, one budget, several tables).",
        "A private table gives --references to a table that reaches the privacy unit; a public"
            + " table (--public) holds public data, e.g. nations."})
final class DatasetAddTableCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;

  @Option(names = "--dataset", required = true, paramLabel = "NAME", description = "The dataset.")
  String dataset;

  @Option(names = "--name", required = true, paramLabel = "TABLE",
      description = "The table's name in queries (unique within the dataset, ignoring case).")
  String name;

  @Mixin SourceOptions from;

  @Option(names = "--references", paramLabel = "COLUMN=TABLE.COLUMN",
      description = {"A column of this table that references a column of a table of the dataset"
          + " (a foreign key; repeatable).",
          "A private table needs one: its rows belong to the privacy unit of the rows they reference."})
  List<String> references = new ArrayList<>();

  @Option(names = "--referenced-by", paramLabel = "COLUMN=TABLE.COLUMN",
      description = {"With --public: a column of this table that a column of a private table added"
          + " before it references (repeatable), e.g. n_nationkey=customer.c_nationkey for the unit"
          + " table, which no add-table can declare; checked as --references is."})
  List<String> referencedBy = new ArrayList<>();

  @Option(names = "--public",
      description = "The table's contents are public (no privacy unit, no references); its values may serve as public group keys.")
  boolean isPublic;

  @Override
  public Integer call() throws Exception {
    List<TableReference> refs = references.stream().map(TableReference::parse).toList();
    List<TableReference> by = referencedBy.stream().map(r -> {
      try {
        return TableReference.parse(r);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("referenced-by must look like COLUMN=TABLE.COLUMN (this"
            + " table's column, then the referencing table and column), was " + r);
      }
    }).toList();
    DatasetTable added;
    try (Ledger ledger = workspace.open()) {
      DatasetSpec d = ledger.dataset(dataset);
      SourceOptions.Located at = from.locate(d.database());
      TableSpec table = new TableSpec(name, at.source(), at.resolvedFormat(), at.csv(), at.database(), refs,
          isPublic, by);
      ledger.requireTablePlace(d.name(), table); // before the source is read
      RegisteredSchema fixed = from.declared().orElseGet(() -> LedgerCatalog.inferSchema(table.asSource(d)));
      added = LedgerCatalog.addTable(ledger, d.name(), table, fixed); // checks the references' keys
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("added table '%s' (%s) to dataset '%s': %s%n", added.name(), added.spec().source(), dataset,
        added.spec().isPublic() ? "public" + (added.spec().referencedBy().isEmpty() ? ""
            : ", referenced by " + added.spec().incoming().stream().map(r -> r.table() + "." + r.column()).toList())
            : "private, references " + added.spec().references().stream()
            .map(TableReference::toString).toList());
    out.printf("public schema (%s, fixed from now on): %s%n", from.origin(added.schema().orElseThrow()),
        added.schema().orElseThrow());
    out.flush();
    return ExitCodes.OK;
  }
}
