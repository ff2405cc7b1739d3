package org.privet.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A server in a child JVM on the test classpath (no Maven), which the test can SIGKILL. */
final class ServerChild implements AutoCloseable {
  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final String url;

  private ServerChild(Process process) throws InterruptedException {
    this.process = process;
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the process died; waiters time out
      }
    }, "server-child-stderr");
    reader.setDaemon(true);
    reader.start();
    String ready = await("privet: serving on ", 60);
    this.url = ready.substring(ready.indexOf("http"));
  }

  static ServerChild start(Path workspace, String... more) {
    return start(null, workspace, more);
  }

  /** A server child whose ledger is the PostgreSQL database at {@code ledgerUrl} (null: the workspace's). */
  static ServerChild start(String ledgerUrl, Path workspace, String... more) {
    return start(ledgerUrl, java.util.Map.of(), workspace, more);
  }

  /** As {@link #start(String, Path, String...)}, with more environment variables for the child. */
  static ServerChild start(String ledgerUrl, java.util.Map<String, String> env, Path workspace, String... more) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
        "-cp", cp, TestServerMain.class.getName(), workspace.toString()));
    cmd.addAll(List.of(more));
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().putAll(env);
      if (ledgerUrl != null) {
        pb.environment().put("PRIVET_LEDGER_URL", ledgerUrl);
      }
      Process p = pb.start();
      return new ServerChild(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  String url() {
    return url;
  }

  /** Waits for a stderr line starting with {@code prefix}. */
  String await(String prefix, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      long left = deadline - System.nanoTime();
      String line = lines.poll(Math.max(1, left), TimeUnit.NANOSECONDS);
      if (line != null && line.startsWith(prefix)) {
        return line;
      }
      if (line == null && System.nanoTime() >= deadline) {
        throw new AssertionError("no '" + prefix + "' from the server child within " + seconds + " s"
            + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
      }
    }
  }

  /** SIGTERM; the exit code once the process has stopped (or -1 if it did not stop in time). */
  int terminate(int seconds) throws InterruptedException {
    process.destroy();
    return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
  }

  /** SIGKILL, and wait until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    kill();
  }
}
