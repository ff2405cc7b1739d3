package org.privet.cli.anonymity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.cli.CliRun;
import org.privet.engine.duckdb.DuckDbBackend;

/**
 * {@code privet anonymize} and {@code privet anonymity check} read a directory of Parquet part
 * files for {@code --data} and {@code --original} (written here by DuckDB's {@code COPY ...
 * (FORMAT PARQUET, PER_THREAD_OUTPUT)}) as the CSV it was written from, and refuse a directory
 * that is not one table of part files with exit code 2, naming the option, before reading or
 * writing anything; the not-DP guard covers a registered directory as it covers a file.
 */
class AnonymityParquetDirectoryTest {

  /** A CSV of 3,000 people and the directory of Parquet part files DuckDB writes from it. */
  private static Path[] peopleAndParts(Path dir) throws IOException {
    StringBuilder text = new StringBuilder("age,sex,zip,disease\n");
    String[] diseases = {"flu", "hiv", "cancer"};
    for (int i = 0; i < 3000; i++) {
      text.append(20 + (i * 7) % 50).append(',').append(i % 2 == 0 ? "F" : "M").append(',')
          .append("z").append(i % 5).append(',').append(diseases[(i * 5) % 3]).append('\n');
    }
    Path csv = dir.resolve("people.csv");
    Files.writeString(csv, text);
    Path parts = dir.resolve("people-parts");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("SET threads = 2");
      db.execute("COPY (SELECT * FROM read_csv('" + csv + "')) TO '" + parts
          + "' (FORMAT PARQUET, PER_THREAD_OUTPUT)");
    }
    return new Path[] {csv, parts};
  }

  private static List<String> sortedLines(Path f) throws IOException {
    List<String> lines = new ArrayList<>(Files.readAllLines(f));
    lines.sort(null);
    return lines;
  }

  @Test
  void anonymizeAndCheck_parquetDirectory_sameOutputAsTheCsv(@TempDir Path dir) throws IOException {
    Path[] in = peopleAndParts(dir);
    assertTrue(Files.isDirectory(in[1]));
    String ws = dir.resolve("ws").toString();
    Path fromCsv = dir.resolve("csv-k5.csv");
    Path fromDir = dir.resolve("dir-k5.csv");
    CliRun a = CliRun.of("anonymize", "--workspace", ws, "--data", in[0].toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease", "--k", "5", "--l", "2",
        "--out", fromCsv.toString());
    CliRun b = CliRun.of("anonymize", "--workspace", ws, "--data", in[1].toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease", "--k", "5", "--l", "2",
        "--out", fromDir.toString());
    assertEquals(0, a.code(), a.toString());
    assertEquals(0, b.code(), b.toString());
    assertEquals(a.out().replace(fromCsv.toString(), "OUT"), b.out().replace(fromDir.toString(), "OUT"));
    assertEquals(sortedLines(fromCsv), sortedLines(fromDir), "the same rows written");

    for (String[] dataOriginal : new String[][] {{in[0].toString(), in[0].toString()},
        {in[1].toString(), in[1].toString()}}) {
      CliRun check = CliRun.of("anonymity", "check", "--workspace", ws, "--data", dataOriginal[0],
          "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease");
      assertEquals(0, check.code(), check.toString());
    }
    CliRun checkCsv = CliRun.of("anonymity", "check", "--workspace", ws, "--data", fromCsv.toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease", "--original", in[0].toString());
    CliRun checkDir = CliRun.of("anonymity", "check", "--workspace", ws, "--data", fromCsv.toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease", "--original", in[1].toString());
    assertEquals(0, checkDir.code(), checkDir.toString());
    assertTrue(checkDir.out().contains("marginal workload"), checkDir.out());
    assertEquals(checkCsv.out(), checkDir.out());
    CliRun rawCsv = CliRun.of("anonymity", "check", "--workspace", ws, "--data", in[0].toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease");
    CliRun rawDir = CliRun.of("anonymity", "check", "--workspace", ws, "--data", in[1].toString(),
        "--quasi-identifiers", "age,sex,zip", "--sensitive", "disease");
    assertEquals(0, rawDir.code(), rawDir.toString());
    assertEquals(rawCsv.out(), rawDir.out());
  }

  @Test
  void badDirectories_refusedWithExitCodeTwo_namingTheOption(@TempDir Path dir) throws IOException {
    Path[] in = peopleAndParts(dir);
    Path stray = Files.createDirectory(dir.resolve("stray"));
    for (Path p : Files.list(in[1]).toList()) {
      Files.copy(p, stray.resolve(p.getFileName()));
    }
    Files.writeString(stray.resolve("notes.txt"), "not parquet");
    Path empty = Files.createDirectory(dir.resolve("empty"));
    Path nested = Files.createDirectory(dir.resolve("nested"));
    Files.createDirectory(nested.resolve("year=2024"));
    Path otherSchema = Files.createDirectory(dir.resolve("two-schemas"));
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT 1 AS age, 'F' AS sex) TO '" + otherSchema.resolve("part-0.parquet")
          + "' (FORMAT PARQUET)");
      db.execute("COPY (SELECT 'x' AS age) TO '" + otherSchema.resolve("part-1.parquet")
          + "' (FORMAT PARQUET)");
    }
    String ws = dir.resolve("ws").toString();
    Path out = dir.resolve("k5.csv");
    for (Path bad : List.of(stray, empty, nested, otherSchema)) {
      CliRun a = CliRun.of("anonymize", "--workspace", ws, "--data", bad.toString(),
          "--quasi-identifiers", "age,sex", "--k", "5", "--out", out.toString());
      assertEquals(2, a.code(), a.toString());
      assertTrue(a.err().startsWith("privet: --data: "), a.err());
      assertTrue(a.err().contains("'" + bad.getFileName() + "'"), a.err());
      assertFalse(Files.exists(out), "nothing is written");
      CliRun c = CliRun.of("anonymity", "check", "--workspace", ws, "--data", in[0].toString(),
          "--quasi-identifiers", "age,sex", "--original", bad.toString());
      assertEquals(2, c.code(), c.toString());
      assertTrue(c.err().startsWith("privet: --original: "), c.err());
      assertFalse(c.out().contains("k-anonymity"), "nothing is reported");
    }
    CliRun layout = CliRun.of("anonymize", "--workspace", ws, "--data", in[1].toString(),
        "--no-header", "--columns", "age,sex,zip,disease", "--quasi-identifiers", "age,sex", "--k",
        "5", "--out", out.toString());
    assertEquals(2, layout.code(), layout.toString());
    assertTrue(layout.err().contains("--data: the CSV options apply to CSV files"), layout.err());
    CliRun originalLayout = CliRun.of("anonymity", "check", "--workspace", ws, "--data",
        in[0].toString(), "--quasi-identifiers", "age,sex", "--original", in[1].toString(),
        "--original-no-header", "--original-columns", "age,sex,zip,disease");
    assertEquals(2, originalLayout.code(), originalLayout.toString());
    assertTrue(originalLayout.err().contains("--original: the CSV options"), originalLayout.err());
    CliRun missing = CliRun.of("anonymize", "--workspace", ws, "--data",
        dir.resolve("absent").toString(), "--quasi-identifiers", "age,sex", "--k", "5", "--out",
        out.toString());
    assertEquals(5, missing.code(), missing.toString());
  }

  @Test
  void registeredDirectory_refusedWithoutConfirmation_asAFileIs(@TempDir Path dir) throws IOException {
    Path parts = peopleAndParts(dir)[1];
    String ws = dir.resolve("ws").toString();
    CliRun reg = CliRun.of("dataset", "register", "--workspace", ws, "--name", "people", "--source",
        parts.toString(), "--row-privacy", "--epsilon", "1");
    assertEquals(0, reg.code(), reg.toString());
    Path out = dir.resolve("k5.csv");
    CliRun refused = CliRun.of("anonymize", "--workspace", ws, "--data", parts.toString(),
        "--quasi-identifiers", "age,sex,zip", "--k", "5", "--out", out.toString());
    assertEquals(2, refused.code(), refused.toString());
    assertTrue(refused.err().contains("--data is the source of dataset 'people'"), refused.err());
    assertFalse(Files.exists(out), "nothing is written");
    CliRun original = CliRun.of("anonymity", "check", "--workspace", ws, "--data",
        peopleAndParts(Files.createDirectory(dir.resolve("copy")))[0].toString(),
        "--quasi-identifiers", "age,sex,zip", "--original", parts.toString());
    assertEquals(2, original.code(), original.toString());
    assertTrue(original.err().contains("--original is the source of dataset 'people'"),
        original.err());
    CliRun ok = CliRun.of("anonymize", "--workspace", ws, "--data", parts.toString(),
        "--quasi-identifiers", "age,sex,zip", "--k", "5", "--out", out.toString(),
        NotDpGuard.CONFIRM);
    assertEquals(0, ok.code(), ok.toString());
  }
}
