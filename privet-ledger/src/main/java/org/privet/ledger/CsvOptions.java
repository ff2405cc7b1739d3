package org.privet.ledger;

import java.util.List;

/**
 * How to read a CSV source.
 *
 * @param header whether the first line holds the column names
 * @param delimiter the field separator (1 to 4 characters, e.g. {@code ", "} for UCI Adult)
 * @param columns the column names, required when there is no header (empty: from the header)
 * @param nullString the text standing for a missing value (e.g. {@code ?}); empty for none
 */
public record CsvOptions(boolean header, String delimiter, List<String> columns, String nullString) {
  /** A header line, comma separated, empty fields as missing values. */
  public static final CsvOptions DEFAULT = new CsvOptions(true, ",", List.of(), "");

  public CsvOptions {
    if (delimiter == null || delimiter.isEmpty() || delimiter.length() > 4) {
      throw new IllegalArgumentException("delimiter must have 1 to 4 characters, was '" + delimiter + "'");
    }
    if (columns == null) {
      throw new IllegalArgumentException("columns must not be null");
    }
    columns.forEach(c -> DatasetSpec.requireIdentifier("columns", c));
    columns = List.copyOf(columns);
    if (!header && columns.isEmpty()) {
      throw new IllegalArgumentException("columns are required when the CSV has no header");
    }
    if (nullString == null) {
      throw new IllegalArgumentException("nullString must not be null");
    }
  }
}
