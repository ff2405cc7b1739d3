package org.privet.engine.duckdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;
import org.privet.engine.spi.TableSchema;

/**
 * A file read against its registered public schema ({@link Source.Typed}): the schema never
 * depends on the rows, and the per-row rule (unparsable value = NULL, ragged line padded or
 * truncated, broken line skipped) never fails. Before typed sources, {@code describe} inferred
 * {@code x} as VARCHAR from the one row "abc" and as BIGINT without it.
 */
class DuckDbTypedSourceTest {
  private static final PublicSchema SCHEMA = PublicSchema.parse("id:integer,x:integer,d:date,w:double");

  @TempDir Path dir;
  private DuckDbBackend db;

  @BeforeEach
  void open() {
    db = DuckDbBackend.inMemory();
  }

  @AfterEach
  void close() {
    db.close();
  }

  private Source.CsvFile csv(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return Source.csv(p);
  }

  private List<List<String>> rows(Source s) throws Exception {
    List<List<String>> out = new ArrayList<>();
    try (Statement st = db.trustedConnection().createStatement();
        ResultSet r = st.executeQuery("SELECT * FROM " + SqlText.from(s) + " ORDER BY 1")) {
      int n = r.getMetaData().getColumnCount();
      while (r.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
          row.add(r.getString(i));
        }
        out.add(row);
      }
    }
    return out;
  }

  @Test
  void describe_oneRowThatWouldChangeTheInferredType_sameSchemaOnNeighbours() throws Exception {
    String base = "id,x,d,w\n1,5,2020-01-01,1.5\n2,7,2021-03-04,2\n";
    Source.CsvFile d = csv("d.csv", base);
    Source.CsvFile dPlus = csv("d1.csv", base + "3,abc,not-a-date,x\n");
    // The inference the typed source replaces: one row changes the column's type.
    assertEquals("BIGINT", db.describe(d).column("x").orElseThrow().nativeType());
    assertEquals("VARCHAR", db.describe(dPlus).column("x").orElseThrow().nativeType());

    TableSchema a = db.describe(Source.typed(d, SCHEMA));
    TableSchema b = db.describe(Source.typed(dPlus, SCHEMA));
    assertEquals(a, b);
    assertEquals(List.of("BIGINT", "BIGINT", "DATE", "DOUBLE"),
        a.columns().stream().map(TableSchema.Column::nativeType).toList());
  }

  @Test
  void read_valuesThatDoNotParse_becomeNullWithoutError() throws Exception {
    Source.CsvFile f = csv("bad.csv", "id,x,d,w\n"
        + "1, 12 ,2020-02-29,1e3\n"
        + "2,1.5,2020-02-30,abc\n"
        + "3,99999999999999999999,31/12/2020,\n"
        + "4,1e3,,-0.25\n");
    assertEquals(List.of(
        Arrays.asList("1", "12", "2020-02-29", "1000.0"),
        Arrays.asList("2", null, null, null),
        Arrays.asList("3", null, null, null),
        Arrays.asList("4", null, null, "-0.25")), rows(Source.typed(f, SCHEMA)));
  }

  @Test
  void read_raggedLines_shortPaddedLongSkipped() throws Exception {
    Source.CsvFile f = csv("ragged.csv", "id,x,d,w\n"
        + "1,5\n"
        + "2,6,2020-01-01,1,extra,fields\n"
        + "3,7,2020-01-01,1\n");
    assertEquals(List.of(
        Arrays.asList("1", "5", null, null),
        Arrays.asList("3", "7", "2020-01-01", "1.0")), rows(Source.typed(f, SCHEMA)));
  }

  @Test
  void read_quotedLineBreakNextToAShortRow_noFailure() throws Exception {
    // DuckDB's parallel CSV scanner failed on this combination ("does not support null_padding in
    // conjunction with quoted new lines"): one value decided whether the read failed.
    Source.CsvFile f = csv("quoted.csv", "id,x,d,w\r\n1,5,\"2020-01-01\",\"1\r\n\"\r\n2\r\n3,7,2020-01-03,3\r\n");
    assertEquals(List.of(
        Arrays.asList("1", "5", "2020-01-01", "1.0"), // "1\r\n" quoted, then trimmed
        Arrays.asList("2", null, null, null),
        Arrays.asList("3", "7", "2020-01-03", "3.0")), rows(Source.typed(f, SCHEMA)));
  }

  @Test
  void read_lateRowOfAnotherType_noFailureWhereInferenceFailed() throws Exception {
    // DuckDB's type detection samples the first rows; a later row of another type then failed the
    // read after the charge. The typed read gives NULL for it instead.
    StringBuilder text = new StringBuilder("id,x,d,w\n");
    for (int i = 0; i < 30_000; i++) {
      text.append(i).append(",1,2020-01-01,1\n");
    }
    Source.CsvFile ok = csv("long.csv", text.toString());
    Source.CsvFile late = csv("late.csv", text + "30000,oops,2020-01-01,1\n");
    String sum = "SELECT count(*), count(x), sum(x) FROM ";
    try (Statement failing = db.trustedConnection().createStatement()) {
      assertThrows(java.sql.SQLException.class,
          () -> failing.executeQuery(sum + SqlText.from(late)).next());
    }
    try (Statement st = db.trustedConnection().createStatement()) {
      try (ResultSet r = st.executeQuery(sum + SqlText.from(Source.typed(late, SCHEMA)))) {
        r.next();
        assertEquals(List.of(30_001L, 30_000L, 30_000L), List.of(r.getLong(1), r.getLong(2), r.getLong(3)));
      }
    }
    assertEquals(db.describe(Source.typed(ok, SCHEMA)), db.describe(Source.typed(late, SCHEMA)));
  }

  @Test
  void describe_headerNotTheRegisteredColumns_refusedNamingNoValue() throws Exception {
    Source.CsvFile f = csv("moved.csv", "x,id,d,w\n1,2,2020-01-01,1\n");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> db.describe(Source.typed(f, SCHEMA)));
    assertTrue(e.getMessage().contains("header does not name the registered columns [id, x, d, w]"),
        e.getMessage());
  }

  @Test
  void describe_parquetMissingARegisteredColumn_refused() throws Exception {
    Path p = dir.resolve("t.parquet");
    try (Statement st = db.trustedConnection().createStatement()) {
      st.execute("COPY (SELECT 1 AS id, 2 AS x) TO '" + p + "' (FORMAT PARQUET)");
    }
    Source.ParquetFile f = Source.parquet(p);
    PublicSchema idX = PublicSchema.parse("id:integer,x:double");
    assertEquals(List.of(List.of("1", "2.0")), rows(Source.typed(f, idX)));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> db.describe(Source.typed(f, SCHEMA)));
    assertTrue(e.getMessage().contains("has no column 'd'"), e.getMessage());
  }
}
