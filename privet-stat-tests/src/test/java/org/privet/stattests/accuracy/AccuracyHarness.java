package org.privet.stattests.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.BudgetCharger;
import org.privet.engine.Estimate;
import org.privet.engine.Filter;
import org.privet.engine.NoiseKind;
import org.privet.engine.Plan;
import org.privet.engine.Query;
import org.privet.engine.Result;
import org.privet.engine.ResultRow;
import org.privet.engine.Session;
import org.privet.engine.SplitReport;
import org.privet.engine.duckdb.DuckDbBackend;
import org.privet.testing.SeededRandomSource;

/**
 * Runs one query shape many times through the engine's public API ({@link Query.Builder},
 * {@link Session} with a seeded {@code RandomSource} from privet-testing, DuckDB in memory, its
 * exact aggregates replayed across runs by {@link ReplayingBackend}) and
 * measures, per output, its error against the exact answer ({@link SyntheticTables}), its
 * intervals, and EXPLAIN's expected error ({@link SplitReport.OutputError#expectedStddev}); and
 * the textbook plan's MSE for the same output at the same total budget ({@link Textbook}).
 */
final class AccuracyHarness {
  /** Aggregation kinds. */
  enum Kind { COUNT, COUNT_COL, SUM, AVG, VAR, STD, PCT, HIST, DISTINCT }

  /** Cells of a histogram output. */
  static final int CELLS = 4;

  /** One output of a query. */
  record Out(Kind kind, String name, String column, double lo, double hi) {
    static Out count() {
      return new Out(Kind.COUNT, "n", null, 0, 0);
    }

    static Out countCol() {
      return new Out(Kind.COUNT_COL, "ny", "y", 0, 0);
    }

    static Out distinct() {
      return new Out(Kind.DISTINCT, "units", null, 0, 0);
    }

    static Out of(Kind k, String column, double lo, double hi) {
      return new Out(k, k.name().toLowerCase() + "_" + column, column, lo, hi);
    }

    /** The result columns of this output. */
    List<String> columns() {
      if (kind == Kind.HIST) {
        List<String> c = new ArrayList<>();
        for (int i = 0; i < CELLS; i++) {
          c.add(name + "[" + i + "]");
        }
        return c;
      }
      return List.of(name);
    }
  }

  /** Unit, groups and budget family (noise: Laplace/geometric for ε, Gaussian for ρ). */
  record Setting(String label, boolean users, boolean privateGroups, boolean rho) {}

  static final Setting ROW_PUBLIC_EPS = new Setting("rows/public/ε/Laplace", false, false, false);
  static final Setting USER_PRIVATE_RHO = new Setting("users/private/ρ/Gaussian", true, true, true);
  static final Setting USER_PUBLIC_RHO = new Setting("users/public/ρ/Gaussian", true, false, true);
  static final Setting ROW_PRIVATE_EPS = new Setting("rows/private/ε,δ/Laplace", false, true,
      false);

  /** A query shape: outputs (on y NOT NULL rows when {@code notNullY}) in a setting. */
  record Shape(List<Out> outs, Setting setting, boolean notNullY, boolean shares) {
    String label() {
      StringBuilder s = new StringBuilder();
      for (Out o : outs) {
        s.append(s.length() > 0 ? " + " : "").append(o.kind() == Kind.COUNT_COL ? "COUNT(y)"
            : o.kind() == Kind.COUNT ? "COUNT(*)" : o.kind() == Kind.DISTINCT
            ? "COUNT(DISTINCT unit)" : o.kind() + "(" + o.column() + " in [" + fmt(o.lo()) + ", "
            + fmt(o.hi()) + "])");
      }
      return s + (notNullY ? " WHERE y IS NOT NULL" : "") + " — " + setting.label();
    }
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  /** The measurements of one output (pooled over groups, and cells for a histogram). */
  record Measured(Out out, double ratio, long hits, long trials, double widthRatio,
      double explainRatio, double engineRmse, double textbookRmse) {}

  static final int L0_USERS = 2;
  static final int LINF_USERS = 3;
  static final double DELTA = 1e-6;

  private final ReplayingBackend backend;
  private final Map<Boolean, List<SyntheticTables.Row>> data = new HashMap<>();

  AccuracyHarness(DuckDbBackend db) {
    this.backend = new ReplayingBackend(db);
    for (boolean users : new boolean[] {false, true}) {
      List<SyntheticTables.Row> rows = SyntheticTables.rows(users, users ? 22 : 21);
      SyntheticTables.register(db, users ? "users" : "rows", rows);
      data.put(users, rows);
    }
  }

  /** The engine query for {@code shape} at total {@code budget} with optional budget weights. */
  static Query query(Shape shape, double budget, Map<String, Double> weights) {
    Setting s = shape.setting();
    Query.Builder b = Query.from(s.users() ? "users" : "rows").privacyUnit("uid")
        .maxGroupsContributed(s.users() ? L0_USERS : 1)
        .maxRowsPerGroup(s.users() ? LINF_USERS : 1).groupBy("g");
    if (!s.privateGroups()) {
      b.publicGroups(SyntheticTables.KEYS.toArray());
    }
    if (shape.notNullY()) {
      b.where(new Filter.Not(new Filter.IsNull("y")));
    }
    for (Out o : shape.outs()) {
      switch (o.kind()) {
        case COUNT, COUNT_COL -> b.count(o.name());
        case DISTINCT -> b.countDistinctUnits(o.name());
        case SUM -> b.sum(o.name(), o.column(), o.lo(), o.hi());
        case AVG -> b.mean(o.name(), o.column(), o.lo(), o.hi());
        case VAR -> b.variance(o.name(), o.column(), o.lo(), o.hi());
        case STD -> b.stddev(o.name(), o.column(), o.lo(), o.hi());
        case PCT -> b.quantiles(o.name(), o.column(), o.lo(), o.hi(), 0.5);
        case HIST -> b.histogram(o.name(), o.column(), o.lo(), o.hi(), CELLS);
      }
    }
    weights.forEach(b::budgetWeight);
    if (s.rho()) {
      (s.privateGroups() ? b.rhoDelta(budget, DELTA) : b.rho(budget)).noise(NoiseKind.GAUSSIAN);
    } else {
      (s.privateGroups() ? b.epsilonDelta(budget, DELTA) : b.epsilon(budget))
          .noise(NoiseKind.LAPLACE);
    }
    return b.build();
  }

  /**
   * Runs {@code shape} {@code runs} times at {@code budget} (with {@code weights}, the default
   * split when empty) and measures every output against the textbook plan.
   *
   * @param shrink the reported intervals are shrunk about their centre by this factor before the
   *     coverage count (1: as reported; below 1 for the power check)
   */
  List<Measured> measure(Shape shape, double budget, Map<String, Double> weights, int runs,
      long seed, double shrink) {
    Setting s = shape.setting();
    List<SyntheticTables.Row> rows = data.get(s.users());
    Query q = query(shape, budget, weights);
    Session session = Session.builder().backend(backend).budgetCharger(BudgetCharger.unlimited())
        .randomSource(new SeededRandomSource(seed)).build();
    Plan plan = session.explain(q);
    Map<String, SplitReport.OutputError> explain = new HashMap<>();
    if (plan.split() != null) {
      plan.split().outputs().forEach(o -> explain.put(o.output(), o));
    }
    int l0 = s.users() ? L0_USERS : 1;
    int lInf = s.users() ? LINF_USERS : 1;
    Textbook.Plan tb = new Textbook.Plan(s.rho(), budget, shape.outs().size(), s.privateGroups(),
        l0, lInf);

    // Exact answers, textbook MSE and EXPLAIN's expected s.d. per (column, group).
    Map<String, double[]> truth = new LinkedHashMap<>();
    Map<String, double[]> refMse = new LinkedHashMap<>();
    Map<String, double[]> expected = new LinkedHashMap<>();
    for (Out o : shape.outs()) {
      List<String> cols = o.columns();
      for (String c : cols) {
        truth.put(c, new double[SyntheticTables.GROUPS]);
        refMse.put(c, new double[SyntheticTables.GROUPS]);
        expected.put(c, new double[SyntheticTables.GROUPS]);
      }
      for (int g = 0; g < SyntheticTables.GROUPS; g++) {
        SyntheticTables.GroupTruth t = SyntheticTables.truth(rows, g,
            o.column() == null ? "x" : o.column(), o.lo(), o.hi(), shape.notNullY());
        long sim = seed * 31 + g;
        for (int ci = 0; ci < cols.size(); ci++) {
          String c = cols.get(ci);
          double[] exact = switch (o.kind()) {
            case COUNT, COUNT_COL -> new double[] {t.rows(), Textbook.countMse(tb)};
            case DISTINCT -> new double[] {t.units(), Textbook.distinctMse(tb)};
            case SUM -> new double[] {t.sum(), Textbook.sumMse(tb, o.lo(), o.hi())};
            case AVG -> new double[] {t.mean(),
                Textbook.meanMse(tb, t, o.lo(), o.hi(), 20_000, sim)};
            case VAR -> new double[] {t.variance(),
                Textbook.varianceMse(tb, t, o.lo(), o.hi(), false, 20_000, sim)};
            case STD -> new double[] {Math.sqrt(t.variance()),
                Textbook.varianceMse(tb, t, o.lo(), o.hi(), true, 20_000, sim)};
            case PCT -> new double[] {t.percentile(0.5),
                Textbook.quantileMse(tb, t, o.lo(), o.hi(), 0.5, 4_000, sim)};
            case HIST -> new double[] {t.cell(ci, CELLS, o.lo(), o.hi()), Textbook.countMse(tb)};
          };
          truth.get(c)[g] = exact[0];
          refMse.get(c)[g] = exact[1];
          SplitReport.OutputError e = explain.get(o.name());
          expected.get(c)[g] = e == null ? Double.NaN : o.kind() == Kind.PCT
              ? e.expectedQuantileStddev(0, t.density(0.5))
              : e.expectedStddev(t.sortedValues().length, t.mean(), t.variance());
        }
      }
    }

    // The engine's released values.
    Map<String, double[][]> errors = new HashMap<>();
    Map<String, double[][]> halfWidths = new HashMap<>();
    Map<String, long[]> hits = new HashMap<>();
    Map<String, long[]> trials = new HashMap<>();
    for (String c : truth.keySet()) {
      errors.put(c, new double[SyntheticTables.GROUPS][runs]);
      halfWidths.put(c, new double[SyntheticTables.GROUPS][runs]);
      hits.put(c, new long[1]);
      trials.put(c, new long[1]);
    }
    for (int r = 0; r < runs; r++) {
      Result result = session.run(q);
      boolean[] seen = new boolean[SyntheticTables.GROUPS];
      for (ResultRow row : result.rows()) {
        int g = SyntheticTables.KEYS.indexOf((String) row.key().get(0));
        seen[g] = true;
        for (String c : truth.keySet()) {
          Estimate e = row.get(c);
          double x = truth.get(c)[g];
          errors.get(c)[g][r] = e.value() - x;
          if (e.hasInterval()) {
            double mid = (e.lower() + e.upper()) / 2;
            double half = (e.upper() - e.lower()) / 2;
            halfWidths.get(c)[g][r] = half;
            double tol = 1e-9 * Math.max(1, Math.abs(x));
            hits.get(c)[0] += Math.abs(x - mid) <= half * shrink + tol ? 1 : 0;
            trials.get(c)[0]++;
          }
        }
      }
      for (int g = 0; g < SyntheticTables.GROUPS; g++) {
        if (!seen[g]) {
          throw new AssertionError(shape.label() + ": group " + SyntheticTables.KEYS.get(g)
              + " (≥ 2,000 rows) not released");
        }
      }
    }

    List<Measured> out = new ArrayList<>();
    for (Out o : shape.outs()) {
      double se = 0;
      double ref = 0;
      double exp = 0;
      List<Double> scaled = new ArrayList<>(); // |error| / reported half-width
      long h = 0;
      long n = 0;
      for (String c : o.columns()) {
        for (int g = 0; g < SyntheticTables.GROUPS; g++) {
          double[] e = errors.get(c)[g];
          se += Arrays.stream(e).map(v -> v * v).sum();
          ref += refMse.get(c)[g] * runs;
          exp += Math.pow(expected.get(c)[g], 2) * runs;
          for (int r = 0; r < runs; r++) {
            double half = halfWidths.get(c)[g][r];
            if (half > 0) {
              scaled.add(Math.abs(e[r]) / half);
            }
          }
        }
        h += hits.get(c)[0];
        n += trials.get(c)[0];
      }
      // The half-width over the empirical 95% error: 1 / (95% quantile of |error|/half-width).
      double width = Double.NaN;
      if (!scaled.isEmpty()) {
        double[] sorted = scaled.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        width = 1 / sorted[(int) Math.ceil(0.95 * sorted.length) - 1];
      }
      int cells = o.columns().size() * SyntheticTables.GROUPS * runs;
      out.add(new Measured(o, Math.sqrt(se / ref), h, n, width,
          Math.sqrt(se / exp), Math.sqrt(se / cells), Math.sqrt(ref / cells)));
    }
    return out;
  }
}
