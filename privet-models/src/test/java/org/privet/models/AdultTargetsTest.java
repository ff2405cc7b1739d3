package org.privet.models;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.privet.testing.SeededRandomSource;

/**
 * The held-out check of issue 26: objective-perturbation logistic regression trained on UCI Adult's
 * adult.data and scored on adult.test with its own code (data/adult-raw, attribution in its
 * README), against outside references: diffprivlib's published notebook figure (LogisticRegression
 * on the same 5 numeric features at ε = 1: 79.5%; non-private 81.3%) and the majority class
 * (76.4%). Targets: beat 79.5% on the 5 features at ε = 1; with all 14 features, ≥ 82% at ε = 1 and
 * ≥ 78% at ε = 0.1; δ = 10⁻⁶. Default hyperparameters, fixed seeds; each configuration is scored as
 * the mean of {@value #SEEDS} runs. Seeded and deterministic: the figures measured with these seeds
 * are in docs/benchmarks.md (means 80.0%, 84.0% and 82.1%; non-private 81.3% and 85.3%).
 */
class AdultTargetsTest {
  static final int SEEDS = 3;
  static List<String[]> train;
  static List<String[]> test;

  @BeforeAll
  static void load() throws Exception {
    train = AdultFixture.read("adult.data");
    test = AdultFixture.read("adult.test");
  }

  static double meanAccuracy(List<Feature> features, double epsilon) {
    FeatureEncoder enc = new FeatureEncoder(features);
    TrainingSet set = AdultFixture.trainingSet(train, enc);
    ObjectivePerturbation op = ObjectivePerturbation.of(epsilon, 1e-6, 1, null, enc.dimension());
    double sum = 0;
    for (int s = 0; s < SEEDS; s++) {
      sum += AdultFixture.accuracy(op.train(set, new SeededRandomSource(1000 + s)), test);
    }
    return sum / SEEDS;
  }

  @Test
  void fiveNumericFeatures_epsilonOne_beatsDiffprivlib() {
    double nonPrivate = AdultFixture.accuracy(ObjectivePerturbation.trainNonPrivate(
        AdultFixture.trainingSet(train, new FeatureEncoder(AdultFixture.FIVE)), 1e-6), test);
    assertTrue(Math.abs(nonPrivate - 0.813) < 0.005, "non-private reproduces diffprivlib's 81.3%: " + nonPrivate);
    double a = meanAccuracy(AdultFixture.FIVE, 1);
    assertTrue(a > 0.795, "5 features at epsilon 1: " + a);
  }

  @Test
  void allFeatures_epsilonOneAndTenth_meetTargets() {
    double one = meanAccuracy(AdultFixture.ALL, 1);
    assertTrue(one >= 0.82, "all features at epsilon 1: " + one);
    double tenth = meanAccuracy(AdultFixture.ALL, 0.1);
    assertTrue(tenth >= 0.78, "all features at epsilon 0.1: " + tenth);
  }

  @Test
  void majorityClass_isTheReference() {
    long negatives = test.stream().filter(r -> r[14].equals("<=50K")).count();
    double majority = negatives / (double) test.size();
    assertTrue(Math.abs(majority - 0.764) < 0.001, "majority class " + majority);
  }
}
