package org.privet.cli;

/**
 * A query refused before anything was charged or released (an unsafe or invalid DP query, or one
 * that does not match its dataset's registration). Exits with {@link ExitCodes#REFUSED}.
 */
final class QueryRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  QueryRefusedException(String message, Throwable cause) {
    super(message, cause);
  }

  QueryRefusedException(String message) {
    super(message);
  }
}
