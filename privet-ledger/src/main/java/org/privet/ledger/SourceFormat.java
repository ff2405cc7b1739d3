package org.privet.ledger;

import java.util.Locale;

/** The file format of a dataset's source. */
public enum SourceFormat {
  CSV,
  PARQUET;

  /** The format implied by a file name's extension ({@code .parquet} or {@code .pq} → Parquet). */
  public static SourceFormat ofFileName(String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    return lower.endsWith(".parquet") || lower.endsWith(".pq") ? PARQUET : CSV;
  }
}
