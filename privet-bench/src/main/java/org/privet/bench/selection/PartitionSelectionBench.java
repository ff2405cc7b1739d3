package org.privet.bench.selection;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.Thresholding;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.mechanisms.OptimalPartitionSelection;
import org.privet.random.RandomSource;

/**
 * Accuracy harness (issue 17): how many distinct units a group needs to be released half of the
 * time by {@code SELECT g, COUNT(*) ... GROUP BY g} at (ε, δ), L0 = L∞ = 1, for each
 * partition-selection strategy of the engine, by seeded simulation through the real engine
 * (DuckDB), against the optimal mechanism's analytic value (Desfontaines et al. 2022) spending the
 * whole (ε, δ) on selection alone.
 *
 * <p>The table has one group per size n = 1..N with exactly n units (one row each). Each run
 * releases a subset of groups; the release frequency per size over the runs is made monotone
 * (pool-adjacent-violators) and the first size whose frequency reaches ½ is reported. The seed
 * makes the run reproducible; this harness is not product code.
 *
 * <p>Usage, from the repository root: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.selection.PartitionSelectionBench [runs] [seed]}.
 */
public final class PartitionSelectionBench {
  private static final double DELTA = 1e-5;

  private PartitionSelectionBench() {}

  public static void main(String[] args) {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 17;
    SplittableRandom sr = new SplittableRandom(seed);
    RandomSource random = sr::nextLong;
    System.out.println("epsilon,strategy,chosen,units_for_50pct,ratio_to_optimal_alone");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      for (double eps : new double[] {1.0, 0.1}) {
        int maxUnits = eps >= 1 ? 60 : 320;
        register(db, "sizes", maxUnits);
        long optimal = OptimalPartitionSelection.of(eps, DELTA, 1).unitsForKeepProbability(0.5);
        System.out.printf("%s,optimal mechanism alone (analytic; all of (ε, δ)),-,%d,1.000%n",
            eps, optimal);
        Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
            .randomSource(random).build();
        for (Thresholding t : new Thresholding[] {Thresholding.AUTO, Thresholding.LAPLACE,
            Thresholding.OPTIMAL, Thresholding.POST_AGGREGATION}) {
          Query.Builder b = Query.from("sizes").privacyUnit("uid").maxGroupsContributed(1)
              .maxRowsPerGroup(1).groupBy("g").count("n").epsilonDelta(eps, DELTA);
          Query q = (t == Thresholding.AUTO ? b : b.thresholding(t)).build();
          String chosen = s.explain(q).bounds().stream()
              .filter(x -> x.startsWith("group selection: ")).findFirst().orElse("?")
              .replace("group selection: ", "").replaceAll(":.*", "").replace(',', ';');
          long[] released = new long[maxUnits + 1];
          for (int i = 0; i < runs; i++) {
            for (ResultRow row : s.run(q).rows()) {
              released[Integer.parseInt(((String) row.key().get(0)).substring(1))]++;
            }
          }
          long half = firstHalf(released, runs);
          System.out.printf("%s,%s,%s,%s,%s%n", eps,
              t == Thresholding.AUTO ? "AUTO (new default)"
                  : t == Thresholding.LAPLACE ? "LAPLACE_THRESHOLD (separate; old default)" : t,
              chosen, half < 0 ? ">" + maxUnits : Long.toString(half),
              half < 0 ? "-" : String.format("%.3f", (double) half / optimal));
        }
      }
    }
  }

  /** One group "g&lt;n&gt;" with n units per n = 1..max, one row per unit. */
  private static void register(DuckDbBackend db, String name, int max) {
    List<List<?>> rows = new ArrayList<>();
    long uid = 0;
    for (int n = 1; n <= max; n++) {
      for (int k = 0; k < n; k++) {
        rows.add(Arrays.asList(uid++, "g" + n));
      }
    }
    db.registerTable(name, List.of("uid", "g"), List.of(ColumnType.INTEGER, ColumnType.STRING),
        rows);
  }

  /**
   * The first size whose release frequency, made non-decreasing in the size by
   * pool-adjacent-violators, reaches ½; −1 if none.
   */
  static long firstHalf(long[] released, int runs) {
    int n = released.length - 1;
    double[] value = new double[n];
    int[] weight = new int[n];
    int[] start = new int[n];
    int blocks = 0;
    for (int i = 1; i <= n; i++) {
      value[blocks] = (double) released[i] / runs;
      weight[blocks] = 1;
      start[blocks] = i;
      blocks++;
      while (blocks > 1 && value[blocks - 2] > value[blocks - 1]) {
        double merged = (value[blocks - 2] * weight[blocks - 2]
            + value[blocks - 1] * weight[blocks - 1]) / (weight[blocks - 2] + weight[blocks - 1]);
        weight[blocks - 2] += weight[blocks - 1];
        value[blocks - 2] = merged;
        blocks--;
      }
    }
    for (int b = 0; b < blocks; b++) {
      if (value[b] >= 0.5) {
        return start[b];
      }
    }
    return -1;
  }
}
