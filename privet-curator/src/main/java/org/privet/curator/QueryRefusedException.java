package org.privet.curator;

/**
 * A query refused before anything was charged or released (an unsafe or invalid DP query, or one
 * that does not match its dataset's registration). The CLI exits with code 3 ({@code REFUSED}); the
 * server answers 422 ({@code refused}).
 */
public final class QueryRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public QueryRefusedException(String message, Throwable cause) {
    super(message, cause);
  }

  public QueryRefusedException(String message) {
    super(message);
  }
}
