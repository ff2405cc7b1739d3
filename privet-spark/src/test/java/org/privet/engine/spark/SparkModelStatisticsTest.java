package org.privet.engine.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.Source;
import org.privet.engine.spi.ColumnType;
import org.privet.models.BackendTraining;
import org.privet.models.Feature;
import org.privet.models.FeatureEncoder;
import org.privet.models.Label;
import org.privet.models.TrainingSet;

/**
 * A model's sufficient statistics on Spark (issue 26, "where the data lives"): the statements
 * {@code BackendTraining} renders with {@link SparkDialect} give, as exact integers, what Java
 * computes from the same rows (rounding ties, NULL, NaN, values outside the bounds, keys with
 * spaces; per-unit weights). The same check runs on DuckDB and PostgreSQL in privet-models'
 * BackendTrainingTest. One small table: local Spark is slow.
 */
class SparkModelStatisticsTest {
  static final FeatureEncoder ENC = new FeatureEncoder(List.of(new Feature.Numeric("age", 17, 90),
      new Feature.Numeric("hours", 1, 99.5), new Feature.Numeric("half", 0, 0x1p21),
      new Feature.Categorical("sex", List.of("F", "M"))));
  static final Label.Binary BINARY = new Label.Binary("income", "high");
  static final Label.Numeric NUMERIC = new Label.Numeric("t", -3, 40);

  @Test
  void statistics_sparkEqualsJavaExactly() {
    List<List<?>> rows = new ArrayList<>();
    for (int i = 0; i < 31; i++) {
      Long age = i % 11 == 3 ? null : (Long) (long) (10 + (i * 7) % 95);
      Double hours = i % 13 == 5 ? (Double) Double.NaN : i % 17 == 2 ? null : (Double) (0.37 * ((i * 31) % 300) - 3);
      String sex = i % 4 == 0 ? " F" : i % 4 == 1 ? "M " : i % 4 == 2 ? "F" : null;
      String income = i % 3 == 0 ? "high" : i % 7 == 0 ? " high " : "low";
      Double t = i % 19 == 4 ? null : (Double) (0.61 * ((i * 13) % 80) - 5);
      rows.add(Arrays.asList("u" + (i % 5), age, hours, (long) (i % 5), sex, income, t));
    }
    SparkBackend spark = SparkBackend.on(LocalSpark.session());
    spark.registerTable("model_people", List.of("user", "age", "hours", "half", "sex", "income", "t"),
        List.of(ColumnType.STRING, ColumnType.INTEGER, ColumnType.FLOATING, ColumnType.INTEGER, ColumnType.STRING,
            ColumnType.STRING, ColumnType.FLOATING), rows);
    Source people = Source.table("model_people");
    for (boolean units : new boolean[] {false, true}) {
      int k = units ? 7 : 1; // units of 6 or 7 rows: every row kept, weights 1/6 and 1/7
      TrainingSet.Builder lin = TrainingSet.builder(ENC, NUMERIC, k);
      TrainingSet.Builder cls = TrainingSet.builder(ENC, BINARY, k);
      for (List<?> r : rows) {
        String[] f = {text(r.get(1)), text(r.get(2)), text(r.get(3)), (String) r.get(4)};
        lin.add(units ? (String) r.get(0) : null, f, text(r.get(6)));
        cls.add(units ? (String) r.get(0) : null, f, text(r.get(5)));
      }
      String unit = units ? "user" : null;
      assertEquals(BackendTraining.gram(lin.build()), BackendTraining.of(ENC, NUMERIC, unit, k).gram(spark, people));
      assertEquals(BackendTraining.classMoments(cls.build()),
          BackendTraining.of(ENC, BINARY, unit, k).classMoments(spark, people));
    }
  }

  static String text(Object o) {
    return o == null ? null : o.toString();
  }
}
