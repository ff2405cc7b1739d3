package org.privet.cli;

import java.io.FileNotFoundException;
import java.nio.file.NoSuchFileException;
import org.privet.curator.QueryRefusedException;
import org.privet.ledger.UnknownDatasetException;
import picocli.CommandLine;

/**
 * The fixed exit codes of {@code privet}, and the one place where exceptions become exit codes.
 *
 * <ul>
 *   <li>{@value #OK}: success
 *   <li>{@value #USAGE}: bad command-line usage or invalid parameter
 *   <li>{@value #REFUSED}: the query or request was refused (invalid or unsafe; nothing charged)
 *   <li>{@value #BUDGET_EXCEEDED}: the privacy budget does not cover the request (nothing charged)
 *   <li>{@value #NOT_FOUND}: a named dataset, analyst or file does not exist
 *   <li>{@value #INTERNAL}: an unexpected internal error
 * </ul>
 */
public final class ExitCodes {
  public static final int OK = 0;
  public static final int INTERNAL = 1;
  public static final int USAGE = 2;
  public static final int REFUSED = 3;
  public static final int BUDGET_EXCEEDED = 4;
  public static final int NOT_FOUND = 5;

  private ExitCodes() {}

  /** The exit code of an exception thrown by a command (most specific type first). */
  static int of(Throwable e) {
    if (e instanceof org.privet.client.PrivetApiException api) {
      return switch (api.status()) {
        case 409 -> BUDGET_EXCEEDED;
        case 422 -> REFUSED;
        case 404 -> NOT_FOUND;
        case 400, 401, 403, 413 -> USAGE;
        default -> INTERNAL;
      };
    }
    if (e instanceof org.privet.accounting.BudgetExceededException) {
      return BUDGET_EXCEEDED;
    }
    if (e instanceof UnknownDatasetException
        || e instanceof NoSuchFileException
        || e instanceof FileNotFoundException) {
      return NOT_FOUND;
    }
    if (e instanceof QueryRefusedException || e instanceof org.privet.ledger.DatasetNameClashException) {
      return REFUSED;
    }
    if (e instanceof IllegalArgumentException) {
      return USAGE;
    }
    return INTERNAL;
  }

  static int handleExecutionException(
      Exception e, CommandLine cl, CommandLine.ParseResult parseResult) {
    int code = of(e);
    if (e instanceof org.privet.client.PrivetApiException api) {
      cl.getErr().println("privet: " + api.getMessage() + " (server: HTTP " + api.status() + " " + api.code() + ")");
    } else if (code == INTERNAL) {
      cl.getErr().println("privet: internal error: " + e);
    } else if (code == NOT_FOUND && e instanceof NoSuchFileException f) {
      cl.getErr().println("privet: no such file: " + f.getFile());
    } else {
      cl.getErr().println("privet: " + e.getMessage());
    }
    cl.getErr().flush();
    return code;
  }

  static int handleParameterException(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    cl.getErr().println("privet: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, cl.getErr());
    cl.getErr().flush();
    return USAGE;
  }
}
