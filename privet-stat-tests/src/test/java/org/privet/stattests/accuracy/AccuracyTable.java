package org.privet.stattests.accuracy;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.stattests.accuracy.AccuracyHarness.Kind;
import org.privet.stattests.accuracy.AccuracyHarness.Measured;
import org.privet.stattests.accuracy.AccuracyHarness.Out;
import org.privet.stattests.accuracy.AccuracyHarness.Setting;
import org.privet.stattests.accuracy.AccuracyHarness.Shape;

/**
 * The figures behind docs/benchmarks.md's "Accuracy vs the textbook plan" table (issue 22): every
 * aggregation's RMSE over the textbook plan's ({@link AccuracyHarness}) at ε = 0.1 and 1 (ρ =
 * ε²/2 for the Gaussian settings), alone and in the COUNT + SUM + AVG mix. A measurement,
 * not a test: it runs only with {@code -Dprivet.accuracyTable=RUNS} and prints Markdown rows:
 *
 * <pre>mvn -B -ntp -o -q -pl privet-stat-tests -am test -Dtest=AccuracyTable \
 *     -Dprivet.accuracyTable=200 -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class AccuracyTable {
  @Test
  void table() {
    int runs = Integer.getInteger("privet.accuracyTable", 0);
    assumeTrue(runs > 0, "a measurement: run with -Dprivet.accuracyTable=RUNS");
    try (DuckDbBackend db = DuckDbBackend.inMemory()) {
      AccuracyHarness h = new AccuracyHarness(db);
      List<Out> singles = List.of(Out.count(), Out.countCol(), Out.distinct(),
          Out.of(Kind.SUM, "x", 0, 100), Out.of(Kind.AVG, "x", 0, 100),
          Out.of(Kind.VAR, "x", 0, 100), Out.of(Kind.STD, "x", 0, 100),
          Out.of(Kind.PCT, "x", 0, 100), Out.of(Kind.HIST, "x", 0, 100));
      System.out.println("| query | setting | output | RMSE ÷ textbook, ε = 0.1 | ε = 1 |");
      System.out.println("|---|---|---|---|---|");
      long seed = 500;
      for (Setting s : List.of(AccuracyHarness.ROW_PUBLIC_EPS, AccuracyHarness.USER_PUBLIC_RHO)) {
        for (Out o : singles) {
          row(h, new Shape(List.of(o), s, o.kind() == Kind.COUNT_COL, false), runs, seed++);
        }
        row(h, new Shape(List.of(Out.count(), Out.of(Kind.SUM, "x", 0, 100),
            Out.of(Kind.AVG, "x", 0, 100)), s, false, false), runs, seed++);
        row(h, new Shape(List.of(Out.count(), Out.of(Kind.SUM, "z", -50, 50),
            Out.of(Kind.AVG, "z", -50, 50)), s, false, true), runs, seed++);
      }
    }
  }

  private static void row(AccuracyHarness h, Shape shape, int runs, long seed) {
    double[] eps = {0.1, 1};
    double[][] ratio = new double[2][];
    for (int i = 0; i < 2; i++) {
      double b = shape.setting().rho() ? eps[i] * eps[i] / 2 : eps[i];
      ratio[i] = h.measure(shape, b, Map.of(), runs, seed * 2 + i, 1.0).stream()
          .mapToDouble(Measured::ratio).toArray();
    }
    String query = shape.label().substring(0, shape.label().indexOf(" — "));
    for (int k = 0; k < shape.outs().size(); k++) {
      System.out.println(String.format(Locale.ROOT, "| %s | %s | %s | %.3f | %.3f |", query,
          shape.setting().label() + (shape.setting().rho() ? " (ρ = ε²/2)" : ""),
          shape.outs().get(k).name(), ratio[0][k], ratio[1][k]));
    }
  }
}
