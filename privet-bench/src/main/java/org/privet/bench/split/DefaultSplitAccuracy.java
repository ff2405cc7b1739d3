package org.privet.bench.split;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Filter;
import org.privet.engine.Plan;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.Source;
import org.privet.engine.SplitReport;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.random.RandomSource;

/**
 * Accuracy harness (not a speed benchmark) for issue 17's default budget split, kept for the record
 * (issue 22 replaced that split by the textbook equal split per output; its accuracy is measured by
 * privet-stat-tests' {@code AccuracySuiteTest} and {@code AccuracyTable}). On UCI
 * Adult (each row a unit, public groups by education, pure ε), the default split that minimises the
 * summed squared relative error against the equal split it replaces (one weight per noisy release,
 * set here as explicit weights), for two queries:
 * <ul>
 *   <li>A: COUNT(*), SUM(age) and AVG(age) over [0, 100] (WHERE age IS NOT NULL: the AVG shares
 *       the count and the sum);
 *   <li>B: COUNT(*), SUM(capital_gain) over [0, 100000] and AVG(hours_per_week) over [0, 100].
 * </ul>
 * Reports EXPLAIN's relative noise s.d. × N per output and objective J·N² (exact noise s.d.;
 * {@code SplitReport}) for both splits, and the same measured: the RMS over groups and runs of
 * error·N<sub>g</sub>/m (N<sub>g</sub> the group's exact count, m the output's public magnitude:
 * 1 for COUNT, (lower + upper)/2 for SUM and AVG), which for these noise-only errors estimates the
 * same number (every group weighs the same, unlike a relative error dominated by the smallest
 * group).
 *
 * <p>Usage: {@code java -cp privet-bench/target/benchmarks.jar
 * org.privet.bench.split.DefaultSplitAccuracy [runs]} from the repository root.
 */
public final class DefaultSplitAccuracy {
  private static final List<String> COLUMNS = List.of("age", "workclass", "fnlwgt", "education",
      "education_num", "marital_status", "occupation", "relationship", "race", "sex",
      "capital_gain", "capital_loss", "hours_per_week", "native_country", "income");
  private static final Path ADULT = Path.of("data/adult-raw/adult.data");

  private DefaultSplitAccuracy() {}

  /** One query shape: outputs, bounds, and the equal split's explicit weights. */
  private record Shape(String name, String sumColumn, double sumUpper, String avgColumn,
      double avgUpper) {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    Source src = Source.csv(ADULT).withoutHeader(COLUMNS).withDelimiter(", ")
        .withNullString("?");
    List<Shape> shapes = List.of(new Shape("A", "age", 100, "age", 100),
        new Shape("B", "capital_gain", 100000, "hours_per_week", 100));
    System.out.println("query,epsilon,output,share_default,share_equal,explain_relsd_xN_default,"
        + "explain_relsd_xN_equal,measured_default,measured_equal,measured_ratio");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      Session s = Session.builder().backend(db).budgetCharger(BudgetCharger.unlimited())
          .randomSource(RandomSource.secure()).build();
      for (Shape sh : shapes) {
        Map<String, double[]> exact = exact(sh);
        List<Object> keys = new ArrayList<>(exact.keySet());
        for (double eps : new double[] {1.0, 0.1}) {
          Query def = base(src, sh, keys).epsilon(eps).build();
          Query eq = base(src, sh, keys).budgetWeight("n", 1).budgetWeight("s", 1)
              .budgetWeight("a", 2).epsilon(eps).build();
          SplitReport rd = s.explain(def).split();
          SplitReport re = s.explain(eq).split();
          double[] sqd = new double[3];
          double[] sqe = new double[3];
          for (int i = 0; i < runs; i++) {
            add(sqd, s.run(def), exact, sh);
            add(sqe, s.run(eq), exact, sh);
          }
          String[] names = {"n", "s", "a"};
          String[] labels = {"COUNT(*)", "SUM(" + sh.sumColumn() + ")",
              "AVG(" + sh.avgColumn() + ")"};
          int cells = runs * exact.size();
          for (int k = 0; k < 3; k++) {
            SplitReport.OutputError od = output(rd, names[k]);
            SplitReport.OutputError oe = output(re, names[k]);
            double a = Math.sqrt(sqd[k] / cells);
            double b = Math.sqrt(sqe[k] / cells);
            System.out.printf("%s,%s,%s,%.4f,%.4f,%.4g,%.4g,%.4g,%.4g,%.3f%n", sh.name(), eps,
                labels[k], od.share(), oe.share(), od.relativeStddev(), oe.relativeStddev(), a,
                b, a / b);
          }
          double sd = sqd[0] + sqd[1] + sqd[2];
          double se = sqe[0] + sqe[1] + sqe[2];
          System.out.printf("%s,%s,J·N² (sum of squares),,,%.4g,%.4g,%.4g,%.4g,%.3f%n", sh.name(),
              eps, rd.objective(), re.objective(), sd / cells, se / cells, sd / se);
        }
      }
    }
  }

  private static SplitReport.OutputError output(SplitReport r, String name) {
    return r.outputs().stream().filter(o -> o.output().equals(name)).findFirst().orElseThrow();
  }

  private static Query.Builder base(Source src, Shape sh, List<Object> keys) {
    return Query.from(src).eachRowIsAUnit()
        .where(new Filter.Not(new Filter.IsNull(sh.avgColumn()))).groupBy("education")
        .publicGroups(keys.toArray()).count("n").sum("s", sh.sumColumn(), 0, sh.sumUpper())
        .mean("a", sh.avgColumn(), 0, sh.avgUpper());
  }

  /** Squared errors × N_g / m per output, summed over groups. */
  private static void add(double[] sq, Result r, Map<String, double[]> exact, Shape sh) {
    for (ResultRow row : r.rows()) {
      double[] x = exact.get((String) row.key().get(0));
      sq[0] += Math.pow(row.get("n").value() - x[0], 2);
      sq[1] += Math.pow((row.get("s").value() - x[1]) / (sh.sumUpper() / 2), 2);
      sq[2] += Math.pow((row.get("a").value() - x[2] / x[0]) * x[0] / (sh.avgUpper() / 2), 2);
    }
  }

  /** Exact count, clamped sum and clamped AVG column sum per education, read from the file. */
  private static Map<String, double[]> exact(Shape sh) throws java.io.IOException {
    int si = COLUMNS.indexOf(sh.sumColumn());
    int ai = COLUMNS.indexOf(sh.avgColumn());
    Map<String, double[]> m = new TreeMap<>();
    for (String line : Files.readAllLines(ADULT)) {
      String[] f = line.split(", ");
      if (f.length < COLUMNS.size() || f[ai].equals("?")) {
        continue;
      }
      double[] x = m.computeIfAbsent(f[3], k -> new double[3]);
      x[0]++;
      x[1] += Math.max(0, Math.min(sh.sumUpper(), Double.parseDouble(f[si])));
      x[2] += Math.max(0, Math.min(sh.avgUpper(), Double.parseDouble(f[ai])));
    }
    return m;
  }
}
