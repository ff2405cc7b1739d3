package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.models.BackendTraining;
import org.privet.models.DpSgd;
import org.privet.models.Feature;
import org.privet.models.FeatureEncoder;
import org.privet.models.Label;
import org.privet.models.TrainingSet;

/**
 * DP-SGD's per-step statement on Spark (issue 26, "so it runs on Spark and PostgreSQL too"): the
 * sums {@code BackendTraining} renders with {@link SparkDialect} ({@code sha2} for the keyed sample,
 * {@code rint}, {@code TRY_SUM}) equal, as exact integers, the Java computation of the same keyed
 * SHA-256 sample, fixed-point gradients, clip and truncation from the same rows: units of text (a
 * NULL unit, a non-ASCII one) sampled at q = 1/2 under two salts, the clip binding, and each row a
 * unit at q = 1 (and at the smallest rate: nothing). The same check runs on DuckDB and PostgreSQL
 * in privet-models' DpSgdStepsTest. Few statements: local Spark is slow.
 */
class SparkDpSgdStepTest {
  static final FeatureEncoder ENC = new FeatureEncoder(List.of(new Feature.Numeric("age", 17, 90),
      new Feature.Categorical("sex", List.of("F", "M"))));
  static final Label.Binary LABEL = new Label.Binary("income", "high");

  @Test
  void clippedSums_sparkEqualsJavaExactly() {
    List<List<?>> rows = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String user = i % 7 == 6 ? null : i % 7 == 5 ? "é" : "u" + (i % 5);
      Long age = i % 11 == 3 ? null : (Long) (long) (10 + (i * 7) % 95);
      String sex = i % 3 == 0 ? "F" : i % 3 == 1 ? "M" : null;
      rows.add(Arrays.asList(user, age, sex, (i * 7) % 5 < 2 ? "high" : "low"));
    }
    SparkBackend spark = SparkBackend.on(LocalSpark.session());
    spark.registerTable("sgd_people", List.of("user", "age", "sex", "income"),
        List.of(ColumnType.STRING, ColumnType.INTEGER, ColumnType.STRING, ColumnType.STRING), rows);
    Source people = Source.table("sgd_people");
    TrainingSet.Builder units = TrainingSet.builder(ENC, LABEL, 8);
    TrainingSet.Builder each = TrainingSet.builder(ENC, LABEL, 1);
    Map<String, String> texts = new LinkedHashMap<>();
    for (List<?> r : rows) {
      String[] f = {r.get(1) == null ? null : r.get(1).toString(), (String) r.get(2)};
      String key = r.get(0) == null ? "\u0000NULL" : (String) r.get(0);
      texts.putIfAbsent(key, (String) r.get(0));
      units.add(key, f, (String) r.get(3));
      each.add(null, f, (String) r.get(3));
    }
    TrainingSet unitSet = units.build();
    TrainingSet rowSet = each.build();
    DpSgd half = DpSgd.builder().epsilon(1).delta(1e-6).samplingRate(0.5).steps(5).clip(0.05).pldInterval(1e-2)
        .dimension(ENC.dimension()).build();
    DpSgd all = DpSgd.builder().epsilon(1).delta(1e-6).samplingRate(1).steps(5).clip(0.05).pldInterval(1e-2)
        .dimension(ENC.dimension()).build();
    BackendTraining byUnit = BackendTraining.of(ENC, LABEL, "user", 8);
    List<String> unitTexts = new ArrayList<>(texts.values());
    double[][] thetas = {{0, 0, 0, 0}, {0.7, -1.3, 2.1, -3000}};
    List<List<BigInteger>> seen = new ArrayList<>();
    for (double[] theta : thetas) {
      for (String salt : new String[] {"0123456789abcdef".repeat(4), "fedcba9876543210".repeat(4)}) {
        BigInteger[] java = BackendTraining.clippedSums(unitSet, unitTexts, half, theta, salt);
        assertArrayEquals(java, byUnit.clippedSums(spark, people, half, theta, salt), "units on Spark");
        seen.add(List.of(java));
      }
      List<String> rowTexts = java.util.Collections.nCopies(30, "any");
      assertArrayEquals(BackendTraining.clippedSums(rowSet, rowTexts, all, theta, "0".repeat(64)),
          BackendTraining.of(ENC, LABEL, null, 1).clippedSums(spark, people, all, theta, "1".repeat(64)),
          "rows on Spark");
    }
    assertNotEquals(seen.get(0), seen.get(1), "the two salts sample different units");
    // each row a unit at the smallest rate (a digest below 2^4 of 2^64): the row filter runs, nothing is sampled
    DpSgd tiny = DpSgd.builder().epsilon(1).delta(1e-6).samplingRate(0x1p-60).steps(1).pldInterval(1e-2)
        .dimension(ENC.dimension()).build();
    BigInteger[] zero = {BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO};
    assertArrayEquals(zero, BackendTraining.of(ENC, LABEL, null, 1).clippedSums(spark, people, tiny, thetas[1],
        "2".repeat(64)));
  }
}
