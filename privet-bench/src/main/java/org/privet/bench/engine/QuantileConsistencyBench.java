package org.privet.bench.engine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privet.engine.Aggregation;
import org.privet.engine.release.MechanismSpec;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Releases;
import org.privet.random.RandomSource;

/**
 * Accuracy harness (issue 17, item 6): quantile error of the engine's quantile tree with and
 * without least-squares consistency (Hay, Rastogi, Miklau, Suciu 2010), on UCI Adult columns over
 * [0, 100] with the default 1024 cells, each row a unit, Laplace (geometric) node noise of the
 * engine's calibration (sensitivity = the tree's levels). Both estimators read the same noisy
 * release in every run, so the comparison is paired. It uses the engine's internal {@code
 * org.privet.engine.release} classes directly (the one exception EngineBoundaryTest allows); the
 * seed makes it reproducible (harness, not product code).
 *
 * <p>Usage, from the repository root: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.engine.QuantileConsistencyBench [runs] [seed]}.
 */
public final class QuantileConsistencyBench {
  private static final int BINS = Aggregation.Quantiles.DEFAULT_BINS;

  private QuantileConsistencyBench() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 6;
    SplittableRandom sr = new SplittableRandom(seed);
    RandomSource random = sr::nextLong;
    Path adult = Path.of("data/adult-raw/adult.data");
    double[] ranks = {0.1, 0.25, 0.5, 0.75, 0.9};
    QuantileTree tree = QuantileTree.forCells(BINS);
    System.out.println("column,epsilon,rank,mae_unprocessed,mae_consistent,ratio");
    for (String col : new String[] {"age", "hours_per_week"}) {
      List<Double> values = values(adult, col.equals("age") ? 0 : 12);
      long[] cells = new long[BINS];
      for (double v : values) {
        cells[(int) Math.min(BINS - 1, Math.floor(v / 100 * BINS))]++;
      }
      long[] exactNodes = tree.counts(cells);
      for (double eps : new double[] {1.0, 0.1, 0.01}) {
        // L1 sensitivity: one row counts in one node per level (L0 = L∞ = 1).
        MechanismSpec spec = new MechanismSpec.Geometric(eps, tree.levels());
        Releases.Noise noise = Releases.noise(spec, random);
        QuantileTree.NodeNoise nodeNoise = QuantileTree.NodeNoise.of(noise);
        double[] raw = new double[ranks.length];
        double[] cons = new double[ranks.length];
        for (int i = 0; i < runs; i++) {
          long[] noisy = QuantileTree.release(exactNodes, noise::release);
          QuantileTree.Answer a = tree.quantiles(noisy, ranks, nodeNoise, 0.05, false);
          QuantileTree.Answer c = tree.quantiles(noisy, ranks, nodeNoise, 0.05, true);
          for (int r = 0; r < ranks.length; r++) {
            double exact = values.get((int) QuantileTree.targetRank(ranks[r], values.size()) - 1);
            raw[r] += Math.abs(a.edge()[r] * 100.0 / BINS - exact);
            cons[r] += Math.abs(c.edge()[r] * 100.0 / BINS - exact);
          }
        }
        for (int r = 0; r < ranks.length; r++) {
          System.out.printf("%s,%s,%.2f,%.4f,%.4f,%.3f%n", col, eps, ranks[r], raw[r] / runs,
              cons[r] / runs, cons[r] / raw[r]);
        }
      }
    }
  }

  private static List<Double> values(Path adult, int column) throws Exception {
    List<Double> out = new ArrayList<>();
    for (String line : Files.readAllLines(adult)) {
      if (!line.isBlank()) {
        out.add(Math.max(0, Math.min(100, Double.parseDouble(line.split(", ")[column]))));
      }
    }
    out.sort(null);
    return out;
  }
}
