package org.privet.engine.budget;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.accounting.Budget;
import org.privet.engine.AccuracyTargets;
import org.privet.engine.Aggregation;
import org.privet.engine.BudgetSolution;
import org.privet.engine.NoiseKind;
import org.privet.engine.Query;
import org.privet.engine.Session;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;
import org.privet.engine.release.Releases;
import org.privet.engine.spi.TableSchema;
import org.privet.random.RandomSource;

/**
 * Solves for the budget from target errors (issue 16, item 1): the smallest ε (ρ with GAUSSIAN
 * noise) and the split across outputs and partition selection under which every output's error
 * statement meets its target. Reads only public information: the query, the registered schema and
 * the user's public assertions (confidence, {@code minCount}, δ); never the data. Argument:
 * docs/proofs/accuracy-targets.md.
 *
 * <p>Accuracy statements (each at confidence 1 − β, in output units), computed with the very
 * mechanisms {@link Session#run} instantiates, so the integer noise and the fixed-point grid are
 * included, not a continuous approximation:
 * <ul>
 *   <li>COUNT, COUNT(DISTINCT unit), SUM, each HISTOGRAM bin: the released interval's half-width
 *       ({@link Releases.Noise#halfWidth}), times the grid unit;
 *   <li>MEAN: with the sum's and the count's half-widths h<sub>S</sub>, h<sub>N</sub> at β/2
 *       each (the union bound {@link Releaser} also uses), the centred value range R and the public
 *       bound N₀ = minCount on the denominator, |S̃/Ñ − S/N| ≤ (h<sub>S</sub> + R·h<sub>N</sub>)/(N₀
 *       − h<sub>N</sub>) (and never more than the clamping range). Without minCount: refused;
 *   <li>tree QUANTILES: the target is a rank error, in rows: the widest per-rank (1 − β)
 *       statement on D̂<sub>j</sub> = Ĉ<sub>j</sub> − r·Ĉ<sub>B</sub>, the consistent prefix
 *       count minus r times the consistent total, over the ranks and evenly spaced edges j (the
 *       figure EXPLAIN reports; docs/proofs/engine-quantiles.md, "Per-rank intervals"). The
 *       released quantile's value error also depends on the rows in the cells around the true
 *       quantile, which depend on the data and are not part of the target.
 * </ul>
 * Variances, standard deviations and exponential-mechanism quantiles are refused with a message.
 *
 * <p>Method. Each output's error falls as its share of the budget grows (error ∝ 1/ε for the
 * geometric mechanism, 1/√ρ for the discrete Gaussian, up to the grid). The continuous optimum of
 * "minimise the total subject to every target" gives output a the share w<sub>a</sub> ∝
 * (e<sub>a</sub>/t<sub>a</sub>)<sup>p</sup> of its error e<sub>a</sub> at a reference budget (p = 1
 * for ε, 2 for ρ: every target then binds). Starting from equal weights, the weights (per release, see below) are set that
 * way and the total is found by bisection on the exact statements (the smallest total, to 0.1%,
 * at which all targets hold); this is repeated a few times because means are not exact power laws, and the
 * smallest total any round found is kept.
 * Private partition selection gets the weight of the largest output share.
 *
 * <p>Shared measurements (issue 16): the weights are per noisy release, not per output. A release
 * several outputs read (COUNT(*) and an AVG's count in the same groups, SUM and AVG's sum of one
 * column) is one measurement, costed once: each round multiplies its weight by the largest
 * (error/target)<sup>p</sup> among the outputs reading it (the tightest requirement), so an output
 * whose target the shared release already meets costs nothing extra. The solved query carries
 * them as {@link Query#withSolverWeights} (keyed by {@link #key}, one key per output reading the
 * release, so they survive the choice of selection strategy).
 */
public final class BudgetSolver {
  private BudgetSolver() {}

  /** Relative precision of the bisection on the total. */
  static final double PRECISION = 1e-3;
  /** Largest ε the solver will propose (ρ: {@link #MAX_RHO}); beyond it a target is "impossible". */
  static final double MAX_EPSILON = 64;
  /** Largest ρ the solver will propose (ρ = ε²/2 at {@link #MAX_EPSILON}). */
  static final double MAX_RHO = 2048;
  private static final int REWEIGHTS = 6;

  public static BudgetSolution solve(Query q, TableSchema schema, RandomSource random) {
    AccuracyTargets t = q.targets().orElseThrow(
        () -> new IllegalArgumentException("targetError: the query has no target errors"));
    NoiseKind noise = AccuracyTargets.solvesForRho(q.noise()) ? NoiseKind.GAUSSIAN
        : NoiseKind.LAPLACE;
    checkSupported(q, t);
    double p = noise == NoiseKind.GAUSSIAN ? 2 : 1;
    Map<String, Double> weights = new LinkedHashMap<>(); // by key(output, field); absent: 1
    double x = Double.NaN;
    Query solved = null;
    for (int round = 0; round < REWEIGHTS; round++) {
      Query ref = candidate(q, t, noise, weights, 1.0);
      Map<String, Double> e = errors(ref, schema, random, t);
      CompiledQuery c = Compiler.compile(ref, schema, 0L);
      // Per release: the largest ratio error/target among the outputs reading it (tightest).
      int n = c.releases().size();
      double[] ratio = new double[n];
      List<List<String>> users = new java.util.ArrayList<>();
      for (int i = 0; i < n; i++) {
        users.add(new java.util.ArrayList<>());
      }
      Map<String, Double> next = new LinkedHashMap<>(weights);
      for (Compiler.PlannedOutput o : c.outputs()) {
        String name = o.planner().aggregation().name();
        double r = e.get(name) / t.halfWidths().get(name);
        r = Double.isFinite(r) ? r : 1e6;
        for (int i : o.releases()) {
          ratio[i] = Math.max(ratio[i], r);
          users.get(i).add(name);
        }
        if (o.releases().isEmpty()) {
          // A count served by selection's noisy count: its weight feeds selection's (the max).
          String k = key(name, null);
          next.put(k, clampWeight(weights.getOrDefault(k, 1.0) * Math.pow(r, p)));
        }
      }
      for (int i = 0; i < n; i++) {
        Release.Field f = c.releases().get(i).target().field();
        double w = 0;
        for (String u : users.get(i)) {
          w = Math.max(w, weights.getOrDefault(key(u, f), 1.0));
        }
        double nw = clampWeight(w * Math.pow(ratio[i], p));
        for (String u : users.get(i)) {
          next.put(key(u, f), nw);
        }
      }
      weights = normalise(next);
      double total = smallestTotal(q, t, noise, weights, schema, random);
      if (!(total >= x)) { // every round's total meets every target: keep the smallest
        x = total;
        solved = candidate(q, t, noise, weights, x);
      }
    }
    Map<String, Double> errors = errors(solved, schema, random, t);
    CompiledQuery c = Compiler.compile(solved, schema, 0L);
    return new BudgetSolution(solved, x, c.total(), t, errors);
  }

  /** Each output's error under {@code solution}'s split with the total parameter {@code x}. */
  public static Map<String, Double> errorsAt(BudgetSolution solution, double x, TableSchema schema,
      RandomSource random) {
    return errors(queryAt(solution, x), schema, random, solution.targets());
  }

  /** The solved query with its split and the total parameter {@code x}. */
  public static Query queryAt(BudgetSolution solution, double x) {
    Query q = solution.query();
    return q.withSolverWeights(AccuracyTargets.budget(q.noise(), x, solution.targets().delta()),
        q.noise(), q.releaseWeights(), q.selectionBudgetWeight().orElse(Double.NaN));
  }

  /** A targeted query's error statements under {@code budget} with the default split. */
  public static Map<String, Double> errorsWithDefaultSplit(Query targeted, Budget budget,
      NoiseKind noise, TableSchema schema, RandomSource random) {
    AccuracyTargets t = targeted.targets().orElseThrow(
        () -> new IllegalArgumentException("targetError: the query has no target errors"));
    checkSupported(targeted, t);
    return errors(targeted.withSolvedBudget(budget, noise, Map.of(), Double.NaN), schema, random,
        t);
  }

  /**
   * The key of the solver's weight for the release of {@code field} read by {@code output} (a
   * shared release has one key per output, all with the same weight; null field: a count served by
   * partition selection).
   */
  public static String key(String output, Release.Field field) {
    return output + "/" + (field == null ? "SELECTION" : field.name());
  }

  private static double clampWeight(double w) {
    return Math.min(Query.MAX_WEIGHT, Math.max(Query.MIN_WEIGHT, w));
  }

  private static Map<String, Double> normalise(Map<String, Double> w) {
    double max = w.values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
    Map<String, Double> out = new LinkedHashMap<>();
    w.forEach((k, v) -> out.put(k, Math.max(Query.MIN_WEIGHT, v / max)));
    return out;
  }

  private static void checkSupported(Query q, AccuracyTargets t) {
    for (Aggregation a : q.aggregations()) {
      if (a instanceof Aggregation.Quantiles qa
          && qa.method() != Aggregation.Quantiles.Method.TREE) {
        throw new IllegalArgumentException("targetError for '" + a.name() + "': only tree "
            + "quantiles take a target, and it is a rank error in rows (it bounds every noisy "
            + "prefix count of the tree), not an error in value units; give a budget instead");
      }
      if (a instanceof Aggregation.Quantiles && t.halfWidths().get(a.name()) < 1) {
        throw new IllegalArgumentException("targetError for '" + a.name() + "': a quantile's "
            + "target is a rank error in rows (it bounds every noisy prefix count of its tree), so"
            + " it must be at least 1; a target in value units is not supported (the value error "
            + "depends on the data)");
      }
      if (a instanceof Aggregation.Variance || a instanceof Aggregation.StdDev) {
        throw new IllegalArgumentException("targetError for '" + a.name() + "': a target in value"
            + " units is not supported for variances and standard deviations (their error "
            + "depends on the data); give a budget instead");
      }
      if (a instanceof Aggregation.Mean m) {
        if (t.minCount() == 0) {
          throw new IllegalArgumentException("targetError for '" + a.name() + "': a mean's error "
              + "depends on its denominator; give a public lower bound minCount (SQL: min_count)"
              + " on the rows of every released group, or a budget instead");
        }
        if (m.perGroup() != null) {
          throw new IllegalArgumentException("targetError for '" + a.name() + "': means with "
              + "per-group bounds are not supported; give a budget instead");
        }
      }
      if (a instanceof Aggregation.CountDistinctUnits && q.postAggregationThresholding()) {
        throw new IllegalArgumentException("targetError for '" + a.name() + "': not supported "
            + "with postAggregationThresholding; give a budget instead");
      }
    }
  }

  private static Query candidate(Query q, AccuracyTargets t, NoiseKind noise,
      Map<String, Double> weights, double x) {
    double selection = q.usesPrivatePartitionSelection()
        ? weights.values().stream().mapToDouble(Double::doubleValue).max().orElse(1) : Double.NaN;
    Budget b = AccuracyTargets.budget(noise, x, t.delta());
    return q.withSolverWeights(b, noise, weights, selection);
  }

  /** Bisection (in log scale) for the smallest total meeting every target. */
  private static double smallestTotal(Query q, AccuracyTargets t, NoiseKind noise,
      Map<String, Double> weights, TableSchema schema, RandomSource random) {
    double max = noise == NoiseKind.GAUSSIAN ? MAX_RHO : MAX_EPSILON;
    double hi = 1.0;
    while (!meets(candidate(q, t, noise, weights, hi), schema, random, t)) {
      if (hi >= max) {
        throw new IllegalArgumentException("targetError: the targets cannot be met with "
            + (noise == NoiseKind.GAUSSIAN ? "rho" : "epsilon") + " up to " + max
            + " (a target is below the output's grid or the minCount is too small for a mean"
            + (q.aggregations().stream().anyMatch(a -> a instanceof Aggregation.Quantiles)
                ? "; a quantile's target is a rank error in rows, not in value units" : "")
            + "); loosen a target");
      }
      hi = Math.min(max, hi * 4);
    }
    double lo = hi / 4;
    while (lo > Budget.MIN_EPSILON * 16 && meets(candidate(q, t, noise, weights, lo), schema,
        random, t)) {
      hi = lo;
      lo /= 4;
    }
    while (hi / lo > 1 + PRECISION / 4) {
      double mid = Math.sqrt(lo * hi);
      if (meets(candidate(q, t, noise, weights, mid), schema, random, t)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return hi;
  }

  private static boolean meets(Query q, TableSchema schema, RandomSource random,
      AccuracyTargets t) {
    Map<String, Double> e = errors(q, schema, random, t);
    for (Map.Entry<String, Double> x : e.entrySet()) {
      if (!(x.getValue() <= t.halfWidths().get(x.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** Each output's error statement (half-width at the targets' confidence) for a runnable query. */
  static Map<String, Double> errors(Query q, TableSchema schema, RandomSource random,
      AccuracyTargets t) {
    CompiledQuery c = Compiler.compile(q, schema, 0L);
    double beta = 1 - t.confidence();
    Map<String, Double> out = new LinkedHashMap<>();
    for (Compiler.PlannedOutput o : c.outputs()) {
      Aggregation a = o.planner().aggregation();
      List<Integer> idx = o.releases();
      if (idx.isEmpty()) {
        // A count the partition selection's noisy count serves (post-aggregation thresholding):
        // its statement is the selection noise's half-width (in units, = rows at L∞ = 1).
        out.put(a.name(), c.selection().halfWidth(beta));
      } else if (a instanceof Aggregation.Mean m) {
        Release sum = c.releases().get(idx.get(0));
        double unit = sum.unit();
        double hs = Releases.noise(sum.mechanism(), random).halfWidth(beta / 2);
        double hn = Releases.noise(c.releases().get(idx.get(1)).mechanism(), random)
            .halfWidth(beta / 2);
        // + 1: the fixed-point grid rounds the bounds to whole grid units.
        long center = sum.target().center();
        double r = Math.max(Math.abs(m.lower() / unit - center),
            Math.abs(m.upper() / unit - center)) + 1;
        double n0 = t.minCount();
        double e = n0 > hn ? (hs + r * hn) / (n0 - hn) * unit : Double.POSITIVE_INFINITY;
        out.put(a.name(), Math.min(e, m.upper() - m.lower()));
      } else if (a instanceof Aggregation.Quantiles) {
        // In rows: the widest per-rank (1 − β) statement on the quantiles' rank errors (the
        // statement EXPLAIN reports; docs/proofs/engine-quantiles.md, "Per-rank intervals").
        Release s = c.releases().get(idx.get(0));
        Releases.Noise n = Releases.noise(s.mechanism(), random);
        int bins = org.privet.engine.spi.Measure.cells(c.spec().measures()
            .get(s.target().measure()));
        double[] ranks = ((Aggregation.Quantiles) a).ranks().stream()
            .mapToDouble(Double::doubleValue).toArray();
        out.put(a.name(), QuantileTree.forCells(bins).rankHalfWidth(ranks,
            QuantileTree.NodeNoise.of(n), beta));
      } else {
        Release s = c.releases().get(idx.get(0));
        out.put(a.name(), Releases.noise(s.mechanism(), random).halfWidth(beta) * s.unit());
      }
    }
    return out;
  }
}
