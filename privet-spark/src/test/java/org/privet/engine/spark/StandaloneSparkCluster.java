package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.launcher.JavaModuleOptions;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A Spark standalone cluster on loopback for tests: one {@code
 * org.apache.spark.deploy.master.Master} and two {@code org.apache.spark.deploy.worker.Worker}s,
 * each its own JVM started from the test classpath's Spark jars, and a driver session (in the test
 * JVM) on {@code spark://127.0.0.1:port} with one single-core executor per worker (JVMs the workers
 * start). Nothing is shared with the driver but the machine: the executors read the test classpath
 * ({@code spark.executor.extraClassPath}) and the same file paths.
 *
 * <p>Ports: the master's RPC and web UI ports are free ports picked here, and the master may not
 * move to another ({@code spark.port.maxRetries=0}): if another process took one meanwhile, the
 * master exits and the cluster is started again on new ports (up to three times). The master's
 * {@code /json/} page must then name our URL and two ALIVE workers, and the driver waits until two
 * executors have registered.
 *
 * <p>Stopping: {@link #close()} stops the driver session, then the workers (with their executors)
 * and the master, each process tree destroyed and awaited. A JVM shutdown hook does the same if
 * the tests never reach {@code close}, and each daemon also exits on its own when the test JVM is
 * gone (it watches its standard input, a pipe from this JVM, for end of file: see {@link Daemon}).
 *
 * <p>If the cluster cannot be started, the test class is skipped ({@link Required}), except under
 * {@code CI=true}, where it fails (with the tail of each daemon's log).
 */
final class StandaloneSparkCluster implements AutoCloseable {
  static final int WORKERS = 2;
  private static final String LOOPBACK = "127.0.0.1";
  /** Per executor: Spark's minimum is 450 MiB of heap (1.5 × its 300 MiB reserve). */
  private static final String EXECUTOR_MEMORY = "512m";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();

  private final Path dir;
  private final Process master;
  private final List<Process> workers;
  private final String masterUrl;
  private final SparkSession session;
  private final Tasks tasks = new Tasks();
  private final Thread shutdownHook = new Thread(this::stopAll, "privet-spark-cluster-stop");
  private volatile boolean closed;

  private StandaloneSparkCluster(Path dir, Process master, List<Process> workers, String masterUrl,
      SparkSession session) {
    this.dir = dir;
    this.master = master;
    this.workers = workers;
    this.masterUrl = masterUrl;
    this.session = session;
  }

  /** The cluster {@link Required} started for the running test class (at most one at a time). */
  private static StandaloneSparkCluster running;
  /** Why it could not start, if it could not. */
  private static String failure;

  /**
   * A JUnit condition for a test class that needs the cluster ({@code @ExtendWith}): it starts the
   * cluster before the class runs; if the cluster cannot start, it disables the class, whose tests
   * are then reported skipped with the reason, except under {@code CI=true}, where the class runs
   * and {@link #started()} fails it. (An abort in {@code @BeforeAll} would be reported as a class
   * of zero tests.) The class closes the cluster in its {@code @AfterAll}.
   */
  static final class Required implements ExecutionCondition {
    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      if (context.getTestMethod().isPresent()) {
        return ConditionEvaluationResult.enabled("decided for the class");
      }
      String why = startShared();
      if (why == null) {
        return ConditionEvaluationResult.enabled("standalone cluster at " + running.masterUrl());
      }
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        return ConditionEvaluationResult.enabled("CI=true: the class fails instead");
      }
      return ConditionEvaluationResult.disabled("cannot start a standalone Spark cluster on "
          + "loopback (CI=true makes this a failure): " + why);
    }
  }

  /** Starts the shared cluster if none is running; the reason it cannot, or null. */
  private static synchronized String startShared() {
    if (running == null || running.closed) {
      try {
        running = start();
        failure = null;
      } catch (Exception | Error e) {
        running = null;
        failure = e.toString();
      }
    }
    return failure;
  }

  /**
   * The cluster {@link Required} started; fails (naming why it could not start) if it did not.
   * Any local session of this JVM ({@link LocalSpark}) was stopped first: a JVM holds one
   * SparkContext at a time (LocalSpark starts a new one when next asked).
   */
  static synchronized StandaloneSparkCluster started() {
    if (running == null || running.closed) {
      fail(failure != null ? "the standalone Spark cluster could not start: " + failure
          : "no standalone Spark cluster: annotate the class @ExtendWith("
              + "StandaloneSparkCluster.Required.class)");
    }
    return running;
  }

  private static StandaloneSparkCluster start() throws Exception {
    LocalSpark.stop();
    Path dir = Files.createTempDirectory("privet-spark-cluster-");
    try {
      Files.createDirectories(dir.resolve("spark-home/jars")); // the workers' SPARK_HOME: no jars
      Files.writeString(dir.resolve("log4j2.properties"), String.join("\n",
          "rootLogger.level = info", "rootLogger.appenderRef.stdout.ref = console",
          "appender.console.type = Console", "appender.console.name = console",
          "appender.console.target = SYSTEM_ERR", "appender.console.layout.type = PatternLayout",
          "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %p %c{1}: %m%n", ""));
      IllegalStateException last = null;
      for (int attempt = 1; attempt <= 3; attempt++) {
        Path run = Files.createDirectories(dir.resolve("attempt-" + attempt));
        List<Process> started = new ArrayList<>();
        try {
          return startOnce(dir, run, started);
        } catch (PortTaken e) {
          destroyAll(started);
          last = e;
        } catch (Exception | Error e) {
          destroyAll(started);
          throw e;
        }
      }
      throw last;
    } catch (Exception | Error e) {
      deleteTree(dir);
      throw e;
    }
  }

  /** The master exited while starting: one of its ports was taken after we picked it. */
  private static final class PortTaken extends IllegalStateException {
    PortTaken(String message) {
      super(message);
    }
  }

  private static StandaloneSparkCluster startOnce(Path dir, Path run, List<Process> started)
      throws Exception {
    int port = freePort();
    int uiPort = freePort();
    String url = "spark://" + LOOPBACK + ":" + port;
    Process master = daemon(dir, run.resolve("master.log"), "org.apache.spark.deploy.master.Master",
        List.of("--host", LOOPBACK, "--port", Integer.toString(port), "--webui-port",
            Integer.toString(uiPort)), Map.of(), "-D" + Daemon.AWAIT + "=");
    started.add(master);
    List<Process> workers = new ArrayList<>();
    for (int i = 1; i <= WORKERS; i++) {
      Path work = Files.createDirectories(run.resolve("worker-" + i));
      // Each worker JVM starts now but registers once the master is ALIVE: a worker that
      // registers earlier is ignored and retries only 5 to 15 s later.
      Process w = daemon(dir, run.resolve("worker-" + i + ".log"),
          "org.apache.spark.deploy.worker.Worker",
          List.of("--host", LOOPBACK, "--port", "0", "--webui-port", "0", "--cores", "1",
              "--memory", EXECUTOR_MEMORY, "--work-dir", work.toString(), url),
          Map.of("SPARK_WORKER_DIR", work.toString()),
          "-D" + Daemon.AWAIT + "=http://" + LOOPBACK + ":" + uiPort + "/json/");
      started.add(w);
      workers.add(w);
    }
    awaitWorkers(run, master, workers, url, uiPort);

    // Driver: this JVM. The same SQL settings as LocalSpark's session, so the two runs of the kit
    // differ only in where the work runs (tiny tables: adaptive re-planning and whole-stage code
    // generation cost far more than they save; on a cluster each executor JVM compiles anew).
    String classPath = testClassPath();
    SparkSession session = SparkSession.builder().master(url).appName("privet-cluster-tests")
        .config("spark.driver.host", LOOPBACK)
        .config("spark.driver.bindAddress", LOOPBACK)
        .config("spark.executor.memory", EXECUTOR_MEMORY)
        .config("spark.executor.cores", "1")
        .config("spark.cores.max", Integer.toString(WORKERS))
        .config("spark.executor.extraClassPath", classPath)
        .config("spark.executor.extraJavaOptions", "-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:ActiveProcessorCount=1")
        .config("spark.ui.enabled", "false")
        // No waiting for a preferred executor (the default 3 s per task set: shuffle reads prefer
        // the executor holding most of their input, whose single core may be busy).
        .config("spark.locality.wait", "0")
        .config("spark.sql.shuffle.partitions", Integer.toString(WORKERS))
        .config("spark.default.parallelism", Integer.toString(WORKERS))
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.adaptive.enabled", "false")
        .config("spark.sql.codegen.wholeStage", "false")
        .getOrCreate();
    try {
      StandaloneSparkCluster cluster = new StandaloneSparkCluster(dir, master, workers, url, session);
      session.sparkContext().addSparkListener(cluster.tasks); // before any job runs
      cluster.awaitExecutors(run);
      Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
      return cluster;
    } catch (Exception | Error e) {
      stopQuietly(session);
      throw e;
    }
  }

  /** The driver session on the cluster. */
  SparkSession session() {
    return session;
  }

  /** {@code spark://127.0.0.1:port}. */
  String masterUrl() {
    return masterUrl;
  }

  /** The worker processes (each the parent of its executor's JVM). */
  List<ProcessHandle> workers() {
    return workers.stream().map(Process::toHandle).toList();
  }

  /** The executor JVMs: the children of the workers running Spark's executor backend. */
  List<ProcessHandle> executorProcesses() {
    return workers.stream().flatMap(w -> w.toHandle().children())
        .filter(p -> arguments(p).contains("org.apache.spark.executor.CoarseGrainedExecutorBackend"))
        .toList();
  }

  /**
   * A process's arguments: from {@code /proc} where there is one (the JDK's {@code
   * ProcessHandle.Info} gives none for a command line longer than 4 KiB, as an executor's is).
   */
  private static List<String> arguments(ProcessHandle p) {
    Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
    try {
      if (Files.isReadable(cmdline)) {
        return List.of(new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).split("\0"));
      }
    } catch (IOException e) {
      // exited meanwhile: no arguments
      return List.of();
    }
    return p.info().arguments().map(List::of).orElse(List.of());
  }

  /** Successful tasks so far, per executor id (the driver's scheduler's view). */
  Map<String, Long> tasksPerExecutor() {
    return tasks.perExecutor.entrySet().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()));
  }

  /** Counts finished tasks per executor id. */
  private static final class Tasks extends SparkListener {
    final Map<String, AtomicLong> perExecutor = new ConcurrentHashMap<>();

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
      if (end.taskInfo() != null && end.taskInfo().successful()) {
        perExecutor.computeIfAbsent(end.taskInfo().executorId(), k -> new AtomicLong())
            .incrementAndGet();
      }
    }
  }

  @Override
  public synchronized void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook runs stopAll
    }
    stopAll();
  }

  private synchronized void stopAll() {
    if (closed) {
      return;
    }
    closed = true;
    stopQuietly(session);
    List<Process> all = new ArrayList<>(workers);
    all.add(master);
    destroyAll(all);
    deleteTree(dir);
  }

  private static void stopQuietly(SparkSession session) {
    try {
      session.stop();
    } catch (RuntimeException e) {
      // stopping is best effort; the daemons are destroyed regardless
    }
    SparkSession.clearActiveSession();
    SparkSession.clearDefaultSession();
  }

  /** Destroys each process with its descendants (collected first), and waits for them to exit. */
  private static void destroyAll(List<Process> processes) {
    List<ProcessHandle> handles = new ArrayList<>();
    for (Process p : processes) {
      if (p == null) {
        continue;
      }
      p.toHandle().descendants().forEach(handles::add);
      handles.add(p.toHandle());
    }
    handles.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    for (ProcessHandle h : handles) {
      long left = deadline - System.nanoTime();
      try {
        h.onExit().get(Math.max(left, 0), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
    for (ProcessHandle h : handles) {
      try {
        h.onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // reported by the caller's checks; nothing more we can do
      }
    }
  }

  /** Starts {@link Daemon} running {@code mainClass} in a JVM of its own, output to {@code log}. */
  private static Process daemon(Path dir, Path log, String mainClass, List<String> args,
      Map<String, String> env, String await) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaExecutable());
    cmd.add(await);
    cmd.addAll(List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
        "-XX:ActiveProcessorCount=1", "-Dspark.port.maxRetries=0",
        "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.properties").toUri()));
    cmd.addAll(Arrays.asList(JavaModuleOptions.defaultModuleOptions().split("\\s+")));
    cmd.addAll(List.of("-cp", testClassPath(), Daemon.class.getName(), mainClass));
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE);
    Map<String, String> e = pb.environment();
    e.keySet().removeIf(k -> k.startsWith("SPARK_") || k.startsWith("PYSPARK_"));
    e.put("SPARK_HOME", dir.resolve("spark-home").toString());
    e.put("SPARK_SCALA_VERSION", "2.13");
    e.put("SPARK_LOCAL_IP", LOOPBACK);
    e.put("JAVA_HOME", System.getProperty("java.home"));
    e.putAll(env);
    return pb.start();
  }

  private static String javaExecutable() {
    return ProcessHandle.current().info().command()
        .filter(c -> Files.isExecutable(Path.of(c)))
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** The test classpath (Surefire runs tests from a manifest-only jar; it names the real one). */
  static String testClassPath() {
    String cp = System.getProperty("surefire.test.class.path");
    if (cp == null || cp.isBlank()) {
      cp = System.getProperty("java.class.path");
    }
    return Stream.of(cp.split(File.pathSeparator)).filter(s -> !s.isBlank())
        .map(s -> Path.of(s).toAbsolutePath().toString())
        .collect(Collectors.joining(File.pathSeparator));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
      return s.getLocalPort();
    }
  }

  /** Polls the master's {@code /json/} until it names {@code url} and {@link #WORKERS} ALIVE workers. */
  private static void awaitWorkers(Path run, Process master, List<Process> workers, String url,
      int uiPort) throws Exception {
    URI page = URI.create("http://" + LOOPBACK + ":" + uiPort + "/json/");
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    String seen = "no answer";
    while (System.nanoTime() < deadline) {
      if (!master.isAlive()) {
        String log = tail(run.resolve("master.log"));
        if (log.contains("BindException") || log.contains("Address already in use")
            || log.contains("Failed to bind")) {
          throw new PortTaken("master port taken:\n" + log);
        }
        throw new IllegalStateException("master exited (" + master.exitValue() + "):\n" + log);
      }
      for (int i = 0; i < workers.size(); i++) {
        if (!workers.get(i).isAlive()) {
          throw new IllegalStateException("worker " + (i + 1) + " exited:\n"
              + tail(run.resolve("worker-" + (i + 1) + ".log")));
        }
      }
      JsonNode state = masterState(page);
      if (state != null) {
        seen = "url " + state.path("url").asText() + ", alive workers "
            + state.path("aliveworkers").asInt();
        if (!url.equals(state.path("url").asText())) {
          throw new PortTaken("another master answers on web UI port " + uiPort + ": " + seen);
        }
        if (state.path("aliveworkers").asInt() == WORKERS) {
          return;
        }
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("workers not registered within " + START_TIMEOUT + " (" + seen
        + ")\n" + logs(run));
  }

  /** The master's state from its web UI's {@code /json/} page, or null if it does not answer yet. */
  static JsonNode masterState(URI page) throws InterruptedException {
    HttpRequest get = HttpRequest.newBuilder(page).timeout(Duration.ofSeconds(5)).build();
    try {
      HttpResponse<String> r = HTTP.send(get, HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? new ObjectMapper().readTree(r.body()) : null;
    } catch (IOException e) {
      return null; // not listening yet
    }
  }

  /** Waits until the driver sees {@link #WORKERS} executors besides itself. */
  private void awaitExecutors(Path run) throws InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      // The status tracker lists the driver too.
      if (session.sparkContext().statusTracker().getExecutorInfos().length == WORKERS + 1
          && executorProcesses().size() == WORKERS) {
        return;
      }
      Thread.sleep(250);
    }
    throw new IllegalStateException("executors not registered within " + START_TIMEOUT + " ("
        + (session.sparkContext().statusTracker().getExecutorInfos().length - 1) + " of "
        + WORKERS + ")\n" + logs(run));
  }

  private static String logs(Path run) {
    try (Stream<Path> files = Files.walk(run)) {
      return files.filter(Files::isRegularFile)
          .filter(p -> p.toString().endsWith(".log") || p.getFileName().toString().equals("stderr"))
          .map(p -> "--- " + run.relativize(p) + "\n" + tail(p)).collect(Collectors.joining("\n"));
    } catch (IOException e) {
      return "(logs unreadable: " + e + ")";
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a temporary directory: left for the OS if it cannot be removed
    }
  }

  /**
   * The main class of each daemon JVM: exits when its standard input ends (the test JVM that
   * started it is gone, even if killed without running its shutdown hooks), then runs {@code
   * args[0]}'s {@code main} with the remaining arguments. Spark's worker kills its executors on
   * exit.
   */
  static final class Daemon {
    /** System property: a master's {@code /json/} URL to await status ALIVE at before starting. */
    static final String AWAIT = "privet.daemon.awaitMaster";

    private Daemon() {}

    public static void main(String[] args) throws Exception {
      Thread watch = new Thread(() -> {
        try {
          while (System.in.read() >= 0) {
            // nothing is ever written; wait for end of file
          }
        } catch (IOException e) {
          // the pipe broke: the parent is gone too
        }
        System.exit(0);
      }, "privet-parent-watch");
      watch.setDaemon(true);
      watch.start();
      String master = System.getProperty(AWAIT, "");
      if (!master.isEmpty()) {
        awaitAlive(URI.create(master));
      }
      Class.forName(args[0]).getMethod("main", String[].class)
          .invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    }

    /** Polls {@code url} (the master's {@code /json/}) for status ALIVE, for at most two minutes. */
    private static void awaitAlive(URI url) throws InterruptedException {
      long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        JsonNode state = masterState(url);
        if (state != null && "ALIVE".equals(state.path("status").asText())) {
          return;
        }
        Thread.sleep(100);
      }
      // start anyway: the worker's own retries take over
    }
  }

  /** For assertions: the set of process ids of {@code handles}. */
  static Set<Long> pids(List<ProcessHandle> handles) {
    return handles.stream().map(ProcessHandle::pid).collect(Collectors.toSet());
  }
}
