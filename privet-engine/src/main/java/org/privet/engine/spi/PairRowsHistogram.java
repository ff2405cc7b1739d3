package org.privet.engine.spi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A COUNT(*) query's L∞ estimate and main pass from ONE small backend statement (issue 25's time
 * target): the exact histogram of the kept (unit, group) pairs' row counts, {@code SELECT [group,]
 * n, COUNT(*) FROM keptpairs GROUP BY [group,] n} ({@link Backend#pairRowsHistogram}), from which
 * the JVM computes exactly what the backend's {@link Backend#aggregate} returns for every spec this
 * serves ({@link #serves}): the estimate's pair-rows cells and the main pass's kept units and
 * Σ<sub>pairs</sub> min(n, L∞), at any L∞ and salt. Argument: {@code
 * docs/proofs/contribution-bound-estimate.md}, "COUNT(*) from the pairs' row-count histogram".
 *
 * <p>Served specs: unit-level, no total row cap, measures only {@link Measure.PairRows} (the
 * estimate) or none (COUNT(*) and unit counts), with the template's source, filter, unit, groups,
 * public groups and L0, and kept pairs that do not depend on the salt: no GROUP BY (a unit's one
 * pair), or public groups with L0 at least the number of listed keys (rows outside the keys are
 * dropped first, so L0 keeps every pair). Decided from the specs only (public).
 */
public final class PairRowsHistogram {
  private PairRowsHistogram() {}

  /**
   * Whether {@code spec} is computed exactly from the histogram of {@code template}'s kept pairs
   * (public: the specs only).
   */
  public static boolean serves(BoundedAggregation template, BoundedAggregation spec) {
    return shape(template) && shape(spec) && spec.source().equals(template.source())
        && spec.filter().equals(template.filter())
        && spec.unitColumn().equals(template.unitColumn())
        && spec.groupBy().equals(template.groupBy())
        && spec.publicGroups().equals(template.publicGroups()) && spec.l0() == template.l0();
  }

  /** Unit-level, no row cap, salt-free kept pairs, and only pair-rows measures. */
  private static boolean shape(BoundedAggregation s) {
    boolean saltFree = s.groupBy().isEmpty()
        || s.publicGroups().map(g -> s.l0() >= g.size()).orElse(false);
    return s.unitColumn().isPresent() && s.maxRowsContributed() == 0 && saltFree
        && s.measures().stream().allMatch(m -> m instanceof Measure.PairRows);
  }

  /**
   * The groups {@link Backend#aggregate} returns for {@code spec}, computed from the exact
   * histogram of its kept pairs' row counts, in the order the groups first appear (without GROUP
   * BY always one group, as the statement's aggregate without GROUP BY returns one row): per
   * group the kept pairs Σ k (units), Σ k·min(n, L∞) (rows), and for each {@link
   * Measure.PairRows} the pairs per cell (the smallest j &lt; bins − 1 with n ≤ 2^j, else bins −
   * 1, the statement's comparisons); the other arrays as the statement's reader leaves them
   * (zeros, no cells). Exact long arithmetic saturating at Long.MAX_VALUE (never reached: each
   * value is at most the table's rows, which SQL counts in BIGINT). Total on a served spec.
   *
   * @throws IllegalArgumentException if {@code spec} has a measure other than a pair-rows one
   */
  public static List<GroupAggregate> aggregate(BoundedAggregation spec,
      List<PairRowsCount> histogram) {
    List<Measure> ms = spec.measures();
    if (!ms.stream().allMatch(x -> x instanceof Measure.PairRows)) {
      throw new IllegalArgumentException("spec: not a pair-rows spec");
    }
    int m = ms.size();
    long lInf = spec.lInf();
    // By the key as SQL groups it (one SQL group may come back in several rows, e.g. as 0.0 and
    // -0.0, or NUMERIC 1.0 and 1.00): the first row's key stands for the group, as the
    // statement's own aggregate returns one of its values.
    Map<List<Object>, GroupAggregate> acc = new LinkedHashMap<>();
    if (spec.groupBy().isEmpty()) {
      acc.put(List.of(), empty(List.of(), ms));
    }
    for (PairRowsCount h : histogram) {
      long n = h.rows();
      long k = h.pairs();
      if (n < 1 || k < 1) {
        continue; // not produced by the statement (n ≥ 1, counts ≥ 1)
      }
      List<Object> sqlKey = new ArrayList<>(h.key().size());
      if (!spec.groupBy().isEmpty()) {
        h.key().forEach(v -> sqlKey.add(BoundingPlan.sqlEqualityKey(v)));
      }
      GroupAggregate a = acc.computeIfAbsent(sqlKey, x -> empty(h.key(), ms));
      long[][] bins = a.bins();
      for (int i = 0; i < m; i++) {
        int c = cellOf(n, bins[i].length);
        bins[i][c] = add(bins[i][c], k);
      }
      acc.put(sqlKey, new GroupAggregate(a.key(), add(a.units(), k),
          add(a.rows(), times(Math.min(n, lInf), k)), a.sums(), a.counts(), a.squares(), bins));
    }
    return new ArrayList<>(acc.values());
  }

  /** A group without pairs, its arrays shaped as {@link BoundingPlan#group} shapes them. */
  private static GroupAggregate empty(List<Object> key, List<Measure> ms) {
    long[][] bins = new long[ms.size()][];
    for (int i = 0; i < ms.size(); i++) {
      bins[i] = new long[Measure.cells(ms.get(i))];
    }
    return new GroupAggregate(key, 0, 0, new long[ms.size()], new long[ms.size()],
        new long[ms.size()], bins);
  }

  /** The pair-rows cell of a pair with n ≥ 1 rows: the smallest j &lt; bins − 1 with n ≤ 2^j. */
  static int cellOf(long n, int bins) {
    for (int j = 0; j < bins - 1 && j < 62; j++) {
      if (n <= (1L << j)) {
        return j;
      }
    }
    return bins - 1;
  }

  /** x + y for x, y ≥ 0, saturating at Long.MAX_VALUE. */
  private static long add(long x, long y) {
    return y >= Long.MAX_VALUE - x ? Long.MAX_VALUE : x + y;
  }

  /** x·y for x, y ≥ 0, saturating at Long.MAX_VALUE. */
  private static long times(long x, long y) {
    return x != 0 && y > Long.MAX_VALUE / x ? Long.MAX_VALUE : x * y;
  }

  /**
   * One query's view of {@code backend} ({@link Backend#sharingRows}'s role): a spec it {@link
   * #serves} is computed from the histogram of {@code template}'s kept pairs, read by ONE {@link
   * Backend#pairRowsHistogram} statement at the first such spec; any other spec runs on {@code
   * backend} as is. Closing the view drops the histogram and never closes the backend.
   *
   * @param backend a backend that {@link Backend#countsPairRows}
   * @param template the query's estimate spec (its source, filter, unit, groups, L0 and salt)
   */
  public static Backend view(Backend backend, BoundedAggregation template) {
    if (!backend.countsPairRows() || !serves(template, template)) {
      throw new IllegalArgumentException("internal error: no pair-rows histogram here");
    }
    return new View(backend, template);
  }

  /** {@link #view}: every other call goes to the backend as is ({@link UnsharedView}). */
  private static final class View extends UnsharedView {
    private final Backend backend;
    private final BoundedAggregation template;
    private List<PairRowsCount> histogram;

    View(Backend backend, BoundedAggregation template) {
      super(backend);
      this.backend = backend;
      this.template = template;
    }

    @Override
    public void aggregate(BoundedAggregation spec, GroupSink sink) {
      if (!serves(template, spec)) {
        backend.aggregate(spec, sink);
        return;
      }
      if (histogram == null) {
        List<PairRowsCount> h = new ArrayList<>();
        backend.pairRowsHistogram(template, h::add);
        histogram = h;
      }
      PairRowsHistogram.aggregate(spec, histogram).forEach(sink::accept);
    }

    @Override
    public String physicalPlan(BoundedAggregation spec) {
      return serves(template, spec) ? backend.pairRowsHistogramPlan(template)
          : backend.physicalPlan(spec);
    }

    @Override
    public void close() {
      histogram = null; // the backend stays open
    }
  }
}
