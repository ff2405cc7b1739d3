package org.privet.bench.selection;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Thresholding;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.random.RandomSource;

/**
 * Accuracy harness (issue 17, item 3): how many groups {@code SELECT g, COUNT(*) ... GROUP BY g}
 * releases at (ε, δ) = (1, 1e-5) with L0 = 5, 20 and 100, by differentially private set union
 * ({@code SET_UNION}: the policy Gaussian of Gopi et al. 2020) against today's Gaussian thresholding
 * of the unit counts ({@code GAUSSIAN_THRESHOLD}, each unit adding 1 to at most L0 groups), through
 * the real engine (DuckDB), same query, same budget and same default split.
 *
 * <p>The table: U units; unit u has m<sub>u</sub> distinct groups, m<sub>u</sub> uniform in
 * 1..150, each drawn from a Zipf law (exponent 1.1) over G groups (repeats redrawn), one row per
 * (unit, group). Every run releases a set of groups; the mean count over the runs is reported,
 * with the number of groups that have at least one unit. Seeded; not product code.
 *
 * <p>Usage, from the repository root: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.selection.SetUnionBench [runs] [seed] [units] [groups]}.
 */
public final class SetUnionBench {
  private static final double EPSILON = 1.0;
  private static final double DELTA = 1e-5;
  private static final double ZIPF = 1.1;
  private static final int MAX_GROUPS_PER_UNIT = 150;

  private SetUnionBench() {}

  public static void main(String[] args) {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 17;
    int units = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
    int groups = args.length > 3 ? Integer.parseInt(args[3]) : 20000;
    SplittableRandom sr = new SplittableRandom(seed);
    RandomSource random = sr::nextLong;
    System.out.println("L0,strategy,mean_groups_released,min,max,ratio_to_gaussian_threshold,"
        + "groups_present,seconds_per_run");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      long present = register(db, "zipf", units, groups, sr);
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(random).build();
      for (int l0 : new int[] {5, 20, 100}) {
        double baseline = Double.NaN;
        for (Thresholding t : new Thresholding[] {Thresholding.GAUSSIAN, Thresholding.SET_UNION}) {
          Query q = Query.from("zipf").privacyUnit("uid").maxGroupsContributed(l0)
              .maxRowsPerGroup(1).groupBy("g").count("n").epsilonDelta(EPSILON, DELTA)
              .thresholding(t).build();
          long sum = 0;
          long min = Long.MAX_VALUE;
          long max = 0;
          long start = System.nanoTime();
          for (int i = 0; i < runs; i++) {
            long n = s.run(q).rows().size();
            sum += n;
            min = Math.min(min, n);
            max = Math.max(max, n);
          }
          double secs = (System.nanoTime() - start) / 1e9 / runs;
          double mean = (double) sum / runs;
          if (t == Thresholding.GAUSSIAN) {
            baseline = mean;
          }
          System.out.printf("%d,%s,%.1f,%d,%d,%.3f,%d,%.2f%n", l0,
              t == Thresholding.GAUSSIAN ? "GAUSSIAN_THRESHOLD (today)" : "SET_UNION", mean, min,
              max, mean / baseline, present, secs);
        }
      }
    }
  }

  /** The Zipf table; returns the number of groups with at least one unit. */
  private static long register(DuckDbBackend db, String name, int units, int groups,
      SplittableRandom r) {
    double[] cdf = new double[groups];
    double total = 0;
    for (int g = 0; g < groups; g++) {
      total += Math.pow(g + 1, -ZIPF);
      cdf[g] = total;
    }
    List<List<?>> rows = new ArrayList<>();
    boolean[] seen = new boolean[groups];
    long present = 0;
    for (long u = 0; u < units; u++) {
      int m = 1 + r.nextInt(MAX_GROUPS_PER_UNIT);
      java.util.Set<Integer> mine = new java.util.HashSet<>();
      while (mine.size() < m) {
        double x = r.nextDouble() * total;
        int lo = 0;
        int hi = groups - 1;
        while (lo < hi) {
          int mid = (lo + hi) >>> 1;
          if (cdf[mid] < x) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        mine.add(lo);
      }
      for (int g : mine) {
        rows.add(List.of(u, "g" + g));
        if (!seen[g]) {
          seen[g] = true;
          present++;
        }
      }
    }
    db.registerTable(name, List.of("uid", "g"), List.of(ColumnType.INTEGER, ColumnType.STRING),
        rows);
    return present;
  }
}
