package org.privet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./privet} launcher's start-up cache, run as real {@code bash privet ...} processes on
 * the packaged {@code privet-cli/target/privet.jar} (failsafe: after {@code package}). The cache
 * ({@code PRIVET_CACHE_DIR}) and the workspace ({@code PRIVET_HOME}) are temporary folders. Whatever
 * the cache holds, a command prints what the plain {@code java -jar} run prints ({@code PRIVET_CDS=off})
 * and exits with its code; a truncated native library or archive, which would crash the JVM with
 * SIGBUS, is made again. Pruning removes only stale key folders.
 *
 * <p>The launcher rebuilds the jar when a source is newer than it: here a {@code mvn} on the PATH
 * refuses, so no nested Maven build can run; a stale jar skips the class (fails it under CI).
 */
class LauncherIT {
  static Path repo;
  static Path jar;
  /** {@code privet --version} as plain {@code java -jar} prints it. */
  static CliRun plainVersion;

  @TempDir Path dir;

  @BeforeAll
  static void jarIsCurrent(@TempDir Path tmp) throws Exception {
    repo = Path.of(System.getProperty("privet.repo", "..")).toAbsolutePath().normalize();
    jar = repo.resolve("privet-cli/target/privet.jar");
    assertTrue(Files.isRegularFile(repo.resolve("privet")), "no launcher at " + repo);
    String stale = "";
    if (Files.isRegularFile(jar)) {
      // The launcher's own test (find ... -newer privet.jar).
      Process find = new ProcessBuilder("find", repo.toString(), "-path", repo.resolve("privet-bench").toString(),
          "-prune", "-o", "(", "-path", "*/src/main/*", "-o", "-name", "pom.xml", ")", "-newer", jar.toString(),
          "-print", "-quit").redirectErrorStream(true).start();
      stale = new String(find.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      find.waitFor();
    }
    String why = !Files.isRegularFile(jar) ? jar + " is missing"
        : stale.isEmpty() ? null : stale + " is newer than " + jar;
    if (why != null) {
      String message = "LauncherIT needs a current jar (run after mvn package): " + why;
      assertFalse("true".equals(System.getenv("CI")), message);
      assumeTrue(false, message);
    }
    plainVersion = privet(tmp.resolve("unused-cache"), tmp.resolve("home"), Map.of("PRIVET_CDS", "off"), "--version");
    assertEquals(0, plainVersion.code(), plainVersion.toString());
    assertTrue(plainVersion.out().startsWith("privet "), plainVersion.toString());
    assertEquals("", plainVersion.err());
    assertFalse(Files.exists(tmp.resolve("unused-cache")), "PRIVET_CDS=off wrote the cache");
  }

  @Test
  void coldAndWarmCacheRunLikePlainJava() throws Exception {
    assumeThinCache();
    Path cache = dir.resolve("cache");
    CliRun cold = privet(cache, dir.resolve("home"), Map.of(), "--version");
    assertSame(plainVersion, cold);
    Path key = onlyKey(cache);
    assertRecorded(key.resolve("thin/privet.jar"));
    assertRecorded(key.resolve("thin/native/libduckdb_java.so"));
    assertRecorded(key.resolve("thin/native/libsqlitejdbc.so"));
    assertRecorded(key.resolve("thin-other.jsa"));
    assertTrue(Files.isRegularFile(key.resolve("launched")));

    // Warm: the thin jar and the archive are used (class loading logged on stderr).
    CliRun warm = privet(cache, dir.resolve("home"), Map.of("PRIVET_JAVA_OPTS", "-Xlog:class+load=info:stderr"),
        "--version");
    assertEquals(plainVersion.code(), warm.code(), warm.toString());
    assertEquals(plainVersion.out(), warm.out());
    assertTrue(warm.err().contains("source: shared objects file (top)"), "the command's archive was not used");
    assertTrue(warm.err().contains("source: file:" + key.resolve("thin/privet.jar")), "the thin jar was not used");

    // A failing command: its exit code and messages, on the first (archive-training) run too.
    CliRun plainBad = privet(dir.resolve("unused"), dir.resolve("home"), Map.of("PRIVET_CDS", "off"), "no-such-command");
    assertEquals(2, plainBad.code(), plainBad.toString());
    assertSame(plainBad, privet(cache, dir.resolve("home"), Map.of(), "no-such-command"));
    assertRecorded(key.resolve("thin-no-such-command.jsa"));
    assertSame(plainBad, privet(cache, dir.resolve("home"), Map.of(), "no-such-command"));
  }

  @Test
  void damagedOrMissingFilesAreMadeAgainWithTheSameOutput() throws Exception {
    assumeThinCache();
    Path cache = dir.resolve("cache");
    Path home = dir.resolve("home"); // empty workspace: dataset list opens the SQLite ledger
    CliRun plain = privet(dir.resolve("unused"), home, Map.of("PRIVET_CDS", "off"), "dataset", "list");
    assertEquals(0, plain.code(), plain.toString());
    assertSame(plain, privet(cache, home, Map.of(), "dataset", "list"));
    Path key = onlyKey(cache);
    Path sqlite = key.resolve("thin/native/libsqlitejdbc.so");
    Path jsa = key.resolve("thin-dataset.jsa");
    CliRun warm = privet(cache, home, Map.of("PRIVET_JAVA_OPTS", "-Xlog:library=info:stderr"), "dataset", "list");
    assertEquals(plain.out(), warm.out());
    assertTrue(warm.err().contains("Loaded library " + sqlite), "the cached SQLite library was not loaded");

    // Cut after their headers, both crashed the JVM (SIGBUS) when loaded.
    truncate(sqlite, 1000);
    assertSame(plain, privet(cache, home, Map.of(), "dataset", "list"));
    assertRecorded(sqlite);
    truncate(jsa, 20_000);
    assertSame(plain, privet(cache, home, Map.of(), "dataset", "list"));
    assertRecorded(jsa);
    assertTrue(Files.size(jsa) > 20_000, "the archive was not trained again");

    Files.delete(sqlite);
    assertSame(plain, privet(cache, home, Map.of(), "dataset", "list"));
    assertRecorded(sqlite);
    // Without DuckDB's library the thin jar cannot run: the plain jar, with an archive of its own.
    Files.delete(key.resolve("thin/native/libduckdb_java.so"));
    assertSame(plain, privet(cache, home, Map.of(), "dataset", "list"));
    assertRecorded(key.resolve("jar-dataset.jsa"));
  }

  @Test
  void aNewKeyFolderPrunesOnlyStaleKeyFolders() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "the launcher looks for running users in /proc");
    Path cache = dir.resolve("cache");
    Instant now = Instant.now();
    // Last launches, newest first: 1 and 2 are kept as the two newest, 3 as launched < 10 min ago.
    Path k1 = keyFolder(cache, "1", now.minus(Duration.ofDays(5)));
    launched(k1, now.minus(Duration.ofMinutes(1))); // the stamp, not the folder's time, counts
    Path k2 = keyFolder(cache, "2", now.minus(Duration.ofMinutes(2)));
    Path k3 = keyFolder(cache, "3", now.minus(Duration.ofMinutes(3)));
    Path k4 = keyFolder(cache, "4", now.minus(Duration.ofDays(2)));
    for (String archive : List.of("thin-query.jsa", "thin-query.jsa.size", "jar-query.jsa")) {
      Files.writeString(k4.resolve(archive), "planted");
    }
    Files.setLastModifiedTime(k4, FileTime.from(now.minus(Duration.ofDays(2))));
    Path k5 = keyFolder(cache, "5", now.minus(Duration.ofDays(3)));
    Path k6 = keyFolder(cache, "6", now.minus(Duration.ofDays(1)));
    launched(k6, now.minus(Duration.ofDays(6)));
    Path inUse = keyFolder(cache, "7", now.minus(Duration.ofDays(4)));
    // Not key folders of this user: a symlink to an old folder, a file, other names.
    Path outside = keyFolder(dir.resolve("elsewhere"), "8", now.minus(Duration.ofDays(9)));
    Path link = Files.createSymbolicLink(cache.resolve("8"), outside);
    Path file = Files.writeString(cache.resolve("9"), "not a folder");
    Path notes = keyFolder(cache, "notes", now.minus(Duration.ofDays(9)));
    Path mixed = keyFolder(cache, "12a", now.minus(Duration.ofDays(9)));
    Path foreign = foreignFolder(cache, "10", now.minus(Duration.ofDays(9)));
    // An old all-digit folder that holds something else than the launcher's files.
    Path photos = keyFolder(cache, "2019", now.minus(Duration.ofDays(9)));
    Files.writeString(photos.resolve("photo.jpg"), "not the launcher's");
    Files.setLastModifiedTime(photos, FileTime.from(now.minus(Duration.ofDays(9))));

    // A running process (as a JVM started from it would) names folder 7 on its command line; it
    // waits with a builtin (no child left behind) until killed or its stdin closes.
    Process holder = new ProcessBuilder("bash", "-c", "read -r -t 120 _ || true", "holder",
        inUse.resolve("thin/privet.jar").toString()).start();
    try {
      assertSame(plainVersion, privet(cache, dir.resolve("home"), Map.of(), "--version"));
    } finally {
      holder.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    Path key = onlyNewKey(cache, Set.of("1", "2", "3", "4", "5", "6", "7", "10", "2019"));
    for (Path kept : List.of(k1, k2, k3, inUse, key, link, outside.resolve("thin/privet.jar"), file, notes, mixed,
        photos.resolve("photo.jpg"))) {
      assertTrue(Files.exists(kept, LinkOption.NOFOLLOW_LINKS), kept + " was removed");
    }
    for (Path gone : List.of(k4, k5, k6)) {
      assertFalse(Files.exists(gone, LinkOption.NOFOLLOW_LINKS), gone + " was kept");
    }
    if (foreign != null) {
      assertTrue(Files.exists(foreign), "another user's folder was removed");
    }
    try (Stream<Path> s = Files.list(cache)) {
      assertEquals(List.of(), s.filter(f -> f.getFileName().toString().startsWith(".")).collect(Collectors.toList()),
          "left over while pruning");
    }

    // Only a new key folder prunes: a later launch with the same jar leaves an old folder alone.
    Path later = keyFolder(cache, "11", now.minus(Duration.ofDays(30)));
    assertSame(plainVersion, privet(cache, dir.resolve("home"), Map.of(), "--version"));
    assertTrue(Files.exists(later));
  }

  @Test
  void anUnusableCacheFolderFallsBackSilently() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "");
    // Under a regular file no folder can be made (whoever runs the test, root included).
    assertSame(plainVersion, privet(file.resolve("cache"), dir.resolve("home"), Map.of(), "--version"));
    // A key folder the launcher cannot write into is not used either.
    if (!"root".equals(System.getProperty("user.name"))) {
      Path ro = Files.createDirectories(dir.resolve("ro"));
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
      assertSame(plainVersion, privet(ro, dir.resolve("home"), Map.of(), "--version"));
      try (Stream<Path> s = Files.list(ro)) {
        assertEquals(0, s.count());
      }
    }
  }

  // ---- helpers

  /** Runs {@code bash <repo>/privet args...} with the given cache and workspace folders. */
  static CliRun privet(Path cache, Path home, Map<String, String> env, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("bash", repo.resolve("privet").toString()));
    cmd.addAll(List.of(args));
    // In a temporary folder: a JVM that crashes writes its hs_err file there, not in the repo.
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.getParent().toFile());
    Map<String, String> e = pb.environment();
    e.keySet().removeIf(k -> k.startsWith("PRIVET_"));
    Path bin = Files.createDirectories(home.resolveSibling(home.getFileName() + "-bin"));
    Path mvn = bin.resolve("mvn");
    if (!Files.exists(mvn)) {
      Files.writeString(mvn, "#!/bin/sh\necho 'LauncherIT: the launcher tried to rebuild the jar' >&2\nexit 97\n");
      Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    e.put("PATH", bin + ":" + Path.of(System.getProperty("java.home"), "bin") + ":" + e.getOrDefault("PATH", "/usr/bin:/bin"));
    e.put("PRIVET_CACHE_DIR", cache.toString());
    e.put("PRIVET_HOME", home.toString());
    e.putAll(env);
    Path out = Files.createTempFile(home.getParent(), "out", ".txt");
    Path err = Files.createTempFile(home.getParent(), "err", ".txt");
    Process p = pb.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("privet " + String.join(" ", args) + " did not finish in 120 s");
    }
    return new CliRun(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** Same exit code, stdout and stderr. */
  static void assertSame(CliRun expected, CliRun actual) {
    assertEquals(expected.toString(), actual.toString());
  }

  /** The thin jar needs Linux on x86_64 or aarch64 (DuckDB's and SQLite's libraries), zip and unzip. */
  static void assumeThinCache() {
    String arch = System.getProperty("os.arch");
    assumeTrue(System.getProperty("os.name").equals("Linux") && (arch.equals("amd64") || arch.equals("aarch64")),
        "the launcher unpacks native libraries on Linux x86_64/aarch64 only");
    assumeTrue(onPath("zip") && onPath("unzip"), "the launcher needs zip and unzip for its thin jar");
    assumeTrue(Stream.of(Path.of("/lib"), Path.of("/usr/lib")).noneMatch(LauncherIT::hasMusl),
        "on musl the launcher leaves SQLite's library to the driver");
  }

  static boolean onPath(String tool) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
        .anyMatch(d -> !d.isEmpty() && Files.isExecutable(Path.of(d, tool)));
  }

  static boolean hasMusl(Path lib) {
    try (Stream<Path> s = Files.list(lib)) {
      return s.anyMatch(f -> f.getFileName().toString().startsWith("ld-musl-"));
    } catch (IOException e) {
      return false;
    }
  }

  /** The one key folder (all digits) of the cache folder. */
  static Path onlyKey(Path cache) throws IOException {
    return onlyNewKey(cache, Set.of());
  }

  static Path onlyNewKey(Path cache, Set<String> planted) throws IOException {
    try (Stream<Path> s = Files.list(cache)) {
      List<Path> keys = s.filter(f -> f.getFileName().toString().matches("[0-9]+")
              && !planted.contains(f.getFileName().toString()) && Files.isDirectory(f, LinkOption.NOFOLLOW_LINKS))
          .collect(Collectors.toList());
      assertEquals(1, keys.size(), "key folders: " + keys);
      return keys.get(0);
    }
  }

  /** The file is there, with the size recorded next to it when it was made. */
  static void assertRecorded(Path f) throws IOException {
    assertTrue(Files.isRegularFile(f), f + " is missing");
    Path size = f.resolveSibling(f.getFileName() + ".size");
    assertTrue(Files.isRegularFile(size), size + " is missing");
    assertEquals(Long.toString(Files.size(f)), Files.readString(size).trim(), f + ": recorded size");
  }

  /** Keeps the first {@code bytes} bytes (the JVM writes its archives read-only: a new file). */
  static void truncate(Path f, int bytes) throws IOException {
    byte[] head = Files.readAllBytes(f);
    assertTrue(head.length > bytes, f + " is already small");
    Files.delete(f);
    Files.write(f, Arrays.copyOf(head, bytes));
  }

  /** A folder like a launcher's key folder (a thin jar inside), last modified at {@code time}. */
  static Path keyFolder(Path cache, String name, Instant time) throws IOException {
    Path d = Files.createDirectories(cache.resolve(name));
    Files.createDirectories(d.resolve("thin"));
    Files.writeString(d.resolve("thin/privet.jar"), "planted");
    Files.setLastModifiedTime(d.resolve("thin"), FileTime.from(time));
    Files.setLastModifiedTime(d, FileTime.from(time));
    return d;
  }

  /** The stamp each launch writes. */
  static void launched(Path key, Instant time) throws IOException {
    Instant folder = Files.getLastModifiedTime(key).toInstant();
    Files.setLastModifiedTime(Files.writeString(key.resolve("launched"), ""), FileTime.from(time));
    Files.setLastModifiedTime(key, FileTime.from(folder));
  }

  /** An old key folder owned by another user (nobody), or null when this user cannot make one. */
  static Path foreignFolder(Path cache, String name, Instant time) throws IOException {
    Path d = keyFolder(cache, name, time);
    try {
      UserPrincipal nobody = d.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(d, nobody);
      Files.setLastModifiedTime(d, FileTime.from(time));
      return d;
    } catch (IOException | UnsupportedOperationException e) {
      deleteTree(d);
      return null;
    }
  }

  static void deleteTree(Path d) throws IOException {
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).collect(Collectors.toList())) {
        Files.delete(p);
      }
    }
  }
}
