package org.privet.cli;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
import org.privet.ledger.DatabaseSource;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.ledger.PrivacyUnit;
import org.privet.ledger.PublicMetadata;
import org.privet.ledger.RegisteredSchema;
import org.privet.engine.PublicSchema;
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

  @Option(names = "--source", paramLabel = "PATH",
      description = "The CSV or Parquet file (by extension; see --source-format).")
  Path source;

  @Option(names = "--jdbc-url", paramLabel = "URL",
      description = "A PostgreSQL database holding the data, jdbc:postgresql://HOST:PORT/DB (no password in it); with --table.")
  String jdbcUrl;

  @Option(names = "--table", paramLabel = "SCHEMA.TABLE",
      description = "The table or view of --jdbc-url holding the data.")
  String table;

  @Option(names = "--db-user", paramLabel = "NAME",
      description = "Database user of --jdbc-url (default: the driver's default).")
  String dbUser;

  @Option(names = "--db-password-env", paramLabel = "VAR",
      description = "Environment variable holding the database password at query time (its name is stored, never the value; default: PRIVET_DB_PASSWORD when set).")
  String dbPasswordEnv;

  @Option(names = "--db-password-file", paramLabel = "FILE",
      description = "File whose first line is the database password, read at query time (its path is stored).")
  Path dbPasswordFile;

  @Option(names = "--source-format", paramLabel = "FORMAT",
      description = "csv or parquet (default: from the extension).")
  String sourceFormat;

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

  @Mixin CsvLayoutOptions csv;

  @Option(names = "--bounds", paramLabel = "COLUMN=LOW:HIGH",
      description = "Public bounds of a numeric column (repeatable).")
  List<String> bounds = new ArrayList<>();

  @Option(names = "--public-keys", paramLabel = "COLUMN=K1,K2,...",
      description = "Public set of group keys of a column (repeatable).")
  List<String> publicKeys = new ArrayList<>();

  @Option(names = "--schema", paramLabel = "NAME:TYPE,...",
      description = {"The public schema, every column in file order; types: integer, double,"
          + " string, boolean, date, timestamp.",
          "Default: inferred from the file now, by you, and fixed from then on (a value that does"
          + " not parse as its column's type is read as NULL)."})
  String schema;

  @Override
  public Integer call() throws Exception {
    if ((source == null) == (jdbcUrl == null)) {
      throw new IllegalArgumentException("give --source FILE or --jdbc-url URL --table NAME (one of them)");
    }
    if (!"add-remove".equals(relation)) {
      throw new IllegalArgumentException("relation must be add-remove (the engine states every "
          + "cost under add/remove-one-unit neighbours), was " + relation);
    }
    DatasetSpec.Builder b = DatasetSpec.builder()
        .name(name)
        .privacyUnit(unit.row ? PrivacyUnit.row() : PrivacyUnit.column(unit.column))
        .relation(NeighbouringRelation.ADD_REMOVE_ONE)
        .budget(budget.budget())
        .csv(csv.ledgerOptions())
        .publicMetadata(new PublicMetadata(parseBounds(bounds), parseKeys(publicKeys)));
    if (jdbcUrl != null) {
      database(b);
    } else {
      file(b);
    }
    if (sourceFormat != null) {
      b.format(org.privet.ledger.SourceFormat.valueOf(sourceFormat.toUpperCase(java.util.Locale.ROOT)));
    }
    if (accountant != null) {
      b.accountant(AccountantKind.parse(accountant));
    } else if (budget.budget().isZcdp()) {
      b.accountant(AccountantKind.ZCDP);
    }
    DatasetSpec built = b.build();
    RegisteredSchema fixed = schema != null
        ? LedgerCatalog.registered(PublicSchema.parse(schema), RegisteredSchema.Origin.DECLARED)
        : inferSchema(built);
    DatasetSpec registered;
    try (Ledger ledger = workspace.open()) {
      registered = ledger.register(built, fixed);
    }
    spec.commandLine().getOut().printf("registered dataset '%s' (%s), privacy unit %s, budget %s, %s accountant%n",
        registered.name(), registered.source(), registered.privacyUnit(),
        registered.budget().describe(), registered.accountant().cliName());
    spec.commandLine().getOut().printf("public schema (%s, fixed from now on): %s%n",
        fixed.origin() == RegisteredSchema.Origin.DECLARED ? "declared"
            : jdbcUrl != null ? "read from the table's catalog now" : "inferred from the file now",
        fixed);
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }

  private void file(DatasetSpec.Builder b) throws NoSuchFileException {
    if (table != null || dbUser != null || dbPasswordEnv != null || dbPasswordFile != null) {
      throw new IllegalArgumentException("--table, --db-user and --db-password-* need --jdbc-url");
    }
    Path file = source.toAbsolutePath().normalize();
    if (!Files.isRegularFile(file)) {
      throw new NoSuchFileException(file.toString(), null, "no such source file");
    }
    b.source(file.toString());
  }

  /** A PostgreSQL table: its schema comes from the catalog, so CSV options and --schema do not apply. */
  private void database(DatasetSpec.Builder b) {
    if (table == null) {
      throw new IllegalArgumentException("--jdbc-url needs --table SCHEMA.TABLE");
    }
    if (schema != null || sourceFormat != null || csv.noHeader() || !csv.columns().isEmpty()) {
      throw new IllegalArgumentException("--schema, --source-format and the CSV options apply to"
          + " files; a table's public schema is read from its catalog");
    }
    b.source(DatabaseSource.requireTable(table)).database(new DatabaseSource(jdbcUrl.strip(),
        Optional.ofNullable(dbUser), Optional.ofNullable(dbPasswordEnv),
        Optional.ofNullable(dbPasswordFile).map(f -> f.toAbsolutePath().normalize().toString())));
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
