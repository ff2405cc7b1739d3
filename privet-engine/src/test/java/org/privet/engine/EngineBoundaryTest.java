package org.privet.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine's package boundary (issue 25, item 4). {@code org.privet.engine} holds the public
 * types (Session, Query, Result, Source, Aggregation, Filter, Plan, ...); {@code
 * org.privet.engine.spi} the backend contract; {@code engine.compile}, {@code engine.budget},
 * {@code engine.selection} and {@code engine.release} are internals. The rules held here:
 *
 * <ol>
 *   <li>(ArchUnit, this module's bytecode) the backend SPI ({@code engine.spi}) and the DuckDB
 *       backend ({@code engine.duckdb}) depend on none of the internals, so a backend written
 *       against the SPI sees only public types;
 *   <li>(ArchUnit, every {@code org.privet} class on this module's test class path) the internals
 *       are used only from {@code org.privet.engine..};
 *   <li>(source scan of every other module's {@code src/main/java}: this module's tests cannot see
 *       those modules' bytecode, since Maven builds them after it) no main code outside
 *       privet-engine names a class of the internals, with one documented exception:
 *       privet-bench's {@code org.privet.bench.engine.QuantileConsistencyBench}, a harness that
 *       compares two quantile-tree estimators on the same noisy release and so needs {@code
 *       QuantileTree}, {@code Releases} and {@code MechanismSpec} directly;
 *   <li>(source scan, main and test code) no module other than privet-engine has classes in
 *       {@code org.privet.engine} or below, except the SPI backends privet-spark ({@code
 *       org.privet.engine.spark}) and privet-postgres ({@code org.privet.engine.postgres}).
 * </ol>
 *
 * Every exception must still be in use, so a stale exception fails the test too.
 */
class EngineBoundaryTest {
  private static final String[] INTERNALS = {
    "org.privet.engine.compile..", "org.privet.engine.budget..",
    "org.privet.engine.selection..", "org.privet.engine.release.."
  };
  private static final Pattern INTERNAL_NAME =
      Pattern.compile("org\\.privet\\.engine\\.(compile|budget|selection|release)\\.[A-Z]\\w*");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package (org\\.privet\\.engine[\\w.]*);");

  /** Module → internal classes its main code may name (rule 3). */
  private static final Map<String, Set<String>> INTERNAL_USE_ALLOWED = Map.of(
      "privet-bench", Set.of(
          "org.privet.engine.release.MechanismSpec", "org.privet.engine.release.QuantileTree",
          "org.privet.engine.release.Releases"));
  /** Module → the engine package it may declare classes in (rule 4). */
  private static final Map<String, String> ENGINE_PACKAGE_ALLOWED = Map.of(
      "privet-spark", "org.privet.engine.spark", "privet-postgres", "org.privet.engine.postgres");

  @Test
  void backendSpi_dependsOnNoInternals() {
    JavaClasses engine = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("org.privet.engine");
    assertTrue(engine.contain(org.privet.engine.spi.Backend.class), "imported the SPI");
    noClasses().that().resideInAnyPackage("org.privet.engine.spi..", "org.privet.engine.duckdb..")
        .should().dependOnClassesThat().resideInAnyPackage(INTERNALS)
        .check(engine);
  }

  @Test
  void internals_areUsedOnlyFromTheEngine() {
    JavaClasses all = new ClassFileImporter().importPackages("org.privet");
    classes().that().resideInAnyPackage(INTERNALS)
        .should().onlyHaveDependentClassesThat().resideInAPackage("org.privet.engine..")
        .check(all);
  }

  @Test
  void otherModules_nameNoInternals_andDeclareNoEngineClasses() throws IOException {
    Path root = TestTables.repoRoot();
    List<Path> modules;
    try (Stream<Path> s = Files.list(root)) {
      modules = s.filter(p -> p.getFileName().toString().startsWith("privet-"))
          .filter(p -> !p.getFileName().toString().equals("privet-engine"))
          .filter(p -> Files.isDirectory(p.resolve("src"))).sorted().toList();
    }
    assertTrue(modules.size() >= 10, "found the other modules: " + modules);
    List<String> problems = new ArrayList<>();
    Map<String, Set<String>> internalUse = new TreeMap<>();
    Set<String> enginePackages = new TreeSet<>();
    int scanned = 0;
    for (Path module : modules) {
      String name = module.getFileName().toString();
      for (Path file : javaFiles(module.resolve("src"))) {
        scanned++;
        String text = Files.readString(file);
        String where = root.relativize(file).toString();
        Matcher pkg = PACKAGE.matcher(text);
        if (pkg.find()) {
          String allowed = ENGINE_PACKAGE_ALLOWED.get(name);
          if (allowed != null && pkg.group(1).equals(allowed)) {
            enginePackages.add(name);
          } else {
            problems.add(where + ": declares package " + pkg.group(1));
          }
        }
        if (!file.toString().contains("/src/main/java/")) {
          continue;
        }
        Matcher use = INTERNAL_NAME.matcher(text);
        while (use.find()) {
          if (INTERNAL_USE_ALLOWED.getOrDefault(name, Set.of()).contains(use.group())) {
            internalUse.computeIfAbsent(name, k -> new TreeSet<>()).add(use.group());
          } else {
            problems.add(where + ": names engine internal " + use.group());
          }
        }
      }
    }
    assertTrue(scanned > 100, "scanned the other modules' sources: " + scanned);
    assertEquals(List.of(), problems);
    assertEquals(INTERNAL_USE_ALLOWED, internalUse, "every internal-use exception is still used");
    assertEquals(ENGINE_PACKAGE_ALLOWED.keySet(), enginePackages,
        "every engine-package exception is still used");
  }

  private static List<Path> javaFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.toString().endsWith(".java")).toList();
    }
  }
}
