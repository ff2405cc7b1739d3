package org.privet.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.postgres.PostgresBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.ColumnType;
import org.privet.testing.SeededRandomSource;
import org.privet.testing.TestPostgres;

/**
 * Models where the data lives ({@link BackendTraining}): the same small table in DuckDB and in a
 * real PostgreSQL (embedded, {@link TestPostgres}); the sufficient statistics each backend computes
 * in SQL equal, exactly (as integers), what Java computes from the same rows with the encoder's own
 * code (a value on a rounding tie, NULLs, NaN, values outside the bounds, keys with spaces), and a
 * model trained on the PostgreSQL copy equals the DuckDB one under the same seeded noise.
 */
class BackendTrainingTest {
  static final String[] COLUMNS = {"user", "age", "hours", "half", "sex", "income", "t"};
  static DuckDbBackend duck;
  static PostgresBackend pg;
  static List<Object[]> rows = new ArrayList<>();

  static final FeatureEncoder ENC = new FeatureEncoder(List.of(new Feature.Numeric("age", 17, 90),
      new Feature.Numeric("hours", 1, 99.5), new Feature.Numeric("half", 0, 0x1p21),
      new Feature.Categorical("sex", List.of("F", "M", "X"))));
  static final Label.Binary BINARY = new Label.Binary("income", "high");
  static final Label.Numeric NUMERIC = new Label.Numeric("t", -3, 40);

  @BeforeAll
  static void tables() throws Exception {
    for (int i = 0; i < 67; i++) {
      Long age = i % 11 == 3 ? null : (Long) (long) (10 + (i * 7) % 95);
      Double hours = i % 13 == 5 ? (Double) Double.NaN : i % 17 == 2 ? null : (Double) (0.37 * ((i * 31) % 300) - 3);
      long half = i % 5; // 1 and 3 land on rounding ties: 0.5 → 0, 1.5 → 2 (half to even)
      String sex = i % 4 == 0 ? " F" : i % 4 == 1 ? "M " : i % 4 == 2 ? "F" : i % 9 == 0 ? null : "other";
      String income = i % 3 == 0 ? "high" : i % 7 == 0 ? " high " : "low";
      Double t = i % 19 == 4 ? null : (Double) (0.61 * ((i * 13) % 80) - 5);
      rows.add(new Object[] {"u" + (i % 9), age, hours, half, sex, income, t});
    }
    duck = DuckDbBackend.inMemory();
    List<List<?>> data = new ArrayList<>();
    rows.forEach(r -> data.add(Arrays.asList(r)));
    duck.registerTable("people", List.of(COLUMNS), List.of(ColumnType.STRING, ColumnType.INTEGER,
        ColumnType.FLOATING, ColumnType.INTEGER, ColumnType.STRING, ColumnType.STRING, ColumnType.FLOATING), data);
    String url = TestPostgres.server().newDatabase();
    copyToPostgres(url, "CREATE TABLE people (\"user\" text, age bigint, hours double precision, half bigint,"
        + " sex text, income text, t double precision)", "people", rows, new int[] {Types.VARCHAR, Types.BIGINT,
        Types.DOUBLE, Types.BIGINT, Types.VARCHAR, Types.VARCHAR, Types.DOUBLE});
    pg = PostgresBackend.connect(url, new Properties());
  }

  /** Creates a table in the PostgreSQL database at {@code url} by {@code ddl} and inserts {@code rows}. */
  static void copyToPostgres(String url, String ddl, String table, List<Object[]> rows, int[] types)
      throws Exception {
    try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
      s.execute(ddl);
      String marks = String.join(", ", java.util.Collections.nCopies(types.length, "?"));
      try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (" + marks + ")")) {
        for (Object[] r : rows) {
          for (int i = 0; i < types.length; i++) {
            p.setObject(i + 1, r[i], types[i]);
          }
          p.addBatch();
        }
        p.executeBatch();
      }
    }
  }

  @AfterAll
  static void close() {
    duck.close();
    pg.close();
  }

  /** The same rows as text, encoded by the Java encoder (every unit keeps all its rows). */
  static TrainingSet java(Label label, boolean units, int maxRowsPerUnit) {
    TrainingSet.Builder b = TrainingSet.builder(ENC, label, maxRowsPerUnit);
    for (Object[] r : rows) {
      String[] f = {text(r[1]), text(r[2]), text(r[3]), (String) r[4]};
      b.add(units ? (String) r[0] : null, f, text(label == BINARY ? r[5] : r[6]));
    }
    return b.build();
  }

  static String text(Object o) {
    return o == null ? null : o.toString();
  }

  static final Source PEOPLE = Source.table("people");

  @Test
  void statistics_rowLevel_backendsEqualJavaExactly() {
    BackendTraining linear = BackendTraining.of(ENC, NUMERIC, null, 1);
    BackendTraining.Gram reference = BackendTraining.gram(java(NUMERIC, false, 1));
    assertEquals(reference, linear.gram(duck, PEOPLE));
    assertEquals(reference, linear.gram(pg, PEOPLE));
    BackendTraining nb = BackendTraining.of(ENC, BINARY, null, 1);
    BackendTraining.ClassMoments moments = BackendTraining.classMoments(java(BINARY, false, 1));
    assertEquals(moments, nb.classMoments(duck, PEOPLE));
    assertEquals(moments, nb.classMoments(pg, PEOPLE));
    // power: the comparison sees a one-row difference
    TrainingSet.Builder b = TrainingSet.builder(ENC, NUMERIC, 1);
    b.add(null, new String[] {"30", "5", "1", "F"}, "1");
    assertNotEquals(reference, BackendTraining.gram(b.build()));
    // the tie rule is exercised: half = 1 encodes to 0, half = 3 to 2 (not 1 and 2 by half-up)
    assertEquals(0, new Feature.Numeric("half", 0, 0x1p21).fixed(1));
    assertEquals(2, new Feature.Numeric("half", 0, 0x1p21).fixed(3));
  }

  @Test
  void statistics_unitLevel_weightsPerUnit_backendsEqualJavaExactly() {
    // 9 units of 7 or 8 rows, at most 8 kept: nothing is dropped, weights are 1/7 and 1/8
    BackendTraining linear = BackendTraining.of(ENC, NUMERIC, "user", 8);
    BackendTraining.Gram reference = BackendTraining.gram(java(NUMERIC, true, 8));
    assertEquals(reference, linear.gram(duck, PEOPLE));
    assertEquals(reference, linear.gram(pg, PEOPLE));
    BackendTraining nb = BackendTraining.of(ENC, BINARY, "user", 8);
    BackendTraining.ClassMoments moments = BackendTraining.classMoments(java(BINARY, true, 8));
    assertEquals(moments, nb.classMoments(duck, PEOPLE));
    assertEquals(moments, nb.classMoments(pg, PEOPLE));
    // the rows read back are the same training set on both backends
    assertEquals(BackendTraining.gram(linear.rows(duck, PEOPLE)), BackendTraining.gram(linear.rows(pg, PEOPLE)));
  }

  @Test
  void statistics_unitLevel_boundedRows_statisticsAreThoseOfTheKeptRows() {
    BackendTraining linear = BackendTraining.of(ENC, NUMERIC, "user", 3);
    for (Backend backend : new Backend[] {duck, pg}) {
      TrainingSet kept = linear.rows(backend, PEOPLE);
      assertEquals(27, kept.rows(), "3 rows of each of 9 units");
      assertEquals(9, kept.units());
      assertEquals(BackendTraining.gram(kept), linear.gram(backend, PEOPLE));
    }
  }

  @Test
  void training_postgresCopy_sameModelAsDuckDbUnderTheSameNoise() {
    // L = 8 keeps every row (units of 7 or 8 rows): which rows a unit keeps beyond L is chosen by
    // each backend's own salted hash, so only then are the kept rows, and the models, the same
    int d = ENC.dimension();
    BackendTraining linear = BackendTraining.of(ENC, NUMERIC, "user", 8);
    assertEquals(AdaSsp.of(1, 1e-6, d, new SeededRandomSource(7)).train(ENC, NUMERIC, linear.gram(duck, PEOPLE))
        .toJson(), AdaSsp.of(1, 1e-6, d, new SeededRandomSource(7)).train(ENC, NUMERIC, linear.gram(pg, PEOPLE))
        .toJson());
    BackendTraining nb = BackendTraining.of(ENC, BINARY, null, 1);
    assertEquals(GaussianNaiveBayes.of(1, 1e-6, new SeededRandomSource(8)).train(ENC, BINARY,
        nb.classMoments(duck, PEOPLE)).toJson(), GaussianNaiveBayes.of(1, 1e-6, new SeededRandomSource(8))
        .train(ENC, BINARY, nb.classMoments(pg, PEOPLE)).toJson());
    BackendTraining logistic = BackendTraining.of(ENC, BINARY, "user", 8);
    ObjectivePerturbation op = ObjectivePerturbation.of(1, 1e-6, 8, null, d);
    String a = op.train(logistic.rows(duck, PEOPLE), new SeededRandomSource(9)).toJson();
    assertEquals(a, op.train(logistic.rows(pg, PEOPLE), new SeededRandomSource(9)).toJson());
    assertNotEquals(a, op.train(logistic.rows(pg, PEOPLE), new SeededRandomSource(10)).toJson());
  }

  @Test
  void check_typesNotRenderedAlikeEverywhere_refusedNamingTheOption() {
    var schema = duck.describe(PEOPLE);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BackendTraining.of(
        new FeatureEncoder(List.of(new Feature.Numeric("sex", 0, 1))), BINARY, null, 1).check(schema));
    assertTrue(e.getMessage().startsWith("--feature-bounds: feature sex is a string column"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> BackendTraining.of(
        new FeatureEncoder(List.of(new Feature.Categorical("hours", List.of("1")))), BINARY, null, 1).check(schema));
    assertTrue(e.getMessage().startsWith("--feature-keys: feature hours is a floating column"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BackendTraining.of(ENC, BINARY, "user", 21));
  }
}
