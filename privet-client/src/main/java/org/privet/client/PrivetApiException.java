package org.privet.client;

import java.util.OptionalInt;

/**
 * An error answered by the server: {@code {"error": {"code", "message"[, "line", "column"]}}} with
 * its HTTP status (401 unauthorized, 403 forbidden, 404 not_found, 409 budget_exceeded, 422 refused,
 * 429 rate_limited, 500 internal, 400 bad_request).
 */
public final class PrivetApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;
  private final transient OptionalInt line;
  private final transient OptionalInt column;

  public PrivetApiException(int status, String code, String message, OptionalInt line, OptionalInt column) {
    super(message);
    this.status = status;
    this.code = code;
    this.line = line;
    this.column = column;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The error code, e.g. {@code refused}. */
  public String code() {
    return code;
  }

  /** The 1-based line of a refused query's offending text, when given. */
  public OptionalInt line() {
    return line;
  }

  /** The 1-based column of a refused query's offending text, when given. */
  public OptionalInt column() {
    return column;
  }
}
