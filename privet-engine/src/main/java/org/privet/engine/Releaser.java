package org.privet.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.Measure;
import org.privet.mechanisms.ConfidenceInterval;
import org.privet.random.RandomSource;

/**
 * Turns one group's exact bounded aggregates into released estimates: adds noise through the
 * query's mechanisms and post-processes (ratios, clamping to the value range, sorting quantiles).
 * Everything after the noisy releases is post-processing and costs no privacy
 * ({@code docs/proofs/engine-fixed-point.md}).
 */
final class Releaser {
  private final CompiledQuery compiled;
  private final List<Releases.Noise> noises;
  private final List<Releases.Quantile> quantiles;
  private final double beta;
  private final QuantileTree[] trees; // per slot, for quantile-tree slots
  private final long[][] bands; // per slot: the simultaneous band's half-widths by term count

  Releaser(CompiledQuery compiled, List<Releases.Noise> noises,
      List<Releases.Quantile> quantiles, RandomSource random, double beta) {
    this.compiled = compiled;
    this.noises = noises;
    this.quantiles = quantiles;
    this.beta = beta;
    int n = compiled.slots().size();
    this.trees = new QuantileTree[n];
    this.bands = new long[n][];
    for (int i = 0; i < n; i++) {
      Slot s = compiled.slots().get(i);
      if (s.field() == Slot.Field.TREE) {
        Measure.Bins b = (Measure.Bins) compiled.spec().measures().get(s.measure());
        trees[i] = new QuantileTree(b.bins(), QuantileTree.BRANCHING);
        Releases.Noise noise = noises.get(i);
        bands[i] = trees[i].band(noise::sumHalfWidth, beta);
      }
    }
  }

  /** An all-zero aggregate for a group that has no rows. */
  GroupAggregate empty(List<Object> key) {
    List<Measure> ms = compiled.spec().measures();
    long[][] bins = new long[ms.size()][];
    for (int i = 0; i < ms.size(); i++) {
      if (ms.get(i) instanceof Measure.Bins b) {
        bins[i] = new long[b.bins()];
      }
    }
    int m = ms.size();
    return new GroupAggregate(key, 0, 0, new long[m], new long[m], new long[m], bins);
  }

  List<String> outputNames() {
    List<String> names = new ArrayList<>();
    for (Aggregation a : compiled.query().aggregations()) {
      if (a instanceof Aggregation.Histogram h) {
        for (int i = 0; i < h.bins(); i++) {
          names.add(h.name() + "[" + i + "]");
        }
      } else if (a instanceof Aggregation.Quantiles q && q.ranks().size() > 1) {
        for (double r : q.ranks()) {
          names.add(q.name() + "[" + r + "]");
        }
      } else {
        names.add(a.name());
      }
    }
    return names;
  }

  ResultRow release(List<Object> key, GroupAggregate g) {
    return release(key, g, 0);
  }

  /**
   * Releases one group; {@code selectionCount} is the partition selection's noisy unit count of
   * the group, output for COUNT(DISTINCT unit) under post-aggregation thresholding.
   */
  ResultRow release(List<Object> key, GroupAggregate g, long selectionCount) {
    Map<String, Estimate> values = new LinkedHashMap<>();
    List<Aggregation> aggs = compiled.query().aggregations();
    for (int ai = 0; ai < aggs.size(); ai++) {
      Aggregation a = aggs.get(ai);
      int[] idx = compiled.outputSlots().get(ai);
      if ((a instanceof Aggregation.CountDistinctUnits || a instanceof Aggregation.Count)
          && idx.length == 0) { // post-aggregation thresholding: selection's count is the output
        double h = compiled.selection().halfWidth(beta);
        values.put(a.name(), new Estimate(selectionCount, selectionCount - h, selectionCount + h,
            1 - beta));
      } else if (a instanceof Aggregation.Count || a instanceof Aggregation.CountDistinctUnits) {
        values.put(a.name(), scalar(idx[0], a instanceof Aggregation.Count ? g.rows() : g.units()));
      } else if (a instanceof Aggregation.Sum) {
        Slot s = slot(idx[0]);
        values.put(a.name(), scalar(idx[0], g.sums()[s.measure()]));
      } else if (a instanceof Aggregation.Mean mean) {
        double lo = mean.lower();
        double hi = mean.upper();
        if (mean.perGroup() != null && compiled.query().maxRowsPerGroup() == 1) {
          // One value per unit (its mean of row-clamped values) clamped to the group bounds, so
          // the mean lies in [clamp(lower), clamp(upper)] (post-processing).
          lo = clamp(mean.lower(), mean.perGroup().lower(), mean.perGroup().upper());
          hi = clamp(mean.upper(), mean.perGroup().lower(), mean.perGroup().upper());
        }
        values.put(a.name(), mean(idx, g, lo, hi));
      } else if (a instanceof Aggregation.Variance v) {
        values.put(a.name(), variance(idx, g, v.lower(), v.upper(), false));
      } else if (a instanceof Aggregation.StdDev d) {
        values.put(a.name(), variance(idx, g, d.lower(), d.upper(), true));
      } else if (a instanceof Aggregation.Histogram h) {
        long[] cells = g.bins()[slot(idx[0]).measure()];
        for (int i = 0; i < h.bins(); i++) {
          values.put(h.name() + "[" + i + "]", scalar(idx[0], cells[i]));
        }
      } else if (a instanceof Aggregation.Quantiles q) {
        if (slot(idx[0]).field() == Slot.Field.TREE) {
          treeQuantiles(q, idx[0], g, values);
        } else {
          quantiles(q, idx, g, values);
        }
      }
    }
    return new ResultRow(key, values);
  }

  private Slot slot(int i) {
    return compiled.slots().get(i);
  }

  private Estimate scalar(int slotIndex, long exact) {
    Slot s = slot(slotIndex);
    Releases.Noise n = noises.get(slotIndex);
    long released = n.release(exact);
    ConfidenceInterval ci = n.interval(released, beta);
    double unit = s.unit();
    return new Estimate(released * unit, ci.lower() * unit, ci.upper() * unit, ci.level());
  }

  /**
   * mean = (center + S/N)·2^-k, clamped to [lower, upper]; interval by a union bound. S is the
   * backend's centred (and, beyond 2^62, saturated) sum: nothing here can overflow.
   */
  private Estimate mean(int[] idx, GroupAggregate g, double lower, double upper) {
    Slot sumSlot = slot(idx[0]);
    int m = sumSlot.measure();
    long center = sumSlot.center();
    long s = noises.get(idx[0]).release(g.sums()[m]);
    long n = noises.get(idx[1]).release(g.counts()[m]);
    ConfidenceInterval si = noises.get(idx[0]).interval(s, beta / 2);
    ConfidenceInterval ni = noises.get(idx[1]).interval(n, beta / 2);
    double unit = sumSlot.unit();
    double c = center;
    double value = n > 0 ? clamp((c + (double) s / n) * unit, lower, upper)
        : clamp(c * unit, lower, upper);
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

  /** variance = Q/N − (S/N)² in grid units², clamped to [0, ((upper − lower)/2)²]. */
  private Estimate variance(int[] idx, GroupAggregate g, double lower, double upper,
      boolean sqrt) {
    Slot sumSlot = slot(idx[0]);
    int m = sumSlot.measure();
    long s = noises.get(idx[0]).release(g.sums()[m]);
    long q = noises.get(idx[1]).release(g.squares()[m]);
    long n = noises.get(idx[2]).release(g.counts()[m]);
    ConfidenceInterval si = noises.get(idx[0]).interval(s, beta / 3);
    ConfidenceInterval qi = noises.get(idx[1]).interval(q, beta / 3);
    ConfidenceInterval ni = noises.get(idx[2]).interval(n, beta / 3);
    double unit2 = slot(idx[1]).unit(); // 2^-2k
    double max = Math.pow((upper - lower) / 2, 2);
    double value = 0;
    if (n > 0) {
      double mean = (double) s / n;
      value = clamp(((double) q / n - mean * mean) * unit2, 0, max);
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
      lo = clamp((e2lo - sqMax) * unit2, 0, max);
      hi = clamp((e2hi - sqMin) * unit2, 0, max);
    }
    if (sqrt) {
      return new Estimate(Math.sqrt(value), Math.sqrt(lo), Math.sqrt(hi), 1 - beta);
    }
    return new Estimate(value, lo, hi, 1 - beta);
  }

  /**
   * Quantile-tree quantiles: one noisy release of all tree nodes, then post-processing into a
   * monotone value per rank and an interval that covers the true quantile's grid cell for all
   * ranks at once with probability ≥ 1 − β ({@link QuantileTree}).
   */
  private void treeQuantiles(Aggregation.Quantiles q, int slotIndex, GroupAggregate g,
      Map<String, Estimate> values) {
    QuantileTree tree = trees[slotIndex];
    long[] cells = g.bins()[slot(slotIndex).measure()];
    Releases.Noise noise = noises.get(slotIndex);
    long[] noisy = QuantileTree.release(tree.counts(cells), noise::release);
    double[] ranks = q.ranks().stream().mapToDouble(Double::doubleValue).toArray();
    QuantileTree.Answer ans = tree.quantiles(noisy, ranks, bands[slotIndex]);
    int b = tree.cells();
    for (int r = 0; r < ranks.length; r++) {
      String name = ranks.length > 1 ? q.name() + "[" + q.ranks().get(r) + "]" : q.name();
      values.put(name, new Estimate(edgeValue(q, ans.edge()[r], b),
          edgeValue(q, ans.lowerEdge()[r], b), edgeValue(q, ans.upperEdge()[r], b), 1 - beta));
    }
  }

  /** lower + (upper − lower)·j/B, exactly lower at j = 0 and upper at j = B. */
  private static double edgeValue(Aggregation.Quantiles q, double j, int b) {
    return j >= b ? q.upper() : q.lower() + (q.upper() - q.lower()) * j / b;
  }

  /**
   * Exponential-mechanism quantiles over grid edges e_j = lower + j·w (j = 0..B), utility
   * −|L_j − r·n| with L_j the number of bounded values in cells below j (Smith 2011).
   */
  private void quantiles(Aggregation.Quantiles q, int[] idx, GroupAggregate g,
      Map<String, Estimate> values) {
    long[] cells = g.bins()[slot(idx[0]).measure()];
    int b = cells.length;
    long n = Arrays.stream(cells).sum();
    double[] out = new double[idx.length];
    for (int r = 0; r < idx.length; r++) {
      double rank = slot(idx[r]).rank();
      double[] utilities = new double[b + 1];
      long below = 0;
      for (int j = 0; j <= b; j++) {
        utilities[j] = -Math.abs(below - rank * n);
        if (j < b) {
          below += cells[j];
        }
      }
      int chosen = quantiles.get(idx[r]).select(utilities);
      out[r] = q.lower() + (q.upper() - q.lower()) * chosen / b;
    }
    // Post-processing: quantiles must be monotone in their ranks.
    Integer[] order = new Integer[idx.length];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (x, y) -> Double.compare(q.ranks().get(x), q.ranks().get(y)));
    double[] sorted = out.clone();
    Arrays.sort(sorted);
    double[] monotone = new double[out.length];
    for (int i = 0; i < order.length; i++) {
      monotone[order[i]] = sorted[i];
    }
    for (int r = 0; r < idx.length; r++) {
      String name = idx.length > 1 ? q.name() + "[" + q.ranks().get(r) + "]" : q.name();
      values.put(name, Estimate.withoutInterval(monotone[r]));
    }
  }

  private static double clamp(double v, double lo, double hi) {
    return Math.max(lo, Math.min(hi, v));
  }
}
