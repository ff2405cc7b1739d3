package org.privet.bench.shared;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Filter;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.random.RandomSource;

/**
 * Accuracy harness (not a speed benchmark) for shared measurements (issue 17, item 4): RMSE of
 * COUNT(*), SUM(age) and AVG(age) per education group of UCI Adult (each row a unit, public
 * groups, pure ε, WHERE age IS NOT NULL), released by one query that shares the count and the sum,
 * against the plan without sharing. The baseline runs the plan the engine used before sharing:
 * COUNT at ε/4, SUM at ε/4 and AVG at ε/2 (its centred sum and its count at ε/4 each) — the same
 * mechanisms, by basic composition the same total ε.
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.shared.SharedMeasurementAccuracy [runs]} from the repository root.
 */
public final class SharedMeasurementAccuracy {
  private static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");
  private static final double LOWER = 0;
  private static final double UPPER = 100;

  private SharedMeasurementAccuracy() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
    Path adult = Path.of("data/adult-raw/adult.data");
    Source src = Source.csv(adult).withoutHeader(COLUMNS).withDelimiter(", ")
        .withNullString("?");
    Filter notNull = new Filter.Not(new Filter.IsNull("age"));
    System.out.println("epsilon,output,rmse_shared,rmse_unshared,ratio");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).build();
      Map<String, double[]> exact = exact();
      List<Object> keys = new ArrayList<>(exact.keySet());
      for (double eps : new double[] {1.0, 0.1}) {
        double[] shared = new double[3];
        double[] unshared = new double[3];
        for (int i = 0; i < runs; i++) {
          Result one = s.run(base(src, notNull, keys).count("n").sum("s", "age", LOWER, UPPER)
              .mean("a", "age", LOWER, UPPER).epsilon(eps).build());
          Result n = s.run(base(src, notNull, keys).count("n").epsilon(eps / 4).build());
          Result sum = s.run(base(src, notNull, keys).sum("s", "age", LOWER, UPPER)
              .epsilon(eps / 4).build());
          Result avg = s.run(base(src, notNull, keys).mean("a", "age", LOWER, UPPER)
              .epsilon(eps / 2).build());
          add(shared, one, one, one, exact);
          add(unshared, n, sum, avg, exact);
        }
        String[] names = {"COUNT(*)", "SUM(age)", "AVG(age)"};
        int cells = runs * exact.size();
        for (int k = 0; k < 3; k++) {
          double a = Math.sqrt(shared[k] / cells);
          double b = Math.sqrt(unshared[k] / cells);
          System.out.printf("%s,%s,%.4g,%.4g,%.3f%n", eps, names[k], a, b, a / b);
        }
      }
    }
  }

  private static Query.Builder base(Source src, Filter notNull, List<Object> keys) {
    return Query.from(src).eachRowIsAUnit().where(notNull).groupBy("education")
        .publicGroups(keys.toArray());
  }

  private static void add(double[] sq, Result n, Result s, Result a, Map<String, double[]> exact) {
    Map<Object, ResultRow> byKeyN = byKey(n);
    Map<Object, ResultRow> byKeyS = byKey(s);
    Map<Object, ResultRow> byKeyA = byKey(a);
    for (Map.Entry<String, double[]> e : exact.entrySet()) {
      double[] x = e.getValue();
      sq[0] += Math.pow(byKeyN.get(e.getKey()).get("n").value() - x[0], 2);
      sq[1] += Math.pow(byKeyS.get(e.getKey()).get("s").value() - x[1], 2);
      sq[2] += Math.pow(byKeyA.get(e.getKey()).get("a").value() - x[1] / x[0], 2);
    }
  }

  private static Map<Object, ResultRow> byKey(Result r) {
    Map<Object, ResultRow> m = new HashMap<>();
    for (ResultRow row : r.rows()) {
      m.put(row.key().get(0), row);
    }
    return m;
  }

  /** Exact count and sum of age per education, read from the file (ages are within the bounds). */
  private static Map<String, double[]> exact() throws java.io.IOException {
    Map<String, double[]> m = new java.util.TreeMap<>();
    for (String line : java.nio.file.Files.readAllLines(
        Path.of("data/adult-raw/adult.data"))) {
      String[] f = line.split(", ");
      if (f.length < COLUMNS.size() || f[0].equals("?")) {
        continue;
      }
      double[] x = m.computeIfAbsent(f[3], k -> new double[2]);
      x[0]++;
      x[1] += Math.max(LOWER, Math.min(UPPER, Double.parseDouble(f[0])));
    }
    return m;
  }
}
