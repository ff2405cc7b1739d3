package org.privet.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.postgres.PostgresBackend;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.ColumnType;
import org.privet.random.RandomSource;
import org.privet.testing.SeededRandomSource;
import org.privet.testing.TestPostgres;

/**
 * DP-SGD's steps as aggregate statements ({@link BackendTraining#clippedSums(Backend, Source,
 * DpSgd, double[], String)}, issue 26): on DuckDB and on a real PostgreSQL (embedded) the
 * statement's exact integer sums equal the Java computation of the same keyed sample, fixed-point
 * gradients, clip and truncation from the same rows ({@link BackendTraining#clippedSums(TrainingSet,
 * List, DpSgd, double[], String)}, whose keyed hash is {@link java.security.MessageDigest}'s
 * SHA-256), for text and integer units (a NULL unit, a unit whose text is not ASCII), for θ at
 * zero, moderate, and so large that the logistic's exponent is clamped, with and without the clip
 * binding. The same check on Spark is {@code SparkDpSgdStepTest}.
 */
class DpSgdStepsTest {
  static final String[] COLUMNS = {"user", "uid", "age", "hours", "sex", "income", "wage"};
  static final FeatureEncoder ENC = new FeatureEncoder(List.of(new Feature.Numeric("age", 17, 90),
      new Feature.Numeric("hours", 1, 99.5), new Feature.Categorical("sex", List.of("F", "M"))));
  static final Label.Binary LABEL = new Label.Binary("income", "high");
  static final Source PEOPLE = Source.table("sgd_people");
  static final List<Object[]> ROWS = new ArrayList<>();
  static DuckDbBackend duck;
  static PostgresBackend pg;

  @BeforeAll
  static void tables() throws Exception {
    for (int i = 0; i < 60; i++) {
      String user = i % 13 == 12 ? null : i % 13 == 11 ? "é-" + (i % 2) : "u" + (i % 11);
      Long uid = i % 17 == 16 ? null : (Long) (long) ((i % 10) * 1_000_003L - 4_000_000L);
      Long age = i % 11 == 3 ? null : (Long) (long) (10 + (i * 7) % 95);
      Double hours = i % 17 == 2 ? null : (Double) (0.37 * ((i * 31) % 300) - 3);
      String sex = i % 3 == 0 ? "F" : i % 3 == 1 ? "M" : null;
      String income = (i * 7) % 5 < 2 ? "high" : "low";
      ROWS.add(new Object[] {user, uid, age, hours, sex, income, 1.5 * i});
    }
    duck = DuckDbBackend.inMemory();
    List<List<?>> data = new ArrayList<>();
    ROWS.forEach(r -> data.add(Arrays.asList(r)));
    duck.registerTable("sgd_people", List.of(COLUMNS), List.of(ColumnType.STRING, ColumnType.INTEGER,
        ColumnType.INTEGER, ColumnType.FLOATING, ColumnType.STRING, ColumnType.STRING, ColumnType.FLOATING), data);
    String url = TestPostgres.server().newDatabase();
    BackendTrainingTest.copyToPostgres(url, "CREATE TABLE sgd_people (\"user\" text, uid bigint, age bigint,"
        + " hours double precision, sex text, income text, wage double precision)", "sgd_people", ROWS,
        new int[] {Types.VARCHAR, Types.BIGINT, Types.BIGINT, Types.DOUBLE, Types.VARCHAR, Types.VARCHAR,
            Types.DOUBLE});
    pg = PostgresBackend.connect(url, new Properties());
  }

  @AfterAll
  static void close() {
    duck.close();
    pg.close();
  }

  /** The rows in Java, every row kept, grouped by {@code unitColumn} (−1: each row a unit); the units' texts. */
  static TrainingSet javaRows(int unitColumn, int maxRowsPerUnit, List<String> texts) {
    TrainingSet.Builder b = TrainingSet.builder(ENC, LABEL, maxRowsPerUnit);
    Map<String, String> seen = new LinkedHashMap<>();
    for (int i = 0; i < ROWS.size(); i++) {
      Object[] r = ROWS.get(i);
      String[] f = {text(r[2]), text(r[3]), (String) r[4]};
      if (unitColumn < 0) {
        b.add(null, f, (String) r[5]);
        texts.add(Integer.toString(i));
      } else {
        String key = r[unitColumn] == null ? "\u0000NULL" : r[unitColumn].toString();
        if (!seen.containsKey(key)) {
          seen.put(key, r[unitColumn] == null ? null : key);
          texts.add(seen.get(key));
        }
        b.add(key, f, (String) r[5]);
      }
    }
    return b.build();
  }

  static String text(Object o) {
    return o == null ? null : o.toString();
  }

  static DpSgd sgd(double rate, double clip) {
    return DpSgd.builder().epsilon(1).delta(1e-6).samplingRate(rate).steps(5).clip(clip).pldInterval(1e-2)
        .dimension(ENC.dimension()).build();
  }

  static final double[][] THETAS = {{0, 0, 0, 0, 0}, {0.7, -1.3, 2.1, 0.4, -0.9},
      {-3000.5, 2500.25, 1e-3, 4000, -1234.5}};

  @Test
  void clippedSums_unitLevel_backendsEqualJavaExactly() {
    RandomSource salts = new SeededRandomSource(26);
    for (String unit : new String[] {"user", "uid"}) {
      int column = unit.equals("user") ? 0 : 1;
      List<String> texts = new ArrayList<>();
      TrainingSet rows = javaRows(column, 8, texts);
      assertTrue(rows.units() >= 10 && rows.rows() == 60, "every row kept: no unit has more than 8");
      BackendTraining data = BackendTraining.of(ENC, LABEL, unit, 8);
      Set<List<BigInteger>> distinct = new HashSet<>();
      for (double clip : new double[] {1, 0.05}) {
        DpSgd half = sgd(0.5, clip);
        DpSgd all = sgd(1, clip);
        for (double[] theta : THETAS) {
          BigInteger[] everyUnit = BackendTraining.clippedSums(rows, texts, all, theta, "0".repeat(64));
          assertArrayEquals(everyUnit, data.clippedSums(duck, PEOPLE, all, theta, DpSgd.salt(salts)));
          for (int k = 0; k < 2; k++) {
            String salt = DpSgd.salt(salts);
            BigInteger[] java = BackendTraining.clippedSums(rows, texts, half, theta, salt);
            assertArrayEquals(java, data.clippedSums(duck, PEOPLE, half, theta, salt), unit + " on DuckDB");
            assertArrayEquals(java, data.clippedSums(pg, PEOPLE, half, theta, salt), unit + " on PostgreSQL");
            distinct.add(List.of(java));
            assertNotEquals(List.of(everyUnit), List.of(java), "the sample leaves units out");
          }
        }
      }
      // power: the salts sample different units, the clip binds, θ matters
      assertEquals(12, distinct.size(), unit);
    }
  }

  @Test
  void clippedSums_rowLevel_backendsEqualJavaAtRateOneAndSampleNothingAtTheSmallestRate() {
    List<String> texts = new ArrayList<>();
    TrainingSet rows = javaRows(-1, 1, texts);
    BackendTraining data = BackendTraining.of(ENC, LABEL, null, 1);
    DpSgd tiny = DpSgd.builder().epsilon(1).delta(1e-6).samplingRate(0x1p-60).steps(1).pldInterval(1e-2)
        .dimension(ENC.dimension()).build();
    BigInteger[] zero = new BigInteger[ENC.dimension()];
    Arrays.fill(zero, BigInteger.ZERO);
    for (double[] theta : THETAS) {
      for (double clip : new double[] {1, 0.05}) {
        DpSgd all = sgd(1, clip);
        BigInteger[] java = BackendTraining.clippedSums(rows, texts, all, theta, "0".repeat(64));
        assertArrayEquals(java, data.clippedSums(duck, PEOPLE, all, theta, "1".repeat(64)));
        assertArrayEquals(java, data.clippedSums(pg, PEOPLE, all, theta, "2".repeat(64)));
        assertNotEquals(List.of(zero), List.of(java));
      }
      // a digest below 2^4 out of 2^64: no row is sampled (the filter runs), on both backends
      assertArrayEquals(zero, data.clippedSums(duck, PEOPLE, tiny, theta, "3".repeat(64)));
      assertArrayEquals(zero, data.clippedSums(pg, PEOPLE, tiny, theta, "3".repeat(64)));
    }
  }

  @Test
  void dpSgd_sameSeedOnDuckDbAndPostgres_sameModel() {
    // units keep every row (at most 8 each): which rows a unit keeps beyond L, and which row
    // numbers rows get when each row is a unit, are each backend's own, so only units compare
    DpSgd sgd = sgd(0.5, 0.5);
    BackendTraining data = BackendTraining.of(ENC, LABEL, "user", 8);
    String a = data.dpSgd(sgd, duck, PEOPLE, new SeededRandomSource(5)).toJson();
    assertEquals(a, data.dpSgd(sgd, pg, PEOPLE, new SeededRandomSource(5)).toJson());
    assertNotEquals(a, data.dpSgd(sgd, duck, PEOPLE, new SeededRandomSource(6)).toJson());
  }

  @Test
  void checkDpSgd_unitColumnNotTextOrInteger_refusedNamingTheOption() {
    var schema = duck.describe(PEOPLE);
    BackendTraining.of(ENC, LABEL, "uid", 2).checkDpSgd(schema);
    BackendTraining.of(ENC, LABEL, null, 1).checkDpSgd(schema);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BackendTraining.of(ENC, LABEL, "wage", 2).checkDpSgd(schema));
    assertTrue(e.getMessage().startsWith("--method dp-sgd: the privacy-unit column wage is a floating column"),
        e.getMessage());
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      keys.add("k" + i);
    }
    e = assertThrows(IllegalArgumentException.class, () -> BackendTraining.of(new FeatureEncoder(List.of(
        new Feature.Categorical("sex", keys))), LABEL, null, 1).checkDpSgd(schema));
    assertTrue(e.getMessage().startsWith("--method dp-sgd: the features encode to 1001 coordinates"), e.getMessage());
  }
}
