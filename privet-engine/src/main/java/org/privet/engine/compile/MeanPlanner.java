package org.privet.engine.compile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.RatioIntervals;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;
import org.privet.engine.spi.Measure;
import org.privet.mechanisms.ConfidenceInterval;

/**
 * MEAN: a noisy (centred) fixed-point sum and a noisy count of the non-null values; the mean is
 * their ratio, clamped to the value range (post-processing).
 *
 * <p>Sensitivities over all groups: the count as COUNT(column) (L∞ per group; m in all under a
 * total row cap m), the sum L∞·max|v − c| per group (m·max|v − c| in all under the cap), or with
 * group bounds (then one row per unit per group: L∞ = 1, or a cap m = 1) the pair-clamped bound
 * ({@code docs/proofs/engine-bounding.md}, {@code docs/proofs/rows-contributed.md}).
 */
public record MeanPlanner(Aggregation.Mean aggregation) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.of(aggregation.column());
  }

  @Override
  public void plan(Rewrite r) {
    Aggregation.Mean m = aggregation;
    if (m.perGroup() == null) {
      Compiler.Grid g = Compiler.Grid.of(m.lower(), m.upper(), r.sumBits, true);
      r.bounds.add(g.describe(m.name(), m.column(), m.lower(), m.upper()));
      // Shares the sum of a SUM of the same column and bounds (uncentred), else its own centred.
      boolean centred = !(r.sumSharedWith(m.column(), m.lower(), m.upper())
          instanceof Aggregation.Sum);
      rowBoundedSum(r, m.name(), m.column(), m.lower(), m.upper(), centred, "mean = sum/count");
      nonNullCount(r, m.name(), m.column(), "mean");
      return;
    }
    Compiler.Grid g = Compiler.Grid.of(m.lower(), m.upper(), r.sumBits, true,
        Compiler.pairMagnitude(m.perGroup(), r.lInf));
    Measure.PairClamp pc = g.pairClamp(m.perGroup());
    r.bounds.add(g.describe(m.name(), m.column(), m.lower(), m.upper()));
    // Centre the released sum where that lowers its sensitivity: with a pair clamp, the clamp
    // acts on uncentred sums, so another centre may be tighter. Candidates: the row range's
    // centre, 0, and the pair bounds' centre.
    long center = g.center;
    long sens = Compiler.pairSensitivity(g.a, g.b, pc, r.lInf, g.center);
    for (long c : new long[] {0, Math.floorDiv(pc.lower(), 2) + Math.floorDiv(pc.upper(), 2)}) {
      long cs = Compiler.pairSensitivity(g.a, g.b, pc, r.lInf, c);
      if (cs < sens && cs > 0) {
        sens = cs;
        center = c;
      }
    }
    sens = Math.max(1, sens); // at least one grid step (degenerate group bounds)
    r.bounds.add(g.describePair(m.name(), m.perGroup(), pc, r.lInf, sens));
    // The backend centres the sum itself, so that the per-group saturation at the public cap
    // acts on the released (centred) statistic and keeps its sensitivity (issue 10, item 3).
    int mi = r.measureIndex(
        new Measure.FixedPointSum(m.column(), m.lower(), m.upper(), g.k, center, false, pc));
    long c0 = center;
    r.partRelease(new Release.Target(m.name(), "noisy " + (center != 0 ? "centred " : "") + "sum of "
        + m.column() + " (mean = sum/count)", Release.Field.SUM, mi, g.k, center, Double.NaN),
        sens, j -> Compiler.pairStep(g.a, g.b, pc, j, c0));
    nonNullCount(r, m.name(), m.column(), "mean");
  }

  /**
   * The noisy sum of a column's row-clamped values on the sum grid, centred at the grid's centre
   * or uncentred (as SUM releases it): per-group sensitivity L∞·max|value − centre|, at least one
   * grid step. SUM, MEAN and VARIANCE asking for the same one share it.
   */
  static void rowBoundedSum(Rewrite r, String output, String column, double lower, double upper,
      boolean centred, String role) {
    Compiler.Grid g = Compiler.Grid.of(lower, upper, r.sumBits, centred);
    long center = centred ? g.center : 0;
    long sens = Math.max(1, Compiler.pairSensitivity(g.a, g.b, null, r.lInf, center));
    int mi = r.measureIndex(
        new Measure.FixedPointSum(column, lower, upper, g.k, center, false, null));
    r.partRelease(new Release.Target(output, "noisy " + (center != 0 ? "centred " : "") + "sum of "
        + column + " (" + role + ")", Release.Field.SUM, mi, g.k, center, Double.NaN), sens);
  }

  /** The noisy count of a column's kept non-null values (per-group sensitivity L∞). */
  static void nonNullCount(Rewrite r, String output, String column, String role) {
    Measure any = null;
    for (Measure m : r.measures) {
      if (m instanceof Measure.FixedPointSum && m.column().equals(column)) {
        any = m;
        break;
      }
    }
    r.partRelease(new Release.Target(output, "noisy count of non-null " + column + " (" + role + ")",
        Release.Field.COUNT, r.measures.indexOf(any), 0), r.lInf);
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    Aggregation.Mean mean = aggregation;
    double lo = mean.lower();
    double hi = mean.upper();
    if (mean.perGroup() != null && g.query().maxRowsPerGroup() == 1) {
      // One value per unit (its mean of row-clamped values) clamped to the group bounds, so
      // the mean lies in [clamp(lower), clamp(upper)] (post-processing).
      lo = clamp(mean.lower(), mean.perGroup().lower(), mean.perGroup().upper());
      hi = clamp(mean.upper(), mean.perGroup().lower(), mean.perGroup().upper());
    }
    out.put(mean.name(), mean(g, releases.get(0), releases.get(1), lo, hi));
  }

  /**
   * mean = (center + S/N)·2^-k, clamped to [lower, upper]; its interval by inverting the exact
   * pivot S − m·N (Fieller; {@link RatioIntervals#meanSet}), or by a union bound over the sum's
   * and the count's intervals when their noises differ in kind. S is the backend's centred (and,
   * beyond 2^62, saturated) sum: nothing here can overflow.
   */
  private static Estimate mean(Releaser.Group g, int sumRelease, int countRelease, double lower,
      double upper) {
    Release.Target sumTarget = g.target(sumRelease);
    double beta = g.beta();
    long s = g.noisy(sumRelease);
    long n = g.noisy(countRelease);
    double unit = sumTarget.unit();
    double c = sumTarget.center();
    double value = n > 0 ? clamp((c + (double) s / n) * unit, lower, upper)
        : clamp(c * unit, lower, upper);
    double cs = c * unit;
    double[] set = RatioIntervals.meanSet(s * unit, n, unit, g.noise(sumRelease),
        g.noise(countRelease), lower - cs, upper - cs, beta);
    if (set != null) {
      return new Estimate(value, clamp(cs + set[0], lower, upper),
          clamp(cs + set[1], lower, upper), 1 - beta);
    }
    ConfidenceInterval si = g.interval(sumRelease, s, beta / 2);
    ConfidenceInterval ni = g.interval(countRelease, n, beta / 2);
    double lo = lower;
    double hi = upper;
    if (ni.lower() > 0) {
      lo = clamp((c + Math.min(si.lower() / ni.lower(), si.lower() / ni.upper())) * unit, lower,
          upper);
      hi = clamp((c + Math.max(si.upper() / ni.lower(), si.upper() / ni.upper())) * unit, lower,
          upper);
    }
    return new Estimate(value, lo, hi, 1 - beta);
  }

  public static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }
}
