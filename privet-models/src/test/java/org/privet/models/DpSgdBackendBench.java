package org.privet.models;

import java.util.List;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * DP-SGD on Adult with its steps as DuckDB statements (not a test): per feature set and ε, the
 * accuracy on adult.test and the seconds per model (calibration apart: unchanged by where the
 * steps run). Arguments: ε values (default 0.1 1 10).
 */
public final class DpSgdBackendBench {
  public static void main(String[] args) throws Exception {
    List<String[]> train = AdultFixture.read("adult.data");
    List<String[]> test = AdultFixture.read("adult.test");
    double[] epsilons = args.length == 0 ? new double[] {0.1, 1, 10}
        : java.util.Arrays.stream(args).mapToDouble(Double::parseDouble).toArray();
    try (DuckDbBackend duck = AdultFixture.duckDb(train)) {
      for (List<Feature> fs : List.of(AdultFixture.FIVE, AdultFixture.ALL)) {
        FeatureEncoder enc = new FeatureEncoder(fs);
        BackendTraining data = BackendTraining.of(enc, AdultFixture.INCOME, null, 1);
        for (double eps : epsilons) {
          long t0 = System.nanoTime();
          DpSgd sgd = DpSgd.builder().epsilon(eps).delta(1e-6).dimension(enc.dimension()).build();
          long t1 = System.nanoTime();
          Model m = data.dpSgd(sgd, duck, Source.table("adult"), new SeededRandomSource(7));
          long t2 = System.nanoTime();
          System.out.printf("dim=%d eps=%s z=%.3f acc %.4f calibrate %.1f s, train %.1f s (%d statements, %.1f ms"
              + " each)%n", enc.dimension(), eps, sgd.noiseMultiplier(), AdultFixture.accuracy(m, test),
              (t1 - t0) / 1e9, (t2 - t1) / 1e9, sgd.steps(), (t2 - t1) / 1e6 / sgd.steps());
        }
      }
    }
  }
}
