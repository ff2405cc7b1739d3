package org.privet.engine;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where a query reads its rows: a table registered with the backend, or a CSV or Parquet file.
 *
 * <p>Immutable. Validation of names happens here; whether the table or file exists is checked by
 * the backend when the query is compiled.
 */
public sealed interface Source permits Source.Table, Source.CsvFile, Source.ParquetFile {

  /** A table already known to the backend (e.g. registered from a Java collection). */
  static Table table(String name) {
    return new Table(name);
  }

  /** A CSV file with a header row, comma separated. */
  static CsvFile csv(Path path) {
    return new CsvFile(path, true, ",", List.of(), "");
  }

  /** A Parquet file. */
  static ParquetFile parquet(Path path) {
    return new ParquetFile(path);
  }

  /** A table known to the backend by name. */
  record Table(String name) implements Source {
    public Table {
      Names.requireIdentifier("table", name);
    }
  }

  /**
   * A CSV file.
   *
   * @param path the file
   * @param header whether the first line holds column names
   * @param delimiter the field separator (1 to 4 characters)
   * @param columnNames column names to use (required when there is no header; empty = from header)
   * @param nullString the text that stands for a missing value (e.g. "?"); empty = none besides an
   *     empty field
   */
  record CsvFile(Path path, boolean header, String delimiter, List<String> columnNames,
      String nullString) implements Source {
    public CsvFile {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(delimiter, "delimiter");
      Objects.requireNonNull(nullString, "nullString");
      if (delimiter.isEmpty() || delimiter.length() > 4) {
        throw new IllegalArgumentException("delimiter must have 1 to 4 characters");
      }
      columnNames = List.copyOf(columnNames);
      columnNames.forEach(c -> Names.requireIdentifier("columnNames", c));
      if (!header && columnNames.isEmpty()) {
        throw new IllegalArgumentException("columnNames are required when the CSV has no header");
      }
    }

    /** Returns a copy that reads the file without a header, naming its columns. */
    public CsvFile withoutHeader(List<String> names) {
      return new CsvFile(path, false, delimiter, names, nullString);
    }

    /** Returns a copy with another field separator. */
    public CsvFile withDelimiter(String newDelimiter) {
      return new CsvFile(path, header, newDelimiter, columnNames, nullString);
    }

    /** Returns a copy that reads {@code text} as a missing value. */
    public CsvFile withNullString(String text) {
      return new CsvFile(path, header, delimiter, columnNames, text);
    }
  }

  /** A Parquet file. */
  record ParquetFile(Path path) implements Source {
    public ParquetFile {
      Objects.requireNonNull(path, "path");
    }
  }
}
