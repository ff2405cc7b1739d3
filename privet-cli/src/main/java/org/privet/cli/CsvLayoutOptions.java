package org.privet.cli;

import java.util.ArrayList;
import java.util.List;
import org.privet.ledger.CsvOptions;
import picocli.CommandLine.Option;

/**
 * Shared options: how a CSV file is laid out ({@code --no-header}, {@code --columns},
 * {@code --delimiter}, {@code --null-string}), for {@code dataset register} and the anonymity
 * commands' {@code --data}.
 */
public final class CsvLayoutOptions {
  @Option(names = "--no-header", description = "The CSV has no header line (give --columns).")
  boolean noHeader;

  @Option(names = "--columns", split = ",", paramLabel = "NAME",
      description = "Column names of a CSV without header, comma separated.")
  List<String> columns = new ArrayList<>();

  @Option(names = "--delimiter", paramLabel = "TEXT", defaultValue = ",",
      description = "CSV field separator, 1 to 4 characters (default ',').")
  String delimiter;

  @Option(names = "--null-string", paramLabel = "TEXT", defaultValue = "",
      description = "CSV text standing for a missing value (e.g. '?').")
  String nullString;

  /** Whether the file has no header line. */
  public boolean noHeader() {
    return noHeader;
  }

  /** The column names given for a file without header (empty if none). */
  public List<String> columns() {
    return List.copyOf(columns);
  }

  public String delimiter() {
    return delimiter;
  }

  public String nullString() {
    return nullString;
  }

  /** The layout as the ledger keeps it. */
  CsvOptions ledgerOptions() {
    return new CsvOptions(!noHeader, delimiter, columns, nullString);
  }
}
