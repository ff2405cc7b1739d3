package org.privet.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import java.util.TreeMap;
import org.privet.cli.PrivetCommand;
import picocli.CommandLine;

/** The {@code privet} CLI run in-process, for this module's command tests (which have Spark). */
final class CliCommands {
  private CliCommands() {}

  /** One command's exit code and output. */
  record Run(int code, String out, String err) {}

  static Run privet(String... args) {
    CommandLine cl = PrivetCommand.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  /** {@link #privet}, asserted to have exited 0. */
  static Run ok(String... args) {
    Run r = privet(args);
    assertEquals(0, r.code(), String.join(" ", args) + "\n" + r);
    return r;
  }

  /**
   * A grouped JSON answer's released values, rounded, by group: per row the key of column {@code
   * key} (a public group's key is an object with its "value") and the estimate of {@code value}.
   */
  static Map<String, Long> released(String json, String key, String value) throws Exception {
    Map<String, Long> out = new TreeMap<>();
    for (JsonNode row : new ObjectMapper().readTree(json).get("rows")) {
      JsonNode k = row.get(key);
      out.put(k.isObject() ? k.get("value").asText() : k.asText(),
          Math.round(row.get(value).get("value").asDouble()));
    }
    return out;
  }
}
