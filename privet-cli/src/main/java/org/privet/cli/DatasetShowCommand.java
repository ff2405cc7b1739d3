package org.privet.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.DatasetTable;
import org.privet.ledger.Ledger;
import org.privet.ledger.LedgerJson;
import org.privet.ledger.RegisteredSchema;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code privet dataset show --name NAME}: one dataset's registration, with its public schema and its tables. */
@Command(name = "show", description = "Show a dataset's registration.", mixinStandardHelpOptions = true)
final class DatasetShowCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin FormatOption format;

  @Option(names = {"--name", "--dataset"}, required = true, paramLabel = "NAME", description = "Dataset name.")
  String name;

  @Override
  public Integer call() {
    DatasetSpec d;
    Optional<RegisteredSchema> schema;
    List<DatasetTable> tables;
    try (Ledger ledger = workspace.open()) {
      d = ledger.dataset(name);
      schema = ledger.schema(d.name());
      tables = ledger.tables(d.name());
    }
    PrintWriter out = spec.commandLine().getOut();
    if (format.format == OutputFormat.JSON) {
      out.println(LedgerJson.writePretty(LedgerJson.dataset(d, schema).set("tables", LedgerJson.tables(d, tables))));
      out.flush();
      return ExitCodes.OK;
    }
    TextTable t = new TextTable(List.of("field", "value"));
    t.add(List.of("name", d.name()));
    t.add(List.of("source", d.source()));
    t.add(List.of("format", d.format().name().toLowerCase(java.util.Locale.ROOT)));
    if (d.format() == org.privet.ledger.SourceFormat.CSV) {
      t.add(List.of("csv", (d.csv().header() ? "header" : "no header, columns " + d.csv().columns())
          + ", delimiter '" + d.csv().delimiter() + "'"
          + (d.csv().nullString().isEmpty() ? "" : ", missing '" + d.csv().nullString() + "'")));
    }
    d.database().ifPresent(db -> {
      t.add(List.of("database", db.jdbcUrl() + db.user().map(u -> " as " + u).orElse("")));
      t.add(List.of("password", db.passwordFile().map(f -> "read from file " + f)
          .or(() -> db.passwordEnv().map(v -> "read from $" + v))
          .orElse("read from $" + org.privet.ledger.DatabaseSource.DEFAULT_PASSWORD_VARIABLE
              + " if set") + " at query time (never stored)"));
    });
    t.add(List.of("schema", schema.map(x -> x + " (" + x.origin().cliName() + ")")
        .orElse("none: fix one with privet dataset fix-schema")));
    t.add(List.of("privacy unit", d.privacyUnit().toString()));
    t.add(List.of("relation", d.relation().name()));
    t.add(List.of("budget", d.budget().describe()));
    t.add(List.of("accountant", d.accountant().cliName()));
    d.publicMetadata().bounds().forEach((c, b) ->
        t.add(List.of("bounds " + c, "[" + b.lower() + ", " + b.upper() + "]")));
    d.publicMetadata().publicKeys().forEach((c, k) ->
        t.add(List.of("public keys " + c, String.join(", ", k))));
    if (tables.size() > 1 || !tables.get(0).name().equals(d.name())) {
      for (DatasetTable table : tables) {
        t.add(List.of("table " + table.name(), describe(d, table)));
      }
    }
    t.print(out, format.format);
    return ExitCodes.OK;
  }

  /** One table: what it is to the privacy unit, its source (the unit table's is above) and schema. */
  private static String describe(DatasetSpec d, DatasetTable table) {
    if (table.unitTable()) {
      return "holds the privacy unit (" + d.privacyUnit() + "); source and schema above";
    }
    String role = table.spec().isPublic() ? "public" + (table.spec().referencedBy().isEmpty() ? ""
        : ", referenced by " + String.join(", ", table.spec().incoming().stream()
            .map(r -> r.table() + "." + r.column()).toList()))
        : "private, references " + String.join(", ", table.spec().references().stream()
            .map(org.privet.ledger.TableReference::toString).toList());
    return role + "; " + table.spec().source() + "; schema " + table.schema().map(Object::toString).orElse("none");
  }
}
