package org.privet.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.random.RandomSource;

/**
 * The default budget split across a query's noisy releases (issue 17, item 5): instead of equal
 * shares, the shares that minimise the sum over outputs of each output's squared relative noise,
 *
 * <pre>  J = Σ<sub>a</sub> Var(noise of output a) / (N · m<sub>a</sub>)²,</pre>
 *
 * for a group of N rows (units), with m<sub>a</sub> a public magnitude per row of output a. It
 * reads public information only: the query (its aggregations, clamping bounds, L0, L∞), the
 * registered schema (through the grid) and the budget, never the data
 * ({@code docs/proofs/engine-budget-split.md}, "Default split").
 *
 * <p>Each output's noise is linearised in the noise of the releases (slots) it reads:
 * noise<sub>a</sub> ≈ Σ<sub>i</sub> g<sub>a,i</sub>·Z<sub>i</sub>/N, with public coefficients
 * (the worst case over the clamping range of the derivative):
 * <ul>
 *   <li>COUNT, COUNT(DISTINCT unit), each HISTOGRAM bin: g = 1 on its count, m = 1 (the error as a
 *       fraction of the group);
 *   <li>SUM: g = 1 on its sum, m = (|lower| + |upper|)/2 (a typical |value|; 1 if both are 0);
 *   <li>AVG = S/N: g = 1 on the sum, g = R on the count (R the largest |value − centre| of the
 *       released sum, as in the mean's accuracy statement), m as for SUM;
 *   <li>VARIANCE = Q/N − (S/N)²: g = 1 on the squares, 2R on the sum, R² on the count,
 *       m = (upper − lower)²/12 (a uniform value's variance); STDDEV half of that (relative);
 *   <li>tree QUANTILES: a prefix count adds about H(B − 1)/2 node noises (H levels, branching B):
 *       g = √(H(B − 1)/2), m = 1 (the rank error as a fraction of the group);
 *   <li>exponential-mechanism quantiles: not in J; their releases keep the weight 1 each.
 * </ul>
 * Slot i's noise variance is k<sub>i</sub>/w<sub>i</sub><sup>p</sup> up to a common factor, with
 * k<sub>i</sub> = (Δ<sub>i</sub>·unit<sub>i</sub>)² (Δ the L1 sensitivity L0·pg for geometric
 * noise, the L2 sensitivity for the discrete Gaussian) and p = 2 when the weight scales ε (ε and
 * (ε, δ) budgets with Laplace noise), p = 1 when it scales ρ (Gaussian noise, or any ρ budget).
 * So J = Σ<sub>i</sub> C<sub>i</sub>k<sub>i</sub>/w<sub>i</sub><sup>p</sup>/N² with C<sub>i</sub>
 * = Σ<sub>a</sub>(g<sub>a,i</sub>/m<sub>a</sub>)², and its minimum under a fixed total weight
 * (Lagrange) is w<sub>i</sub> ∝ (C<sub>i</sub>k<sub>i</sub>)<sup>1/(p+1)</sup>. N cancels: the
 * split is the same for every group size. The optimised releases keep the total weight they had
 * with one weight per release, so partition selection keeps its share (weight 1 against the
 * number of releases): the relative error of a released group falls as the selection threshold
 * rises, so J alone would starve selection (release fewer groups), a choice left to
 * {@code selectionBudgetWeight}. With any explicit {@code budgetWeight}, weights are as given.
 */
final class DefaultSplit {
  private DefaultSplit() {}

  /** The smallest optimised weight, relative to the optimised total (keeps grids representable). */
  static final double MIN_RELATIVE_WEIGHT = 1e-6;

  /**
   * One output's linearised relative noise: Σ g<sub>j</sub>²·Var(Z<sub>slot j</sub>) / (N·m)².
   *
   * @param output the output name
   * @param slots the releases it reads
   * @param coefficients g per slot, in output units per unit of the release's value
   * @param magnitude m, the public magnitude per row
   */
  record Term(String output, int[] slots, double[] coefficients, double magnitude) {}

  /** The terms of J for the outputs of {@code rw} (outputs without additive-noise slots omitted). */
  static List<Term> terms(Rewrite rw) {
    List<Term> out = new ArrayList<>();
    for (Compiler.PlannedOutput o : rw.outputs) {
      Term t = term(o.planner().aggregation(), o.releases(), rw.drafts);
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  private static Term term(Aggregation a, List<Integer> idx, List<Rewrite.Draft> drafts) {
    if (idx.isEmpty() || idx.stream().anyMatch(i -> drafts.get(i).exponential())) {
      return null; // served by selection's count, or exponential-mechanism quantiles
    }
    int[] slots = idx.stream().mapToInt(Integer::intValue).toArray();
    double[] g = new double[slots.length];
    double m = 1;
    if (a instanceof Aggregation.Sum s) {
      g[0] = 1;
      m = magnitude(s.lower(), s.upper());
    } else if (a instanceof Aggregation.Mean mean) {
      g[0] = 1;
      g[1] = reach(mean.lower(), mean.upper(), drafts.get(slots[0]).target());
      m = magnitude(mean.lower(), mean.upper());
    } else if (a instanceof Aggregation.Variance || a instanceof Aggregation.StdDev) {
      double lower = a instanceof Aggregation.Variance v ? v.lower() : ((Aggregation.StdDev) a).lower();
      double upper = a instanceof Aggregation.Variance v ? v.upper() : ((Aggregation.StdDev) a).upper();
      double r = reach(lower, upper, drafts.get(slots[0]).target());
      double half = a instanceof Aggregation.StdDev ? 0.5 : 1; // δσ/σ = ½ δV/V
      g[0] = 2 * r * half;
      g[1] = half;
      g[2] = r * r * half;
      m = (upper - lower) * (upper - lower) / 12;
      m = m > 0 ? m : 1;
    } else {
      for (int j = 0; j < slots.length; j++) {
        int levels = drafts.get(slots[j]).treeLevels();
        g[j] = levels > 0 ? Math.sqrt(levels * (QuantileTree.BRANCHING - 1) / 2.0) : 1;
      }
    }
    return new Term(a.name(), slots, g, m);
  }

  /** (|lower| + |upper|)/2, or 1 when both are 0: a public typical |value|. */
  static double magnitude(double lower, double upper) {
    double m = (Math.abs(lower) + Math.abs(upper)) / 2;
    return m > 0 ? m : 1;
  }

  /** The largest |value − centre| over [lower, upper] for a sum released at {@code sum}'s centre. */
  private static double reach(double lower, double upper, Release.Target sum) {
    double c = sum.center() * sum.unit();
    return Math.max(Math.abs(lower - c), Math.abs(upper - c));
  }

  /**
   * The weights minimising J for {@code rw}'s releases under {@code noise}: the optimised releases
   * (in some term, not exponential) share the total of their {@code base} weights in proportion
   * to (C·k)<sup>1/(p+1)</sup>; the others keep their base weight.
   */
  static List<Double> weights(Rewrite rw, List<Term> terms, NoiseKind noise, boolean rhoBudget,
      List<Double> base) {
    int n = rw.drafts.size();
    double[] c = coefficients(terms, n);
    double p = noise == NoiseKind.GAUSSIAN || rhoBudget ? 1 : 2;
    double[] score = new double[n];
    double total = 0;
    double scores = 0;
    for (int i = 0; i < n; i++) {
      if (c[i] > 0) {
        double d = sensitivity(rw, i, noise);
        score[i] = Math.pow(c[i] * d * d, 1 / (p + 1));
        total += base.get(i);
        scores += score[i];
      }
    }
    List<Double> w = new ArrayList<>(base);
    if (scores == 0 || !Double.isFinite(scores)) {
      return w;
    }
    double floor = MIN_RELATIVE_WEIGHT * total;
    double raised = 0;
    for (int i = 0; i < n; i++) {
      if (c[i] > 0) {
        raised += Math.max(floor, total * score[i] / scores);
      }
    }
    for (int i = 0; i < n; i++) {
      if (c[i] > 0) {
        w.set(i, Math.max(floor, total * score[i] / scores) * total / raised);
      }
    }
    return w;
  }

  /** C<sub>i</sub> = Σ<sub>a</sub> (g<sub>a,i</sub>/m<sub>a</sub>)² per release. */
  private static double[] coefficients(List<Term> terms, int n) {
    double[] c = new double[n];
    for (Term t : terms) {
      for (int j = 0; j < t.slots().length; j++) {
        double r = t.coefficients()[j] / t.magnitude();
        c[t.slots()[j]] += r * r;
      }
    }
    return c;
  }

  /** Release i's sensitivity in output units: L2 for Gaussian noise, else L1 (L0·pg). */
  private static double sensitivity(Rewrite rw, int i, NoiseKind noise) {
    Rewrite.Draft d = rw.drafts.get(i);
    double units = noise == NoiseKind.GAUSSIAN
        ? Compiler.l2Sensitivity(d, rw.l0, (int) rw.lInf)
        : (double) d.perGroup() * rw.l0;
    return units * d.target().unit();
  }

  /** The reason shown when the equal split was kept. */
  static final String FALLBACK = "default split: one weight per release (the equal split), as the"
      + " optimised weights would force a coarser fixed-point grid and a larger objective";

  /**
   * J·N² for {@code rw}'s releases under {@code split}, with the continuous noise variances
   * (Laplace 2(Δ₁/ε)², Gaussian Δ₂²/(2ρ)) of the mechanisms the split buys, in output units.
   */
  static double objective(Rewrite rw, Compiler.Split split, NoiseKind noise) {
    double[] c = coefficients(terms(rw), rw.drafts.size());
    double j = 0;
    for (int i = 0; i < c.length; i++) {
      if (c[i] > 0) {
        double d = sensitivity(rw, i, noise);
        j += c[i] * (noise == NoiseKind.GAUSSIAN ? d * d / (2 * split.rho[i])
            : 2 * Math.pow(d / split.epsilon[i], 2));
      }
    }
    return j;
  }

  /** The reason shown for an optimised release's weight. */
  static String reason(NoiseKind noise, boolean rhoBudget) {
    boolean rho = noise == NoiseKind.GAUSSIAN || rhoBudget;
    return "default split: minimises Σ over outputs of (noise s.d. / public scale)², weight ∝ "
        + "(C·Δ²)^" + (rho ? "1/2" : "1/3") + " (C: Σ (coefficient/magnitude)² of the outputs "
        + "reading it, Δ: its " + (noise == NoiseKind.GAUSSIAN ? "L2" : "L1")
        + " sensitivity; see EXPLAIN's budget split)";
  }

  /**
   * The query with one explicit weight per release for each output (the equal split that was the
   * default before issue 17), for comparisons; {@code c} is the compiled default query.
   */
  static Query equalSplitQuery(Query q, CompiledQuery c) {
    Map<String, Double> w = new LinkedHashMap<>();
    for (Compiler.PlannedOutput o : c.outputs()) {
      w.put(o.planner().aggregation().name(), (double) Math.max(1, o.releases().size()));
    }
    return q.withSolvedBudget(q.budget(), q.noise(), w,
        q.selectionBudgetWeight().orElse(Double.NaN));
  }

  /**
   * The report EXPLAIN shows: each output's relative noise s.d. × N under {@code c}'s split and
   * under the equal split {@code equal}, with the mechanisms' exact noise s.d.
   */
  static SplitReport report(CompiledQuery c, CompiledQuery equal, RandomSource random) {
    Map<String, Double> eq = new HashMap<>();
    for (Term t : equal.splitTerms()) {
      eq.put(t.output(), coefficient(t, equal, random));
    }
    List<SplitReport.OutputError> outs = new ArrayList<>();
    for (Term t : c.splitTerms()) {
      double share = 0;
      for (int s : t.slots()) {
        share += c.costs().get(s + (c.selection() != null ? 1 : 0)).share();
      }
      outs.add(new SplitReport.OutputError(t.output(), coefficient(t, c, random),
          eq.getOrDefault(t.output(), Double.NaN), share));
    }
    double n0 = c.selection() != null ? c.selection().unitsForHalfRelease() : Double.NaN;
    double sel = c.selection() != null ? c.costs().get(0).share() : 0;
    String rule = c.query().releaseWeights() != null ? SplitReport.SOLVED
        : !applies(c.query()) ? SplitReport.EXPLICIT
        : c.costs().stream().anyMatch(m -> m.shareReason().startsWith(FALLBACK))
            ? SplitReport.EQUAL : SplitReport.DEFAULT;
    return new SplitReport(rule, sel, n0, outs);
  }

  /** √(Σ g²·s.d.²)/m: the output's relative noise s.d. times the group size N. */
  private static double coefficient(Term t, CompiledQuery c, RandomSource random) {
    double v = 0;
    for (int j = 0; j < t.slots().length; j++) {
      Release r = c.releases().get(t.slots()[j]);
      double sd = Releases.noise(r.mechanism(), random).stddev() * r.unit();
      v += Math.pow(t.coefficients()[j] * sd, 2);
    }
    return Math.sqrt(v) / t.magnitude();
  }

  /** Whether the query's releases are split by default (no explicit budgetWeight). */
  static boolean applies(Query q) {
    return q.budgetWeights().isEmpty() && q.releaseWeights() == null;
  }
}
