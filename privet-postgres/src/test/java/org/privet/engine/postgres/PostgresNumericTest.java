package org.privet.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.privet.engine.Source;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.engine.spi.TableSchema;
import org.privet.testing.TestPostgres;

/**
 * PostgreSQL's own facts (docs/proofs/engine-postgres.md) on a real server: a NUMERIC value beyond
 * the DOUBLE range (or below its normal range, or NaN) would make a plain cast fail after the
 * charge, exactly when such a row exists; the dialect converts it totally, so the table with the
 * hostile values and its neighbour without them both aggregate, and the values are clamped or
 * ignored as the contract says.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresNumericTest {
  private String url;
  private PostgresBackend pg;

  @BeforeAll
  void open() throws SQLException {
    url = TestPostgres.server().newDatabase();
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE hostile (uid bigint, g text, x numeric, y numeric(6,2))");
      st.execute("INSERT INTO hostile VALUES (1, 'a', 5, 1.25), (2, 'a', 1e400, 2.50),"
          + " (3, 'a', -1e400, NULL), (4, 'a', 'NaN', 3.75), (5, 'a', 1e-400, 0.5), (6, 'a', NULL, 9)");
      st.execute("CREATE VIEW neighbour AS SELECT * FROM hostile WHERE uid IN (1, 6)");
    }
    pg = PostgresBackend.connect(url, new Properties());
  }

  @AfterAll
  void close() {
    pg.close();
  }

  private GroupAggregate run(String table) {
    BoundedAggregation spec = new BoundedAggregation(Source.table(table), Optional.empty(),
        Optional.of("uid"), List.of("g"), Optional.empty(), 1, 1, 7,
        List.of(new Measure.FixedPointSum("x", 0, 10, 0, 0, false)));
    List<GroupAggregate> out = new ArrayList<>();
    pg.aggregate(spec, out::add);
    assertEquals(1, out.size());
    return out.get(0);
  }

  @Test
  void aggregate_numericBeyondDoubleRange_clampedNeverFails() {
    GroupAggregate g = run("hostile");
    // 5 → 5; 1e400 → +∞ → 10; −1e400 → −∞ → 0; NaN and NULL ignored; 1e-400 → 0.
    assertEquals(6, g.units());
    assertEquals(5 + 10 + 0 + 0, g.sums()[0]);
    assertEquals(4, g.counts()[0]);
    GroupAggregate n = run("neighbour");
    assertEquals(5, n.sums()[0]);
    assertEquals(1, n.counts()[0]);
  }

  @Test
  void describe_numericColumns_declaredPrecisionOrRefusedForLiterals() {
    TableSchema schema = pg.describe(Source.table("hostile"));
    assertEquals(List.of(ColumnType.INTEGER, ColumnType.STRING, ColumnType.DECIMAL,
        ColumnType.DECIMAL), schema.columns().stream().map(TableSchema.Column::type).toList());
    assertEquals("numeric(1000)", schema.column("x").orElseThrow().nativeType());
    assertEquals("numeric(6,2)", schema.column("y").orElseThrow().nativeType());
    assertThrows(IllegalArgumentException.class,
        () -> pg.describe(Source.parquet(java.nio.file.Path.of("t.parquet"))));
  }
}
