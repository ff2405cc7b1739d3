package org.privet.cli.anonymity;

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
      description = "The CSV or Parquet file (by extension), read through DuckDB.")
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

  /** A CSV or Parquet source (by extension) with the given CSV options. */
  static Source source(Path file, boolean noHeader, List<String> columns, String delimiter, String nullString) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".parquet")) {
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
