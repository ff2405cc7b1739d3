package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

/** {@link DuckDbBackend#scanText}: the registered layout, and total on every row. */
class DuckDbScanTextTest {
  @TempDir Path dir;

  private static TableSchema schema(String... names) {
    return new TableSchema(Arrays.stream(names).map(n -> new TableSchema.Column(n, ColumnType.STRING, "VARCHAR"))
        .toList());
  }

  private static List<String> scan(Source source, TableSchema schema, String... columns) {
    List<String> rows = new ArrayList<>();
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.scanText(source, schema, List.of(columns), r -> rows.add(String.join("|", Arrays.asList(r).stream()
          .map(String::valueOf).toList())));
    }
    return rows;
  }

  @Test
  void scanText_csvWithRegisteredDelimiterAndNullString_paddedAndSkippedPerRow() throws Exception {
    Path f = dir.resolve("t.csv");
    Files.writeString(f, "1; a; x\n2; ?; y\n3; b\n4; c; z; extra\n5; d; w\n");
    Source s = new Source.CsvFile(f, false, "; ", List.of("n", "s", "t"), "?");
    assertEquals(List.of("x|1", "y|2", "null|3", "w|5"), scan(s, schema("n", "s", "t"), "t", "n"));
    assertEquals(List.of("a", "null", "b", "d"), scan(s, schema("n", "s", "t"), "s"));
  }

  @Test
  void scanText_emptyFilesAndHeaderOnly_giveNoRows() throws Exception {
    Path empty = dir.resolve("e.csv");
    Files.writeString(empty, "");
    assertEquals(List.of(), scan(new Source.CsvFile(empty, false, ",", List.of("a"), ""), schema("a"), "a"));
    Path head = dir.resolve("h.csv");
    Files.writeString(head, "a,b\n");
    assertEquals(List.of(), scan(Source.csv(head), schema("a", "b"), "b"));
  }

  @Test
  void scanText_headerCsvValuesThatWouldBreakTypeSniffing_readAsText() throws Exception {
    Path f = dir.resolve("h.csv");
    StringBuilder sb = new StringBuilder("a,b\n");
    for (int i = 0; i < 3000; i++) {
      sb.append(i).append(",x\n");
    }
    sb.append("not-a-number,y\n");
    Files.writeString(f, sb);
    List<String> rows = scan(Source.csv(f), schema("a", "b"), "a");
    assertEquals(3001, rows.size());
    assertEquals("not-a-number", rows.get(3000));
  }

  @Test
  void scanText_parquet_castsToText() throws Exception {
    Path p = dir.resolve("t.parquet");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      db.execute("COPY (SELECT 7 AS k, 2.5 AS x, NULL::VARCHAR AS s) TO '" + p + "' (FORMAT PARQUET)");
      TableSchema schema = db.describe(Source.parquet(p));
      List<String> rows = new ArrayList<>();
      db.scanText(Source.parquet(p), schema, List.of("s", "k", "x"), r -> rows.add(String.join("|",
          String.valueOf(r[0]), r[1], r[2])));
      assertEquals(List.of("null|7|2.5"), rows);
    }
  }

  @Test
  void scanText_columnNotInSchema_refusedByName() {
    var e = assertThrows(IllegalArgumentException.class,
        () -> scan(Source.csv(dir.resolve("x.csv")), schema("a"), "b"));
    assertEquals("column 'b' is not in the schema of CSV file 'x.csv'", e.getMessage());
  }
}
