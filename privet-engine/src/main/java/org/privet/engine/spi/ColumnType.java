package org.privet.engine.spi;

/** The kinds of column the engine distinguishes. */
public enum ColumnType {
  INTEGER, FLOATING, DECIMAL, STRING, BOOLEAN, DATE, TIMESTAMP, OTHER;

  /** True for types that SUM/MEAN/QUANTILES accept. */
  public boolean isNumeric() {
    return this == INTEGER || this == FLOATING || this == DECIMAL;
  }
}
