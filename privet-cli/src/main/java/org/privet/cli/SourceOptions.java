package org.privet.cli;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import org.privet.curator.LedgerCatalog;
import org.privet.engine.PublicSchema;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatabaseSource;
import org.privet.ledger.RegisteredSchema;
import org.privet.ledger.SourceFormat;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Shared options: where a registered table's rows are, a file ({@code --source}, {@code
 * --source-format}, the CSV layout, {@code --schema}) or a PostgreSQL table ({@code --jdbc-url},
 * {@code --table}, {@code --db-user}, {@code --db-password-*}); for {@code dataset register} and
 * {@code dataset add-table}.
 */
final class SourceOptions {
  @Option(names = "--source", paramLabel = "PATH",
      description = "The CSV or Parquet file (by extension; see --source-format), or a directory of Parquet part files as Spark writes it (part-*.parquet, _SUCCESS and .crc files ignored).")
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

  @Mixin CsvLayoutOptions csv;

  @Option(names = "--schema", paramLabel = "NAME:TYPE,...",
      description = {"The public schema, every column in file order; types: integer, double,"
          + " string, boolean, date, timestamp.",
          "Default: inferred from the file now, by you, and fixed from then on (a value that does"
          + " not parse as its column's type is read as NULL)."})
  String schema;

  /**
   * Where the rows are.
   *
   * @param source the absolute file path, or the table
   * @param format the source format (empty: from the file name)
   */
  record Located(String source, Optional<SourceFormat> format, CsvOptions csv, Optional<DatabaseSource> database) {
    /** The format given, else the database's, else the file name's. */
    SourceFormat resolvedFormat() {
      return format.orElseGet(() -> database.isPresent() ? SourceFormat.POSTGRES : SourceFormat.ofFileName(source));
    }
  }

  /**
   * Checks the options and says where the rows are.
   *
   * @param datasetDatabase for {@code add-table}, the database of the dataset's tables: a table of
   *     it may be given by {@code --table} alone
   */
  Located locate(Optional<DatabaseSource> datasetDatabase) throws NoSuchFileException {
    boolean database = jdbcUrl != null || (table != null && source == null && datasetDatabase.isPresent());
    if ((source == null) == !database) {
      throw new IllegalArgumentException("give --source FILE or --jdbc-url URL --table NAME (one of them)");
    }
    Optional<SourceFormat> format = Optional.ofNullable(sourceFormat)
        .map(f -> SourceFormat.valueOf(f.toUpperCase(Locale.ROOT)));
    if (!database) {
      if (table != null || dbUser != null || dbPasswordEnv != null || dbPasswordFile != null) {
        throw new IllegalArgumentException("--table, --db-user and --db-password-* need --jdbc-url");
      }
      Path file = source.toAbsolutePath().normalize();
      if (Files.isDirectory(file)) {
        // Parquet part files (Spark's layout): one table, checked now (before anything is stored).
        if (format.isPresent() && format.get() != SourceFormat.PARQUET) {
          throw new IllegalArgumentException("--source: a directory is read as Parquet part files;"
              + " --source-format " + sourceFormat + " needs a file");
        }
        if (csv.noHeader() || !csv.columns().isEmpty()) {
          throw new IllegalArgumentException("--source: the CSV options apply to CSV files, not to"
              + " a directory of Parquet part files");
        }
        org.privet.curator.ParquetParts.require(file, "--source");
        return new Located(file.toString(), Optional.of(SourceFormat.PARQUET), csv.ledgerOptions(),
            Optional.empty());
      }
      if (!Files.isRegularFile(file)) {
        throw new NoSuchFileException(file.toString(), null, "no such source file");
      }
      return new Located(file.toString(), format, csv.ledgerOptions(), Optional.empty());
    }
    if (table == null) {
      throw new IllegalArgumentException("--jdbc-url needs --table SCHEMA.TABLE");
    }
    if (schema != null || sourceFormat != null || csv.noHeader() || !csv.columns().isEmpty()) {
      throw new IllegalArgumentException("--schema, --source-format and the CSV options apply to"
          + " files; a table's public schema is read from its catalog");
    }
    DatabaseSource db = jdbcUrl == null ? datasetDatabase.orElseThrow()
        : new DatabaseSource(jdbcUrl.strip(), Optional.ofNullable(dbUser), Optional.ofNullable(dbPasswordEnv),
            Optional.ofNullable(dbPasswordFile).map(f -> f.toAbsolutePath().normalize().toString()));
    return new Located(DatabaseSource.requireTable(table), format, CsvOptions.DEFAULT, Optional.of(db));
  }

  /** The declared schema, if {@code --schema} was given. */
  Optional<RegisteredSchema> declared() {
    return Optional.ofNullable(schema)
        .map(s -> LedgerCatalog.registered(PublicSchema.parse(s), RegisteredSchema.Origin.DECLARED));
  }

  /** How the schema was fixed, as the registering commands print it. */
  String origin(RegisteredSchema fixed) {
    return fixed.origin() == RegisteredSchema.Origin.DECLARED ? "declared"
        : jdbcUrl != null || table != null ? "read from the table's catalog now" : "inferred from the file now";
  }
}
