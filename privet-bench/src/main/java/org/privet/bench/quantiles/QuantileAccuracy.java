package org.privet.bench.quantiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.privet.engine.Aggregation;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.random.RandomSource;

/**
 * Accuracy harness (not a speed benchmark): quantiles of UCI Adult columns by the quantile tree and
 * by the exponential mechanism, at several ε, over repeated runs. Prints per (column, rank, ε) the
 * mean 95% interval width of the tree, the mean absolute error of both methods against the exact
 * k-th smallest value (k = ⌈r·n⌉) and the tree's empirical coverage.
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.quantiles.QuantileAccuracy [runs]} from the repository root.
 */
public final class QuantileAccuracy {
  private static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");

  private QuantileAccuracy() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    Path adult = Path.of("data/adult-raw/adult.data");
    Source src = Source.csv(adult).withoutHeader(COLUMNS).withDelimiter(", ")
        .withNullString("?");
    double[] ranks = {0.1, 0.5, 0.9};
    System.out.println("column,rank,epsilon,tree_width95,tree_abs_error,em_abs_error,tree_coverage");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).confidenceLevel(0.95).build();
      for (String col : new String[] {"age", "hours_per_week"}) {
        List<Double> values = exactValues(adult, COLUMNS.indexOf(col));
        for (double eps : new double[] {1.0, 0.1}) {
          double[] width = new double[ranks.length];
          double[] errTree = new double[ranks.length];
          double[] errEm = new double[ranks.length];
          int[] covered = new int[ranks.length];
          for (int i = 0; i < runs; i++) {
            var tree = s.run(Query.from(src).eachRowIsAUnit()
                .quantiles("q", col, 0, 100, ranks).epsilon(eps).build()).rows().get(0);
            var em = s.run(Query.from(src).eachRowIsAUnit()
                .quantiles("q", col, 0, 100, Aggregation.Quantiles.Method.EXPONENTIAL, ranks)
                .epsilon(eps).build()).rows().get(0);
            for (int r = 0; r < ranks.length; r++) {
              double exact = values.get(
                  (int) Math.max(1, Math.ceil(ranks[r] * values.size() - 1e-9)) - 1);
              Estimate t = tree.get("q[" + ranks[r] + "]");
              width[r] += t.upper() - t.lower();
              errTree[r] += Math.abs(t.value() - exact);
              errEm[r] += Math.abs(em.get("q[" + ranks[r] + "]").value() - exact);
              covered[r] += t.lower() <= exact && exact <= t.upper() ? 1 : 0;
            }
          }
          for (int r = 0; r < ranks.length; r++) {
            System.out.printf("%s,%.2f,%.2f,%.4f,%.4f,%.4f,%d/%d%n", col, ranks[r], eps,
                width[r] / runs, errTree[r] / runs, errEm[r] / runs, covered[r], runs);
          }
        }
      }
    }
  }

  private static List<Double> exactValues(Path adult, int column) throws Exception {
    List<Double> out = new ArrayList<>();
    for (String line : java.nio.file.Files.readAllLines(adult)) {
      if (!line.isBlank()) {
        out.add(Math.max(0, Math.min(100, Double.parseDouble(line.split(", ")[column]))));
      }
    }
    out.sort(null);
    return out;
  }
}
