package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.privet.engine.PublicSchema;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;

/**
 * A CSV file read against its registered public schema ({@link Source.Typed}) on Spark: the
 * registered types whatever the rows hold (Spark's own inference reads the whole file), the same
 * per-row rule as DuckDB (unparsable value = NULL), and the same exact aggregates.
 */
class SparkTypedSourceTest {
  private static final PublicSchema SCHEMA = PublicSchema.parse("uid:integer,g:string,x:double");

  @TempDir static Path dir;
  private static SparkBackend spark;
  private static DuckDbBackend duck;

  @BeforeAll
  static void open() {
    spark = SparkBackend.on(LocalSpark.session());
    duck = DuckDbBackend.inMemory();
  }

  @AfterAll
  static void close() {
    duck.close();
    spark.close();
  }

  private static Source.CsvFile csv(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return Source.csv(p);
  }

  private static GroupAggregate total(Backend b, Source source) {
    BoundedAggregation spec = new BoundedAggregation(source, Optional.empty(), Optional.of("uid"),
        List.of(), Optional.empty(), 1, 100, 3,
        List.of(new Measure.FixedPointSum("x", 0, 10, 0, 0, false)));
    List<GroupAggregate> out = new ArrayList<>();
    b.aggregate(spec, out::add);
    assertEquals(1, out.size());
    return out.get(0);
  }

  @Test
  void typedCsv_rowThatWouldChangeTheInferredType_sameSchemaAndAggregatesAsDuckDb() throws Exception {
    String base = "uid,g,x\n1,a,1.5\n2,b,2\n2,b,x\n3,c,\n";
    Source.CsvFile d = csv("d.csv", base);
    Source.CsvFile dPlus = csv("d1.csv", base + "oops,d,4\n4.5,e,4\n5,f\n 6 ,g,1\n");
    assertEquals(ColumnType.INTEGER, spark.describe(d).column("uid").orElseThrow().type());
    assertEquals(ColumnType.STRING, spark.describe(dPlus).column("uid").orElseThrow().type());

    TableSchema a = spark.describe(Source.typed(d, SCHEMA));
    assertEquals(a, spark.describe(Source.typed(dPlus, SCHEMA)));
    assertEquals(List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.FLOATING),
        a.columns().stream().map(TableSchema.Column::type).toList());

    for (Source.CsvFile f : List.of(d, dPlus)) {
      GroupAggregate s = total(spark, Source.typed(f, SCHEMA));
      GroupAggregate k = total(duck, Source.typed(f, SCHEMA));
      assertEquals(k.units(), s.units(), f + " units");
      assertEquals(k.rows(), s.rows(), f + " rows");
      assertArrayEquals(k.sums(), s.sums(), f + " sums");
      assertArrayEquals(k.counts(), s.counts(), f + " counts");
    }
    // Units 1, 2, 3, 5, 6 (" 6 " trimmed); "oops" and "4.5" are NULL units, which no unit owns;
    // x is NULL for "x", "" and the short line "5,f": counted values 1.5, 2, 1.
    GroupAggregate plus = total(spark, Source.typed(dPlus, SCHEMA));
    assertEquals(List.of(5L, 3L), List.of(plus.units(), plus.counts()[0]));
  }

  @Test
  void typedCsv_headerNotTheRegisteredColumns_refusedBeforeReading() throws Exception {
    Source.CsvFile f = csv("moved.csv", "g,uid,x\na,1,1\n");
    assertThrows(IllegalArgumentException.class, () -> spark.describe(Source.typed(f, SCHEMA)));
  }
}
