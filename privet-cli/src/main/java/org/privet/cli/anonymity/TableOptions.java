package org.privet.cli.anonymity;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.privet.engine.Source;
import org.privet.cli.CsvLayoutOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Shared options: the table to read (CSV or Parquet, through DuckDB) and its quasi-identifiers. */
final class TableOptions {
  @Option(names = "--data", required = true, paramLabel = "FILE",
      description = "The CSV or Parquet file (by extension), or a directory of Parquet part files,"
          + " read through DuckDB.")
  Path data;

  @Mixin CsvLayoutOptions csv;

  @Option(names = {"--quasi-identifiers", "--qi"}, required = true, split = ",", paramLabel = "COLUMN",
      description = "Quasi-identifiers: the columns an attacker can find elsewhere (comma separated).")
  List<String> quasiIdentifiers;

  @Option(names = "--sensitive", paramLabel = "COLUMN",
      description = "The sensitive column (kept unchanged; measured by l-diversity and t-closeness).")
  String sensitive;

  @Option(names = "--categorical", split = ",", paramLabel = "COLUMN",
      description = "Numeric columns to treat as unordered categories (e.g. codes).")
  List<String> categorical = List.of();

  /** The quasi-identifiers and the sensitive column; checks that --categorical names one of them. */
  List<String> columnsRead() {
    List<String> cols = new java.util.ArrayList<>(quasiIdentifiers);
    if (sensitive != null) {
      cols.add(sensitive);
    }
    for (String c : categorical) {
      if (!cols.contains(c)) {
        throw new IllegalArgumentException("--categorical: '" + c + "' is neither a quasi-identifier nor --sensitive");
      }
    }
    return cols;
  }

  /** The source as the engine spells it. */
  Source source() {
    return source(data, csv.noHeader(), csv.columns(), csv.delimiter(), csv.nullString());
  }

  /** Checks {@code --data} ({@link #requireReadable}). */
  void requireData() throws NoSuchFileException {
    requireReadable(data, "--data", csv.noHeader() || !csv.columns().isEmpty());
  }

  /**
   * Checks a table path given as {@code option}: a regular file, or a directory of Parquet part
   * files checked as the dataset commands check {@code --source} ({@link
   * org.privet.curator.ParquetParts#require}: flat, only {@code *.parquet} part files beside
   * {@code _} and {@code .} files, at least one, one schema), the refusal naming {@code option}.
   *
   * @param csvLayoutGiven whether a CSV layout option ({@code --no-header}, column names) was given
   *     for it, refused with a directory
   * @throws NoSuchFileException if {@code path} is neither a file nor a directory
   */
  static void requireReadable(Path path, String option, boolean csvLayoutGiven)
      throws NoSuchFileException {
    if (Files.isDirectory(path)) {
      if (csvLayoutGiven) {
        throw new IllegalArgumentException(option + ": the CSV options apply to CSV files, not to"
            + " a directory of Parquet part files");
      }
      org.privet.curator.ParquetParts.require(path, option);
      return;
    }
    if (!Files.isRegularFile(path)) {
      throw new NoSuchFileException(path.toString());
    }
  }

  /**
   * A CSV or Parquet source (by extension; a directory is Parquet part files) with the given CSV
   * options.
   */
  static Source source(Path file, boolean noHeader, List<String> columns, String delimiter, String nullString) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (Files.isDirectory(file) || name.endsWith(".parquet")) {
      return Source.parquet(file);
    }
    Source.CsvFile csv = Source.csv(file).withDelimiter(delimiter).withNullString(nullString);
    if (noHeader) {
      if (columns.isEmpty()) {
        throw new IllegalArgumentException("--columns is required with --no-header");
      }
      csv = csv.withoutHeader(columns);
    }
    return csv;
  }
}
