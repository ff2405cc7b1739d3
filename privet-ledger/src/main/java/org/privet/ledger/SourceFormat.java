package org.privet.ledger;

import java.util.Locale;

/** The format of a dataset's source: a file (CSV, Parquet) or a PostgreSQL table or view. */
public enum SourceFormat {
  CSV,
  PARQUET,
  /** A table or view in a PostgreSQL database ({@link DatabaseSource}). */
  POSTGRES;

  /** The format implied by a file name's extension ({@code .parquet} or {@code .pq} → Parquet). */
  public static SourceFormat ofFileName(String fileName) {
    String lower = fileName.toLowerCase(Locale.ROOT);
    return lower.endsWith(".parquet") || lower.endsWith(".pq") ? PARQUET : CSV;
  }
}
