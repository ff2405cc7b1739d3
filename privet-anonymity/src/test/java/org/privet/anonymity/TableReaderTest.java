package org.privet.anonymity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;

/** Reading through DuckDB: CSV and Parquet, types, and our own generalized CSVs read back. */
class TableReaderTest {

  @Test
  void read_parquetAndCsv_giveTheSameTable(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("t.csv");
    Files.writeString(csv, "age,sex\n30,F\n41,M\n30,\n");
    Path parquet = dir.resolve("t.parquet");
    try (DuckDbBackend db = DuckDbBackend.inMemory(); Statement st = db.trustedConnection().createStatement()) {
      st.execute("COPY (SELECT * FROM read_csv('" + csv + "')) TO '" + parquet + "' (FORMAT PARQUET)");
    }
    for (Source s : List.of(Source.csv(csv), Source.parquet(parquet))) {
      Microdata m = TableReader.read(s, List.of(), "columns");
      assertTrue(m.column("c", "age").numeric());
      assertArrayEquals(new double[] {30, 41, 30}, m.column("c", "age").numbers());
      assertArrayEquals(new String[] {"F", "M", Microdata.MISSING}, m.column("c", "sex").labels());
    }
  }

  /**
   * A directory of Parquet part files (DuckDB's {@code PER_THREAD_OUTPUT}, and a stray text file
   * dropped beside them) reads as the rows of its part files, as the engine reads it: the same
   * multiset of rows as the CSV it was written from.
   */
  @Test
  void read_parquetDirectory_readsItsPartFilesLikeTheCsv(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("t.csv");
    StringBuilder text = new StringBuilder("age,sex\n");
    for (int i = 0; i < 5000; i++) {
      text.append(20 + i % 53).append(',').append(i % 3 == 0 ? "F" : "M").append('\n');
    }
    Files.writeString(csv, text);
    Path parts = dir.resolve("parts");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("SET threads = 2");
      db.execute("COPY (SELECT * FROM read_csv('" + csv + "')) TO '" + parts
          + "' (FORMAT PARQUET, PER_THREAD_OUTPUT)");
    }
    Files.writeString(parts.resolve("notes.txt"), "not parquet");
    Microdata fromCsv = TableReader.read(Source.csv(csv), List.of(), "columns");
    Microdata fromDir = TableReader.read(Source.parquet(parts), List.of(), "columns");
    assertEquals(rows(fromCsv), rows(fromDir));
    assertEquals(5000, rows(fromDir).values().stream().mapToInt(Integer::intValue).sum());
  }

  /** The rows of {@code m} as a multiset ("age|sex" to count). */
  private static java.util.Map<String, Integer> rows(Microdata m) {
    double[] age = m.column("c", "age").numbers();
    String[] sex = m.column("c", "sex").labels();
    java.util.Map<String, Integer> out = new java.util.TreeMap<>();
    for (int i = 0; i < age.length; i++) {
      out.merge(age[i] + "|" + sex[i], 1, Integer::sum);
    }
    return out;
  }

  @Test
  void read_missingColumn_namesTheParameterNotAValue(@TempDir Path dir) throws Exception {
    Path csv = dir.resolve("t.csv");
    Files.writeString(csv, "age,sex\n30,F\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TableReader.read(Source.csv(csv), List.of("zip"), "--quasi-identifiers"));
    assertTrue(e.getMessage().startsWith("--quasi-identifiers: no column named 'zip'"), e.getMessage());
  }

  @Test
  void read_generalizedCsv_skipsTheHeaderCommentAndParsesCells(@TempDir Path dir) throws Exception {
    Microdata d = Microdata.of(List.of(Microdata.Column.numeric("age", new double[] {20, 21, 40, 41}),
        Microdata.Column.categorical("sex", new String[] {"F", "M", "F", "M"})));
    GeneralizedTable g = new Mondrian(2, 1).anonymize(d, List.of("age", "sex"), null);
    StringWriter w = new StringWriter();
    g.writeCsv(w);
    Path out = dir.resolve("g.csv");
    Files.writeString(out, w.toString());
    Microdata back = TableReader.read(Source.csv(out), List.of("age", "sex"), "columns");
    GeneralizedTable parsed = GeneralizedTable.fromMicrodata(back, List.of("age", "sex"), null);
    assertEquals(AnonymityCheck.check(g, d).classSizes(), AnonymityCheck.check(parsed, d).classSizes());
    assertEquals(AnonymityCheck.check(g, d).gil(), AnonymityCheck.check(parsed, d).gil(), 1e-12);
  }
}
