package org.privet.server;

import java.util.OptionalInt;

/**
 * An error answered to the client as {@code {"error": {"code", "message"[, "line", "column"]}}}
 * with an HTTP status. Messages name a parameter or a SQL position, never a data value, a key or a
 * driver message.
 */
final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;
  private final transient OptionalInt line;
  private final transient OptionalInt column;
  private final transient OptionalInt retryAfterSeconds;

  ApiException(int status, String code, String message) {
    this(status, code, message, OptionalInt.empty(), OptionalInt.empty());
  }

  ApiException(int status, String code, String message, OptionalInt line, OptionalInt column) {
    this(status, code, message, line, column, OptionalInt.empty());
  }

  private ApiException(int status, String code, String message, OptionalInt line, OptionalInt column,
      OptionalInt retryAfterSeconds) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
    this.line = line;
    this.column = column;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  int status() {
    return status;
  }

  String code() {
    return code;
  }

  OptionalInt line() {
    return line;
  }

  OptionalInt column() {
    return column;
  }

  /** The {@code Retry-After} header's seconds (429 only): a fixed wait, public by construction. */
  OptionalInt retryAfterSeconds() {
    return retryAfterSeconds;
  }

  static ApiException badRequest(String message) {
    return new ApiException(400, "bad_request", message);
  }

  static ApiException unauthorized() {
    return new ApiException(401, "unauthorized", "a valid API key is required (Authorization: Bearer KEY)");
  }

  static ApiException forbidden() {
    return new ApiException(403, "forbidden", "this route needs the curator role");
  }

  static ApiException notFound(String what) {
    return new ApiException(404, "not_found", what);
  }

  static ApiException rateLimited(String message, int retryAfterSeconds) {
    return new ApiException(429, "rate_limited", message, OptionalInt.empty(), OptionalInt.empty(),
        OptionalInt.of(retryAfterSeconds));
  }
}
