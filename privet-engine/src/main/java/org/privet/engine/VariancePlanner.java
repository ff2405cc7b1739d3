package org.privet.engine;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.spi.Measure;
import org.privet.mechanisms.ConfidenceInterval;

/**
 * VARIANCE and STDDEV: a noisy centred sum, sum of squares and count of the non-null values on a
 * coarser grid (squares within 2^40); variance = Q/N − (S/N)², clamped to [0, ((upper −
 * lower)/2)²] (post-processing), its square root for STDDEV.
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
    r.release(new Release.Target(name, "noisy centred sum of " + columnName + " (variance)",
        Release.Field.SUM, mi, g.k), Math.multiplyExact(r.lInf, g.maxAbs()));
    r.release(new Release.Target(name, "noisy sum of squares of " + columnName + " (variance)",
        Release.Field.SQUARES, mi, 2 * g.k),
        Math.multiplyExact(r.lInf, Math.multiplyExact(g.maxAbs(), g.maxAbs())));
    r.release(new Release.Target(name, "noisy count of non-null " + columnName + " (variance)",
        Release.Field.COUNT, mi, 0), r.lInf);
  }

  /** variance = Q/N − (S/N)² in grid units², clamped to [0, ((upper − lower)/2)²]. */
  @Override
  public void release(Releaser.Group g, List<Integer> idx, Map<String, Estimate> out) {
    int m = g.target(idx.get(0)).measure();
    double beta = g.beta();
    long s = g.noisy(idx.get(0), g.aggregate().sums()[m]);
    long q = g.noisy(idx.get(1), g.aggregate().squares()[m]);
    long n = g.noisy(idx.get(2), g.aggregate().counts()[m]);
    ConfidenceInterval si = g.interval(idx.get(0), s, beta / 3);
    ConfidenceInterval qi = g.interval(idx.get(1), q, beta / 3);
    ConfidenceInterval ni = g.interval(idx.get(2), n, beta / 3);
    double unit2 = g.target(idx.get(1)).unit(); // 2^-2k
    double max = Math.pow((upper - lower) / 2, 2);
    double value = 0;
    if (n > 0) {
      double mean = (double) s / n;
      value = MeanPlanner.clamp(((double) q / n - mean * mean) * unit2, 0, max);
    }
    double lo = 0;
    double hi = max;
    if (ni.lower() > 0) {
      double e2lo = Math.min(qi.lower() / ni.lower(), qi.lower() / ni.upper());
      double e2hi = Math.max(qi.upper() / ni.lower(), qi.upper() / ni.upper());
      double mlo = Math.min(si.lower() / ni.lower(), si.lower() / ni.upper());
      double mhi = Math.max(si.upper() / ni.lower(), si.upper() / ni.upper());
      double sqMax = Math.max(mlo * mlo, mhi * mhi);
      double sqMin = (mlo <= 0 && mhi >= 0) ? 0 : Math.min(mlo * mlo, mhi * mhi);
      lo = MeanPlanner.clamp((e2lo - sqMax) * unit2, 0, max);
      hi = MeanPlanner.clamp((e2hi - sqMin) * unit2, 0, max);
    }
    Estimate e = sqrt ? new Estimate(Math.sqrt(value), Math.sqrt(lo), Math.sqrt(hi), 1 - beta)
        : new Estimate(value, lo, hi, 1 - beta);
    out.put(aggregation.name(), e);
  }
}
