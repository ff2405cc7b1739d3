package org.privet.models;

import java.util.List;
import org.privet.testing.SeededRandomSource;

/** Prints Adult accuracies (not a test; run with exec or from the IDE). */
public final class AdultBenchmarkMain {
  public static void main(String[] args) throws Exception {
    List<String[]> train = AdultFixture.read("adult.data");
    List<String[]> test = AdultFixture.read("adult.test");
    int reps = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    org.privet.engine.duckdb.DuckDbBackend duck = AdultFixture.duckDb(train); // DP-SGD runs its steps there
    for (List<Feature> fs : List.of(AdultFixture.FIVE, AdultFixture.ALL)) {
      FeatureEncoder enc = new FeatureEncoder(fs);
      TrainingSet set = AdultFixture.trainingSet(train, enc);
      System.out.printf("features=%d dim=%d%n", fs.size(), enc.dimension());
      long t0 = System.nanoTime();
      Model np = ObjectivePerturbation.trainNonPrivate(set, 1e-6);
      System.out.printf("  non-private %.4f (%.1f s)%n", AdultFixture.accuracy(np, test), (System.nanoTime() - t0) / 1e9);
      for (double eps : new double[] {0.1, 1, 10}) {
        ObjectivePerturbation op = ObjectivePerturbation.of(eps, 1e-6, 1, null, enc.dimension());
        double sum = 0;
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < reps; r++) {
          Model m = op.train(set, new SeededRandomSource(1000 + r));
          double a = AdultFixture.accuracy(m, test);
          sum += a;
          sb.append(String.format(" %.4f", a));
        }
        System.out.printf("  objpert eps=%s sigma=%.3f lambda=%.3f mean %.4f:%s%n", eps, op.sigma(),
            op.regularization(), sum / reps, sb);
        PureObjectivePerturbation pure = PureObjectivePerturbation.of(eps, 1, null, enc);
        double sumPure = 0;
        StringBuilder sbPure = new StringBuilder();
        for (int r = 0; r < reps; r++) {
          double a = AdultFixture.accuracy(pure.train(set, new SeededRandomSource(1000 + r)), test);
          sumPure += a;
          sbPure.append(String.format(" %.4f", a));
        }
        System.out.printf("  objpert-pure eps=%s scale=%.3f lambda=%.3f mean %.4f:%s%n", eps, pure.scale(),
            pure.regularization(), sumPure / reps, sbPure);
        if (args.length > 1) {
          continue;
        }
        long t1 = System.nanoTime();
        DpSgd sgd = DpSgd.builder().epsilon(eps).delta(1e-6).dimension(enc.dimension()).build();
        long t2 = System.nanoTime();
        Model ms = BackendTraining.of(enc, AdultFixture.INCOME, null, 1).dpSgd(sgd, duck,
            org.privet.engine.Source.table("adult"), new SeededRandomSource(7));
        long t3 = System.nanoTime();
        System.out.printf("  dp-sgd eps=%s z=%.3f acc %.4f (calibrate %.1f s, train %.1f s, %d statements on DuckDB)%n", eps,
            sgd.noiseMultiplier(), AdultFixture.accuracy(ms, test), (t2 - t1) / 1e9, (t3 - t2) / 1e9, sgd.steps());
        Model nb = GaussianNaiveBayes.of(eps, 1e-6, new SeededRandomSource(9)).train(set);
        System.out.printf("  naive-bayes eps=%s acc %.4f%n", eps, AdultFixture.accuracy(nb, test));
      }
    }
  }
}
