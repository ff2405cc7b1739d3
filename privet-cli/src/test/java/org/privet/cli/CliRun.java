package org.privet.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of {@code privet ...}: exit code, stdout and stderr. */
public record CliRun(int code, String out, String err) {
  /** Runs {@code privet args...} in process. */
  public static CliRun of(String... args) {
    CommandLine cl = PrivetCommand.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
