package org.privet.anonymity.attacks;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.BudgetExceededException;
import org.privet.accounting.PrivacyFilter;
import org.privet.accounting.PureDp;
import org.privet.engine.Filter;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.Session;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.engine.spi.ColumnType;
import org.privet.ledger.CsvOptions;
import org.privet.ledger.DatasetSpec;
import org.privet.ledger.Ledger;
import org.privet.curator.LedgerBudgetCharger;
import org.privet.ledger.PrivacyUnit;
import org.privet.random.RandomSource;

/**
 * Attack 3, differencing: the lecture's average-salary example (Dwork &amp; Roth, "The Algorithmic
 * Foundations of Differential Privacy", 2014, Section 1: "differencing attacks").
 *
 * <p>The attacker asks two averages over sets that differ by one person, the target: the average
 * of everyone, and the average of everyone except the target (whose row number the attacker knows,
 * e.g. from a public staff list). Knowing the head count n, the target's value is
 * x = n·avg(all) − (n − 1)·avg(all but target). Exact answers give it exactly. Through the DP
 * curator ({@link Session} over DuckDB, each query charged to a budget of ε in total before any row
 * is read), each average is a noisy mean of values clamped to a public range, and the attacker's
 * estimate misses by about the noise scale. Each trial picks a new target and a fresh budget.
 * Finally the real ledger refuses a third query once the two have spent the dataset's budget.
 */
public final class DifferencingAttack {
  private DifferencingAttack() {}

  /**
   * The outcome: per-trial attacker errors with exact and with DP answers; {@code noiseScale} is the
   * attacker's error standard deviation predicted from the curator's plan.
   */
  public record Outcome(String column, double lower, double upper, double epsilon, double[] exactErrors,
      double[] dpErrors, double noiseScale, String refusal) {

    /** The root-mean-square error with DP answers. */
    public double dpRmsError() {
      return Math.sqrt(Arrays.stream(dpErrors).map(e -> e * e).average().orElse(0));
    }

    public double exactMeanAbsError() {
      return Arrays.stream(exactErrors).map(Math::abs).average().orElse(0);
    }

    public double dpMeanAbsError() {
      return Arrays.stream(dpErrors).map(Math::abs).average().orElse(0);
    }

    /** Fraction of trials in which the attacker's estimate is within {@code tolerance} of the value. */
    public double dpWithin(double tolerance) {
      return Arrays.stream(dpErrors).filter(e -> Math.abs(e) <= tolerance).count() / (double) dpErrors.length;
    }

    public double exactWithin(double tolerance) {
      return Arrays.stream(exactErrors).filter(e -> Math.abs(e) <= tolerance).count()
          / (double) exactErrors.length;
    }
  }

  /**
   * Runs {@code trials} differencing attacks on {@code values} (one per person).
   *
   * @param lower the public clamping range's lower end (DP mean)
   * @param epsilon the total budget per trial, split evenly over the two averages
   * @param workspace a folder for the ledger of the refusal demonstration
   */
  public static Outcome run(String column, double[] values, double lower, double upper, double epsilon,
      int trials, RandomSource random, Path workspace, Consumer<String> progress) {
    return run(column, values, -1, lower, upper, epsilon, trials, random, workspace, progress);
  }

  /** As {@link #run(String, double[], double, double, double, int, RandomSource, Path, Consumer)}, with
   * a fixed target row ({@code target} ≥ 0) instead of a random one per trial. */
  public static Outcome run(String column, double[] values, int fixedTarget, double lower, double upper,
      double epsilon, int trials, RandomSource random, Path workspace, Consumer<String> progress) {
    int n = values.length;
    if (n < 2 || trials < 1) {
      throw new IllegalArgumentException("differencing needs two or more people and one or more trials");
    }
    List<List<?>> rows = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      rows.add(List.of((long) i, values[i]));
    }
    double[] exact = new double[trials];
    double[] dp = new double[trials];
    try (DuckDbBackend backend = DuckDbBackend.inMemory()) {
      backend.registerTable("salaries", List.of("id", "value"), List.of(ColumnType.INTEGER, ColumnType.FLOATING), rows);
      for (int t = 0; t < trials; t++) {
        if (progress != null && t % 200 == 0) {
          progress.accept("differencing: trial " + t + " of " + trials);
        }
        int target = fixedTarget >= 0 ? fixedTarget : (int) random.nextLong(n);
        // The exact curator: two SQL averages.
        double all = exactAverage(backend, -1);
        double rest = exactAverage(backend, target);
        exact[t] = (n * all - (n - 1) * rest) - values[target];
        // The DP curator: the same two averages, each charged ε/2 to this trial's budget.
        PrivacyFilter budget = new PrivacyFilter(BasicAccountant.INSTANCE, new ApproxDp(epsilon, 0));
        Session session = Session.builder().backend(backend).randomSource(random)
            .budgetCharger(c -> budget.admit(c.total())).build();
        double dpAll = session.run(meanQuery(null, lower, upper, epsilon / 2)).rows().get(0).get("avg").value();
        double dpRest = session.run(meanQuery(target, lower, upper, epsilon / 2)).rows().get(0).get("avg").value();
        dp[t] = (n * dpAll - (n - 1) * dpRest) - values[target];
      }
      String refusal = ledgerRefusal(backend, workspace, lower, upper, epsilon, random);
      // The curator's own plan states each mechanism's noise; n·avg carries the sum's noise, so the
      // difference of the two estimates has about √2 times its standard deviation.
      double sumStddev = Session.builder().backend(backend).budgetCharger(c -> { }).build()
          .explain(meanQuery(null, lower, upper, epsilon / 2)).mechanisms().stream()
          .mapToDouble(m -> m.noiseStddev()).max().orElse(Double.NaN);
      return new Outcome(column, lower, upper, epsilon, exact, dp, Math.sqrt(2) * sumStddev, refusal);
    }
  }

  private static Query meanQuery(Integer excluded, double lower, double upper, double epsilon) {
    Query.Builder q = Query.from("salaries").eachRowIsAUnit();
    if (excluded != null) {
      q.where(Filter.ne("id", (long) excluded));
    }
    return q.mean("avg", "value", lower, upper).budget(org.privet.accounting.Budget.pure(epsilon)).build();
  }

  private static double exactAverage(DuckDbBackend backend, int excluded) {
    String sql = "SELECT AVG(value) FROM salaries" + (excluded >= 0 ? " WHERE id <> " + excluded : "");
    try (Statement st = backend.trustedConnection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getDouble(1);
    } catch (SQLException e) {
      throw new IllegalStateException("exact average failed (SQL state " + e.getSQLState() + ")", e);
    }
  }

  /** Two queries spend the registered budget ε in the real ledger; the third is refused. */
  private static String ledgerRefusal(DuckDbBackend backend, Path workspace, double lower, double upper,
      double epsilon, RandomSource random) {
    try (Ledger ledger = Ledger.open(workspace)) {
      ledger.register(DatasetSpec.builder().name("salaries").source(workspace.resolve("salaries.csv").toString())
          .csv(CsvOptions.DEFAULT).privacyUnit(PrivacyUnit.row()).budget(new PureDp(epsilon)).build());
      for (int i = 0; i < 3; i++) {
        Query q = meanQuery(i == 0 ? null : i - 1, lower, upper, epsilon / 2);
        Session s = Session.builder().backend(backend).randomSource(random)
            .budgetCharger(new LedgerBudgetCharger(ledger, "salaries", "attacker", q.toString())).build();
        try {
          s.run(q);
        } catch (BudgetExceededException e) {
          return "query " + (i + 1) + " refused by the ledger after " + ledger.status("salaries").charges()
              + " charges: " + e.getMessage();
        }
      }
      return "not refused (unexpected)";
    }
  }

  public static String summary(Outcome o) {
    return String.format(Locale.ROOT,
        "Differencing on %s (%d trials): exact answers give the target's value with mean |error| %.2g;%n"
            + "through the DP curator at epsilon = %s per attack (two noisy means of values clamped to [%s, %s]),%n"
            + "mean |error| %.1f, RMS error %.1f (the curator's plan predicts about %.1f: sqrt(2) x the noise%n"
            + "standard deviation of each released sum); within +-1 of the value: exact %s, DP %s.%n"
            + "Ledger: %s%n",
        o.column(), o.exactErrors().length, o.exactMeanAbsError(), HtmlReport.number(o.epsilon()), HtmlReport.number(o.lower()), HtmlReport.number(o.upper()),
        o.dpMeanAbsError(), o.dpRmsError(), o.noiseScale(), HtmlReport.percent(o.exactWithin(1)), HtmlReport.percent(o.dpWithin(1)),
        o.refusal());
  }

  public static void report(HtmlReport html, Outcome o, String setup) {
    html.heading("Attack 3: differencing two averages");
    html.paragraph(setup);
    html.pre(summary(o));
    double span = Math.max(1, 3 * o.noiseScale());
    html.histogram("Attacker's error (estimate minus the target's true value), " + o.exactErrors().length
            + " trials", "error in " + o.column(), List.of("exact answers", "DP answers, epsilon = " + HtmlReport.number(o.epsilon())),
        List.of(o.exactErrors(), o.dpErrors()), List.of("#c0392b", "#2471a3"), -span, span, 40);
  }
}
