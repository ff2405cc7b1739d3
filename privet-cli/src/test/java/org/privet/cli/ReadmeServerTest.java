package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.server.PrivetServer;
import org.privet.server.ServerOptions;

/**
 * The README's server section as a new user runs it, after the command-line tour registered the
 * Adult data: add an analyst, grant, serve, then the analyst asks with the README's {@code curl}
 * and with each {@code privet ... --server} command (key in {@code $PRIVET_API_KEY}).
 */
class ReadmeServerTest {
  static final String README_URL = "http://127.0.0.1:8080";
  @TempDir Path workspace;

  @Test
  void readme_serverSection_curatorSetsUpAnalystAsksWithCurlAndCli() throws Exception {
    String readme = ReadmeCommandsTest.readme();
    Path root = ReadmeCommandsTest.repoRoot();
    String tour = readme.substring(readme.indexOf("## Command-line tour"), readme.indexOf("### Exit codes"));
    for (List<String> args : ReadmeCommandsTest.privetCommands(tour)) {
      if (args.get(0).equals("dataset") && args.get(1).equals("register")) {
        List<String> resolved = new ArrayList<>();
        args.forEach(a -> resolved.add(a.startsWith("data/") ? root.resolve(a).toString() : a));
        resolved.addAll(List.of("--workspace", workspace.toString()));
        CliRun r = CliRun.of(resolved.toArray(String[]::new));
        assertEquals(ExitCodes.OK, r.code(), r.toString());
      }
    }
    String section = readme.substring(readme.indexOf("## The curator as a service"),
        readme.indexOf("### Behind a reverse proxy"));
    String key = null;
    PrivetServer server = null;
    int remote = 0;
    try {
      for (List<String> args : ReadmeServerTest.commands(section)) {
        if (args.get(0).equals("curl")) {
          assertTrue(server != null && key != null, "curl comes after serve");
          HttpResponse<String> r = curl(args, key, server.url());
          assertEquals(200, r.statusCode(), r.body());
          assertEquals("alice", new ObjectMapper().readTree(r.body()).path("charge").path("analyst").asText());
          continue;
        }
        List<String> privet = args.subList(1, args.size());
        if (privet.get(0).equals("serve")) {
          PrivetCommand.commandLine().parseArgs(privet.toArray(String[]::new));
          server = PrivetServer.start(ServerOptions.builder(workspace).port(0).build());
        } else if (privet.contains("--server")) {
          List<String> a = new ArrayList<>();
          for (String w : privet) {
            a.add(w.equals(README_URL) ? server.url() : w);
          }
          RemoteModeTest.Run r = run(a, key);
          assertEquals(ExitCodes.OK, r.code(), String.join(" ", privet) + "\n" + r);
          remote++;
        } else {
          List<String> a = new ArrayList<>(privet);
          a.addAll(List.of("--workspace", workspace.toString()));
          CliRun r = CliRun.of(a.toArray(String[]::new));
          assertEquals(ExitCodes.OK, r.code(), r.toString());
          if (privet.get(0).equals("analyst") && privet.get(1).equals("add")) {
            key = r.out().trim();
          }
        }
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
    assertTrue(remote >= 4, "the README's remote commands ran: " + remote);
    CliRun history = CliRun.of("budget", "history", "--dataset", "adult", "--format", "json",
        "--workspace", workspace.toString());
    JsonNode charges = new ObjectMapper().readTree(history.out());
    assertEquals(2, charges.size(), "curl and privet query --server each charged once");
  }

  /** The section's {@code ./privet} and {@code curl} command lines, as words. */
  static List<List<String>> commands(String markdown) {
    List<List<String>> out = new ArrayList<>();
    for (String line : ReadmeCommandsTest.codeLines(markdown)) {
      if (line.startsWith("./privet ") || line.startsWith("curl ")) {
        out.add(ReadmeCommandsTest.words(line));
      }
    }
    return out;
  }

  /** The README's curl line, sent with the JDK client ($PRIVET_API_KEY and the URL substituted). */
  private static HttpResponse<String> curl(List<String> words, String key, String base) throws Exception {
    HttpRequest.Builder b = null;
    List<String[]> headers = new ArrayList<>();
    String body = null;
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i);
      if (w.equals("-H")) {
        String h = words.get(++i).replace("$PRIVET_API_KEY", key);
        headers.add(new String[] {h.substring(0, h.indexOf(':')).trim(), h.substring(h.indexOf(':') + 1).trim()});
      } else if (w.equals("-d")) {
        body = words.get(++i);
      } else if (w.startsWith("http")) {
        b = HttpRequest.newBuilder(URI.create(w.replace(README_URL, base)));
      }
    }
    b.POST(HttpRequest.BodyPublishers.ofString(body));
    for (String[] h : headers) {
      b.header(h[0], h[1]);
    }
    return HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY).build()
        .send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private RemoteModeTest.Run run(List<String> args, String key) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", cp, PrivetCommand.class.getName()));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().put("PRIVET_API_KEY", key);
    Path out = Files.createTempFile(workspace.getParent(), "out", ".txt");
    Path err = Files.createTempFile(workspace.getParent(), "err", ".txt");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    return new RemoteModeTest.Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }
}
