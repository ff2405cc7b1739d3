package org.privet.models;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FeatureEncoderTest {
  static final FeatureEncoder ENC = new FeatureEncoder(List.of(
      new Feature.Numeric("age", 20, 60), new Feature.Categorical("sex", List.of("F", "M"))));

  @Test
  void encode_knownValues_scaledOneHotWithIntercept() {
    double s = 1 / Math.sqrt(3);
    assertArrayEquals(new double[] {s, 0.5 * s, 0, s}, ENC.encode(new String[] {"40", "M"}), 1e-15);
    assertEquals(List.of("(intercept)", "age", "sex=F", "sex=M"), ENC.coordinateNames());
  }

  @Test
  void encode_hostileValues_totalAndNormAtMostOne() {
    String[][] rows = {{"1e308", "F"}, {"-Infinity", "X"}, {"NaN", null}, {null, ""}, {"abc", " M "}, {"-0", "M"}};
    for (String[] r : rows) {
      double[] x = ENC.encode(r);
      double n = 0;
      for (double v : x) {
        assertTrue(Double.isFinite(v));
        n += v * v;
      }
      assertTrue(n <= 1 + 1e-12, "norm^2 " + n);
    }
    // clamped, midpoint for unparsable, unknown key all zeros
    assertEquals(1 / Math.sqrt(3), ENC.encode(new String[] {"1e308", "X"})[1], 1e-15);
    assertEquals(0.5 / Math.sqrt(3), ENC.encode(new String[] {"abc", "X"})[1], 1e-15);
    assertEquals(0.0, ENC.encode(new String[] {"30", "X"})[2] + ENC.encode(new String[] {"30", "X"})[3]);
  }

  @Test
  void constructors_badParameters_refusedNamingThem() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new Feature.Numeric("age", 5, 1))
        .getMessage().contains("age"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> new Feature.Categorical("sex", List.of()))
        .getMessage().contains("sex"));
    assertTrue(assertThrows(IllegalArgumentException.class,
        () -> new FeatureEncoder(List.of(new Feature.Numeric("a", 0, 1), new Feature.Numeric("a", 0, 2))))
        .getMessage().contains("twice"));
    assertThrows(IllegalArgumentException.class, () -> TrainingSet.builder(ENC, new Label.Binary("y", "1"), 0));
  }

  @Test
  void trainingSet_unitWithManyRows_keepsBoundAndWeighsOne() {
    TrainingSet.Builder b = TrainingSet.builder(ENC, new Label.Binary("y", "1"), 3);
    for (int i = 0; i < 10; i++) {
      b.add("u1", new String[] {"30", "F"}, "1");
    }
    b.add("u2", new String[] {"50", "M"}, "0");
    TrainingSet set = b.build();
    assertEquals(4, set.rows());
    assertEquals(2, set.units());
    double w1 = 0;
    for (int i = 0; i < set.rows(); i++) {
      if (set.unit[i] == 0) {
        w1 += set.weight[i];
      }
    }
    assertEquals(1.0, w1, 1e-15);
  }
}
