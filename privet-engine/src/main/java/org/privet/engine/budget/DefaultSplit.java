package org.privet.engine.budget;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.Aggregation;
import org.privet.engine.Query;
import org.privet.engine.SplitReport;
import org.privet.engine.compile.CompiledQuery;
import org.privet.engine.compile.Compiler;
import org.privet.engine.compile.Rewrite;
import org.privet.engine.release.QuantileTree;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releases;
import org.privet.random.RandomSource;

/**
 * The default budget split across a query's noisy releases (issue 22, replacing issue 17's
 * objective-minimising split): the <em>textbook</em> split, made no worse by sharing. The
 * releases' total weight (one per release, so partition selection keeps its share) is divided
 * equally among the outputs that read a release, each output's part equally among the distinct
 * releases it reads (an AVG: its sum and its count, as Google's BoundedMean and OpenDP's mean
 * split ε; a VARIANCE: sum, squares and count, as BoundedVariance), and a release read by several
 * outputs (a shared measurement) gets the sum of their parts. So every part of every output gets
 * at least the share it would get in the textbook plan (equal split per output, independent
 * measurements): its noise variance is at most the textbook's, under any noise and budget, for
 * every group size and every dataset. It reads public information only: the query's structure
 * ({@code docs/proofs/engine-budget-split.md}, "Default split").
 *
 * <p>Issue 17's split minimised J = Σ<sub>a</sub> Var(noise<sub>a</sub>)/(N·m<sub>a</sub>)² with
 * public magnitudes m<sub>a</sub> taken from the row clamp. With only group bounds (the SQL layer's
 * {@code contribution_bounds_per_group}) the row clamp is a wide stand-in (±1024 × the bound) that
 * does not enter the sensitivity, so the mean's magnitude and its count's coefficient were ~2,000×
 * too large and the centred sum got 0.6% of ε (issue 22); and even with the right magnitudes a
 * J-optimal split trades one output's error for another's (a COUNT next to a SUM over [0, 100]
 * got 39% instead of 50%). The terms of J ({@link #terms}) remain for EXPLAIN's relative errors,
 * now with the released statistic's own range.
 */
public final class DefaultSplit {
  private DefaultSplit() {}

  /**
   * One output's linearised noise: Σ g<sub>j</sub>²·Var(Z<sub>slot j</sub>), relative to N·m.
   *
   * @param output the output name
   * @param slots the releases it reads
   * @param coefficients g per slot, in output units per unit of the release's value (worst case
   *     over the released statistic's range)
   * @param magnitude m, the public magnitude per row
   * @param kind how the output reads its releases ({@link SplitReport.OutputError#kind})
   * @param sumCenter a mean's or variance's sum centre, in value units (else 0)
   * @param squaresCenter a variance's squares centre, in value units (else 0)
   */
  public record Term(String output, int[] slots, double[] coefficients, double magnitude, String kind,
      double sumCenter, double squaresCenter) {}

  /** The terms for the outputs of {@code rw} (outputs without additive-noise slots omitted). */
  public static List<Term> terms(Rewrite rw) {
    List<Term> out = new ArrayList<>();
    for (Compiler.PlannedOutput o : rw.outputs) {
      Term t = term(o.planner().aggregation(), o.releases(), rw.drafts, rw.lInf);
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  private static Term term(Aggregation a, List<Integer> idx, List<Rewrite.Draft> drafts,
      long lInf) {
    if (idx.isEmpty() || idx.stream().anyMatch(i -> drafts.get(i).exponential())) {
      return null; // served by selection's count, or exponential-mechanism quantiles
    }
    int[] slots = idx.stream().mapToInt(Integer::intValue).toArray();
    double[] g = new double[slots.length];
    double m = 1;
    String kind = SplitReport.ADDITIVE;
    double sumCenter = 0;
    double squaresCenter = 0;
    if (a instanceof Aggregation.Sum s) {
      g[0] = 1;
      // With group bounds the row clamp may be a wide stand-in: a unit's total is the scale.
      m = s.perGroup() != null ? magnitude(s.perGroup().lower(), s.perGroup().upper())
          : magnitude(s.lower(), s.upper());
    } else if (a instanceof Aggregation.Mean mean) {
      Rewrite.Draft sum = drafts.get(slots[0]);
      g[0] = 1;
      g[1] = reach(sum, lInf); // the released sum's own range, never the stand-in row clamp
      double lo = mean.perGroup() != null ? clampTo(mean.lower(), mean.perGroup()) : mean.lower();
      double hi = mean.perGroup() != null ? clampTo(mean.upper(), mean.perGroup()) : mean.upper();
      m = magnitude(lo, hi);
      kind = SplitReport.MEAN;
      sumCenter = sum.target().center() * sum.target().unit();
    } else if (a instanceof Aggregation.Variance || a instanceof Aggregation.StdDev) {
      double lower = a instanceof Aggregation.Variance v ? v.lower()
          : ((Aggregation.StdDev) a).lower();
      double upper = a instanceof Aggregation.Variance v ? v.upper()
          : ((Aggregation.StdDev) a).upper();
      Rewrite.Draft sum = drafts.get(slots[0]);
      Rewrite.Draft squares = drafts.get(slots[1]);
      double r = reach(sum, lInf);
      double half = a instanceof Aggregation.StdDev ? 0.5 : 1; // δσ/σ = ½ δV/V
      g[0] = 2 * r * half;
      g[1] = half;
      g[2] = r * r * half;
      m = (upper - lower) * (upper - lower) / 12;
      m = m > 0 ? m : 1;
      kind = a instanceof Aggregation.StdDev ? SplitReport.STDDEV : SplitReport.VARIANCE;
      sumCenter = sum.target().center() * sum.target().unit();
      squaresCenter = squares.target().center() * Math.sqrt(squares.target().unit());
    } else {
      for (int j = 0; j < slots.length; j++) {
        int levels = drafts.get(slots[j]).treeLevels();
        g[j] = levels > 0 ? Math.sqrt(levels * (QuantileTree.BRANCHING - 1) / 2.0) : 1;
        if (levels > 0) {
          kind = SplitReport.RANK;
        }
      }
    }
    return new Term(a.name(), slots, g, m, kind, sumCenter, squaresCenter);
  }

  /** {@code x} clamped to group bounds {@code gb}. */
  private static double clampTo(double x, Aggregation.GroupBounds gb) {
    return Math.max(gb.lower(), Math.min(gb.upper(), x));
  }

  /**
   * The largest |value − centre| of one row of a released sum, in value units: its per-group
   * sensitivity over L∞ (exact without group bounds; with them, the bound's own reach).
   */
  private static double reach(Rewrite.Draft sum, long lInf) {
    return (double) sum.perGroup() / lInf * sum.target().unit();
  }

  /** (|lower| + |upper|)/2, or 1 when both are 0: a public typical |value|. */
  static double magnitude(double lower, double upper) {
    double m = (Math.abs(lower) + Math.abs(upper)) / 2;
    return m > 0 ? m : 1;
  }

  /**
   * The default weights of {@code rw}'s releases: the total of their {@code base} weights (one
   * per release) divided equally among the outputs reading releases, each output's part equally
   * among its distinct releases, summed over the outputs reading a release. Releases no output
   * reads keep their base weight.
   */
  public static List<Double> weights(Rewrite rw, List<Double> base) {
    int n = rw.drafts.size();
    List<List<Integer>> reads = new ArrayList<>();
    for (Compiler.PlannedOutput o : rw.outputs) {
      List<Integer> distinct = o.releases().stream().distinct().toList();
      if (!distinct.isEmpty()) {
        reads.add(distinct);
      }
    }
    List<Double> w = new ArrayList<>(base);
    if (reads.isEmpty()) {
      return w;
    }
    double[] part = new double[n];
    boolean[] read = new boolean[n];
    for (List<Integer> r : reads) {
      for (int i : r) {
        part[i] += 1.0 / reads.size() / r.size();
        read[i] = true;
      }
    }
    double total = 0;
    for (int i = 0; i < n; i++) {
      total += read[i] ? base.get(i) : 0;
    }
    for (int i = 0; i < n; i++) {
      if (read[i]) {
        w.set(i, total * part[i]);
      }
    }
    return w;
  }

  /**
   * Partition selection's weight under the default split when its noisy count also serves outputs
   * (post-aggregation thresholding: COUNT(DISTINCT unit), or COUNT(*) at L∞ = 1, get no release):
   * the selection then stands for 1 + s parts of the textbook plan (itself and the s outputs it
   * serves) among K + 1 (K outputs), so its share is (1 + s)/(K + 1), and the K − s outputs with
   * releases share the rest, each exactly its textbook 1/(K + 1): weight T·(1 + s)/(K − s) against
   * the releases' total T. Otherwise (or with explicit weights) {@code weight} as given.
   */
  public static double selectionWeight(Query q, Rewrite rw, double weight) {
    if (!applies(q) || q.selectionBudgetWeight().isPresent()) {
      return weight;
    }
    int served = 0;
    int released = 0;
    for (Compiler.PlannedOutput o : rw.outputs) {
      if (o.releases().isEmpty()) {
        served++;
      } else {
        released++;
      }
    }
    double total = rw.weights.stream().mapToDouble(Double::doubleValue).sum();
    return served > 0 && released > 0 ? total * (1 + served) / released : weight;
  }

  /** The reason shown for a default weight. */
  public static final String REASON = "default split: the textbook equal split (each output an equal "
      + "part of the releases' budget, an AVG's or VARIANCE's part equal over its sum, count and "
      + "squares), a shared release getting the parts of every output reading it";

  /**
   * The query with one explicit weight per release for each output (the equal split that was the
   * default before issue 17), for comparisons; {@code c} is the compiled default query.
   */
  public static Query equalSplitQuery(Query q, CompiledQuery c) {
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
  public static SplitReport report(CompiledQuery c, CompiledQuery equal, RandomSource random) {
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
      List<Double> sd = new ArrayList<>();
      for (int slot : t.slots()) {
        Release r = c.releases().get(slot);
        if (SplitReport.RANK.equals(t.kind())) {
          // A quantile tree: the s.d. of each rank's error in rows (QuantileTree).
          int bins = org.privet.engine.spi.Measure.cells(c.spec().measures()
              .get(r.target().measure()));
          QuantileTree tree = QuantileTree.forCells(bins);
          QuantileTree.NodeNoise n = QuantileTree.NodeNoise.of(
              Releases.noise(r.mechanism(), random));
          for (double rank : c.quantileRanks(t.output())) {
            sd.add(tree.rankErrorStddev(rank, n));
          }
          continue;
        }
        sd.add(Releases.noise(r.mechanism(), random).stddev() * r.unit());
      }
      outs.add(new SplitReport.OutputError(t.output(), coefficient(t, c, random),
          eq.getOrDefault(t.output(), Double.NaN), share, t.kind(), sd, t.sumCenter(),
          t.squaresCenter()));
    }
    if (c.selection() != null && Double.isFinite(c.selection().noiseStddev())) {
      // Outputs served by the selection's noisy unit count (post-aggregation thresholding).
      for (Compiler.PlannedOutput o : c.outputs()) {
        if (o.releases().isEmpty()) {
          outs.add(new SplitReport.OutputError(o.planner().aggregation().name(), Double.NaN,
              Double.NaN, c.costs().get(0).share(), SplitReport.ADDITIVE,
              List.of(c.selection().noiseStddev()), 0, 0));
        }
      }
    }
    double n0 = c.selection() != null ? c.selection().unitsForHalfRelease() : Double.NaN;
    double sel = c.selection() != null ? c.costs().get(0).share() : 0;
    String rule = c.query().releaseWeights() != null ? SplitReport.SOLVED
        : !applies(c.query()) ? SplitReport.EXPLICIT
        : SplitReport.DEFAULT;
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
  public static boolean applies(Query q) {
    return q.budgetWeights().isEmpty() && q.releaseWeights() == null;
  }
}
