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
 * VARIANCE and STDDEV: a noisy sum, sum of squares and count of the non-null values, the squares
 * centred on a coarser grid (within 2^40); the sum and the count are shared with a SUM, MEAN or
 * COUNT of the query that releases the same statistic. variance = Q/N − (S/N)², clamped to
 * [0, ((upper − lower)/2)²] (post-processing), its square root for STDDEV; with a noisy count
 * N ≤ 0 (no or only NULL values) the upper end ((upper − lower)/2)², as ZetaSQL releases.
 *
 * <p>Sensitivities per group: sum L∞·max|v − c|, squares L∞·max(v − c)², count L∞ (over all
 * groups times L0, or √L0 for L2); each is additive over rows, so under a total row cap m they
 * are m·max|v − c|, m·max(v − c)² and m in L1 and L2 ({@code docs/proofs/rows-contributed.md}).
 */
record VariancePlanner(Aggregation aggregation, String columnName, double lower, double upper,
    boolean sqrt) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.of(columnName);
  }

  @Override
  public void plan(Rewrite r) {
    String name = aggregation.name();
    Compiler.Grid g = Compiler.Grid.of(lower, upper, r.squareBits, true);
    int mi = r.addMeasure(new Measure.FixedPointSum(columnName, lower, upper, g.k, g.center, true));
    r.bounds.add(g.describe(name, columnName, lower, upper));
    Aggregation shared = r.sumSharedWith(columnName, lower, upper);
    if (shared != null) {
      // Reuses the sum a SUM or MEAN of the same column and bounds releases (post-processing).
      MeanPlanner.rowBoundedSum(r, name, columnName, lower, upper,
          shared instanceof Aggregation.Mean, "variance");
    } else {
      r.partRelease(new Release.Target(name, "noisy centred sum of " + columnName + " (variance)",
          Release.Field.SUM, mi, g.k, g.center, Double.NaN),
          Math.multiplyExact(r.lInf, g.maxAbs()));
    }
    r.partRelease(new Release.Target(name, "noisy sum of squares of " + columnName + " (variance)",
        Release.Field.SQUARES, mi, 2 * g.k, g.center, Double.NaN),
        Math.multiplyExact(r.lInf, Math.multiplyExact(g.maxAbs(), g.maxAbs())));
    MeanPlanner.nonNullCount(r, name, columnName, "variance");
  }

  /**
   * variance = Q/N − (S/N + c_S − c)², all in value units: Q the sum of squares centred at c
   * (this planner's grid centre), S the sum centred at c_S (its own grid's, or a shared SUM's or
   * MEAN's), clamped to [0, ((upper − lower)/2)²].
   */
  @Override
  public void release(Releaser.Group g, List<Integer> idx, Map<String, Estimate> out) {
    Release.Target sumTarget = g.target(idx.get(0));
    Release.Target squaresTarget = g.target(idx.get(1));
    double beta = g.beta();
    long s = g.noisy(idx.get(0));
    long q = g.noisy(idx.get(1));
    long n = g.noisy(idx.get(2));
    ConfidenceInterval si = g.interval(idx.get(0), s, beta / 3);
    ConfidenceInterval qi = g.interval(idx.get(1), q, beta / 3);
    ConfidenceInterval ni = g.interval(idx.get(2), n, beta / 3);
    double unit = sumTarget.unit();
    double unit2 = squaresTarget.unit(); // 2^-2k
    // The sum's centre minus the squares' centre, in value units.
    double shift = sumTarget.center() * unit - squaresTarget.center() * Math.sqrt(unit2);
    double max = Math.pow((upper - lower) / 2, 2);
    // No values (noisy count ≤ 0): ZetaSQL's answer, the largest variance of values in
    // [lower, upper] (that of the two bounds); it lies in the interval [0, max] below.
    double value = max;
    if (n > 0) {
      double mean = (double) s / n * unit + shift;
      value = MeanPlanner.clamp((double) q / n * unit2 - mean * mean, 0, max);
    }
    double lo = 0;
    double hi = max;
    double cs = sumTarget.center() * unit;
    double[] set = RatioIntervals.varianceSet(s * unit, q * unit2, n, unit, unit2, cs,
        cs - shift, g.noise(idx.get(0)), g.noise(idx.get(1)), g.noise(idx.get(2)), lower, upper,
        max, beta);
    if (set != null) {
      lo = set[0];
      hi = set[1];
    } else if (ni.lower() > 0) {
      double e2lo = Math.min(qi.lower() / ni.lower(), qi.lower() / ni.upper()) * unit2;
      double e2hi = Math.max(qi.upper() / ni.lower(), qi.upper() / ni.upper()) * unit2;
      double mlo = Math.min(si.lower() / ni.lower(), si.lower() / ni.upper()) * unit + shift;
      double mhi = Math.max(si.upper() / ni.lower(), si.upper() / ni.upper()) * unit + shift;
      double sqMax = Math.max(mlo * mlo, mhi * mhi);
      double sqMin = (mlo <= 0 && mhi >= 0) ? 0 : Math.min(mlo * mlo, mhi * mhi);
      lo = MeanPlanner.clamp(e2lo - sqMax, 0, max);
      hi = MeanPlanner.clamp(e2hi - sqMin, 0, max);
    }
    Estimate e = sqrt ? new Estimate(Math.sqrt(value), Math.sqrt(lo), Math.sqrt(hi), 1 - beta)
        : new Estimate(value, lo, hi, 1 - beta);
    out.put(aggregation.name(), e);
  }
}
