package org.privet.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.privet.curator.LedgerCatalog;
import org.privet.accounting.NeighbouringRelation;
import org.privet.ledger.AccountantKind;
import org.privet.ledger.ColumnBounds;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.PublicMetadata;
import org.privet.ledger.RegisteredSchema;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code privet dataset register --name NAME --source PATH --privacy-unit COLUMN --epsilon E
 * [--delta D] [--schema name:type,...]}: records a dataset, its total budget and its public
 * schema in the ledger. Without {@code --schema}, the schema is inferred from the file as it is
 * now: that is the curator's act, and the schema is fixed from then on (queries read the file
 * against it; docs/proofs/threat-model.md, "Public schema").
 *
 * <p>With {@code --jdbc-url URL --table SCHEMA.TABLE} the data stays in a PostgreSQL table or view
 * and queries run their bounding there; the ledger keeps the URL, table and user, and where the
 * password is read at query time ({@code --db-password-env VAR}, {@code --db-password-file FILE},
 * else {@code $PRIVET_DB_PASSWORD}), never the password. The schema is read from the catalog now.
 *
 * <p>With {@code --table-name NAME} the dataset's first table, the one holding the privacy unit,
 * goes by NAME in queries, and {@code dataset add-table} adds the others (issue 25).
 */
@Command(
    name = "register",
    description = "Register a dataset (CSV, Parquet, or a PostgreSQL table) with its privacy unit and total budget.",
    mixinStandardHelpOptions = true)
final class DatasetRegisterCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin WorkspaceOption workspace;
  @Mixin BudgetOptions budget;

  @Option(names = "--name", required = true, paramLabel = "NAME",
      description = "Dataset name, used in the FROM of queries.")
  String name;

  @Option(names = "--table-name", paramLabel = "NAME",
      description = {"The name of this first table in queries, when the dataset will have several"
          + " (add the others with dataset add-table); default: the dataset's name."})
  String tableName;

  @Mixin SourceOptions from;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Unit unit;

  static final class Unit {
    @Option(names = "--privacy-unit", paramLabel = "COLUMN",
        description = "Column identifying the person: all their rows are protected together.")
    String column;

    @Option(names = "--row-privacy",
        description = "Each row is its own privacy unit (one row per person).")
    boolean row;
  }

  @Option(names = "--accountant", paramLabel = "NAME",
      description = "basic or zcdp (default: basic; zcdp with --rho).")
  String accountant;

  @Option(names = "--relation", paramLabel = "RELATION", defaultValue = "add-remove",
      description = "Neighbouring relation: add-remove (default).")
  String relation;

  @Option(names = "--bounds", paramLabel = "COLUMN=LOW:HIGH",
      description = "Public bounds of a numeric column (repeatable).")
  List<String> bounds = new ArrayList<>();

  @Option(names = "--public-keys", paramLabel = "COLUMN=K1,K2,...",
      description = "Public set of group keys of a column (repeatable).")
  List<String> publicKeys = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    SourceOptions.Located at = from.locate(Optional.empty());
    if (!"add-remove".equals(relation)) {
      throw new IllegalArgumentException("relation must be add-remove (the engine states every "
          + "cost under add/remove-one-unit neighbours), was " + relation);
    }
    DatasetSpec.Builder b = DatasetSpec.builder()
        .name(name)
        .privacyUnit(unit.row ? PrivacyUnit.row() : PrivacyUnit.column(unit.column))
        .relation(NeighbouringRelation.ADD_REMOVE_ONE)
        .budget(budget.budget())
        .csv(at.csv())
        .source(at.source())
        .publicMetadata(new PublicMetadata(parseBounds(bounds), parseKeys(publicKeys)));
    at.database().ifPresent(b::database);
    at.format().ifPresent(b::format);
    if (accountant != null) {
      b.accountant(AccountantKind.parse(accountant));
    } else if (budget.budget().isZcdp()) {
      b.accountant(AccountantKind.ZCDP);
    }
    DatasetSpec built = b.build();
    RegisteredSchema fixed = from.declared().orElseGet(() -> inferSchema(built));
    DatasetSpec registered;
    try (Ledger ledger = workspace.open()) {
      registered = tableName == null ? ledger.register(built, fixed) : ledger.register(built, fixed, tableName);
    }
    spec.commandLine().getOut().printf("registered dataset '%s' (%s), privacy unit %s, budget %s, %s accountant%n",
        registered.name(), registered.source(), registered.privacyUnit(),
        registered.budget().describe(), registered.accountant().cliName());
    if (tableName != null) {
      spec.commandLine().getOut().printf("table '%s' holds the privacy unit; add the dataset's other"
          + " tables with privet dataset add-table --dataset %s%n", tableName, registered.name());
    }
    spec.commandLine().getOut().printf("public schema (%s, fixed from now on): %s%n", from.origin(fixed), fixed);
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }

  /** The curator's inference from the file as it is now (see {@link LedgerCatalog#inferred}). */
  static RegisteredSchema inferSchema(DatasetSpec spec) {
    return LedgerCatalog.inferSchema(spec);
  }

  static Map<String, ColumnBounds> parseBounds(List<String> specs) {
    Map<String, ColumnBounds> out = new LinkedHashMap<>();
    for (String s : specs) {
      int eq = s.indexOf('=');
      int colon = s.indexOf(':', eq + 1);
      if (eq <= 0 || colon < 0) {
        throw new IllegalArgumentException("--bounds must look like COLUMN=LOW:HIGH, was " + s);
      }
      try {
        out.put(s.substring(0, eq), new ColumnBounds(
            Double.parseDouble(s.substring(eq + 1, colon)), Double.parseDouble(s.substring(colon + 1))));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--bounds must look like COLUMN=LOW:HIGH, was " + s);
      }
    }
    return out;
  }

  static Map<String, List<String>> parseKeys(List<String> specs) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String s : specs) {
      int eq = s.indexOf('=');
      if (eq <= 0 || eq == s.length() - 1) {
        throw new IllegalArgumentException("--public-keys must look like COLUMN=K1,K2,..., was " + s);
      }
      out.put(s.substring(0, eq), List.of(s.substring(eq + 1).split(",", -1)));
    }
    return out;
  }
}
