package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's commands: their forms parse, the tour runs in order, the exit-code table is true. */
class ReadmeCommandsTest {
  @TempDir Path workspace;

  static Path repoRoot() {
    return org.privet.testing.Repository.root();
  }

  static String readme() throws IOException {
    return Files.readString(repoRoot().resolve("README.md"));
  }

  /** The indented code lines of a Markdown text, with backslash continuations joined. */
  static List<String> codeLines(String markdown) {
    List<String> out = new ArrayList<>();
    StringBuilder pending = null;
    for (String line : markdown.split("\n")) {
      if (!line.startsWith("    ")) {
        continue;
      }
      String code = line.strip();
      if (pending != null) {
        pending.append(' ');
      } else {
        pending = new StringBuilder();
      }
      if (code.endsWith("\\")) {
        pending.append(code, 0, code.length() - 1);
        continue;
      }
      pending.append(code);
      out.add(pending.toString().replaceAll("\\s+", " ").strip());
      pending = null;
    }
    return out;
  }

  /** Splits a shell command line into words (single and double quotes, no expansions). */
  static List<String> words(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder w = null;
    char quote = 0;
    for (char c : line.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          w.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        w = w == null ? new StringBuilder() : w;
      } else if (Character.isWhitespace(c)) {
        if (w != null) {
          out.add(w.toString());
          w = null;
        }
      } else {
        w = w == null ? new StringBuilder() : w;
        w.append(c);
      }
    }
    if (w != null) {
      out.add(w.toString());
    }
    return out;
  }

  static List<List<String>> privetCommands(String markdown) {
    List<List<String>> out = new ArrayList<>();
    for (String line : codeLines(markdown)) {
      if (line.startsWith("./privet ")) {
        List<String> w = words(line);
        out.add(new ArrayList<>(w.subList(1, w.size())));
      }
    }
    return out;
  }

  @Test
  void readme_quickStart_demoFirstThenVerify() throws IOException {
    List<String> code = codeLines(readme());
    assertEquals("./privet demo", code.get(0), "the README's first command");
    assertEquals("mvn -B -ntp verify", code.get(1));
    String ci = Files.readString(repoRoot().resolve(".ci/run"));
    assertTrue(ci.contains("mvn -B -ntp verify") && ci.contains("./privet demo"), ci);
  }

  @Test
  void readme_everyPrivetCommand_parses() throws IOException {
    List<List<String>> commands = privetCommands(readme());
    assertTrue(commands.size() >= 10, "found " + commands.size() + " commands");
    for (List<String> args : commands) {
      PrivetCommand.commandLine().parseArgs(args.toArray(String[]::new)); // throws if malformed
    }
  }

  @Test
  void readme_tour_runsInOrderAndChargesTheLedger() throws Exception {
    String readme = readme();
    String tour = readme.substring(readme.indexOf("## Command-line tour"), readme.indexOf("### Exit codes"));
    Path root = repoRoot();
    int ran = 0;
    for (List<String> args : privetCommands(tour)) {
      List<String> resolved = new ArrayList<>();
      for (String a : args) {
        resolved.add(a.startsWith("data/") ? root.resolve(a).toString() : a);
      }
      resolved.addAll(List.of("--workspace", workspace.toString()));
      CliRun r = CliRun.of(resolved.toArray(String[]::new));
      assertEquals(ExitCodes.OK, r.code(), String.join(" ", args) + "\n" + r);
      ran++;
    }
    assertTrue(ran >= 10);
    CliRun history = CliRun.of("budget", "history", "--dataset", "adult", "--format", "json",
        "--workspace", workspace.toString());
    JsonNode charges = new ObjectMapper().readTree(history.out());
    assertEquals(2, charges.size(), "the tour runs two charged queries (explain charges nothing)");
  }

  @Test
  void readme_exitCodeTable_matchesExitCodes() throws IOException {
    String readme = readme();
    String table = readme.substring(readme.indexOf("### Exit codes"));
    Matcher m = Pattern.compile("\\n\\| (\\d) \\| ([^|]+)\\|").matcher(table);
    List<String> rows = new ArrayList<>();
    while (m.find()) {
      rows.add(m.group(1) + " " + m.group(2).strip().split("[ :(]")[0]);
    }
    assertEquals(List.of(
        ExitCodes.OK + " success",
        ExitCodes.INTERNAL + " internal",
        ExitCodes.USAGE + " bad",
        ExitCodes.REFUSED + " query",
        ExitCodes.BUDGET_EXCEEDED + " privacy",
        ExitCodes.NOT_FOUND + " not"), rows);
  }
}
