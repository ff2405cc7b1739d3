package org.privet.sql;

/**
 * A DP SQL query was refused before anything ran (so nothing was charged).
 *
 * <p>The message has the form {@code "line L, column C: reason"}. Positions refer to the text the
 * user wrote (1-based; a tab counts as one column). The reason names the offending construct using
 * the query's own text, the dataset's column names and the public options only; it never contains a
 * value read from the protected table.
 */
public final class DpSqlException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final int line;
  private final int column;
  private final String reason;

  DpSqlException(int line, int column, String reason) {
    super("line " + line + ", column " + column + ": " + reason);
    this.line = line;
    this.column = column;
    this.reason = reason;
  }

  /** The 1-based line of the offending text. */
  public int line() {
    return line;
  }

  /** The 1-based column of the offending text. */
  public int column() {
    return column;
  }

  /** Why the query was refused (without the position). */
  public String reason() {
    return reason;
  }
}
