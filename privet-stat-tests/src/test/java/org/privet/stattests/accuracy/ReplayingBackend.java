package org.privet.stattests.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.privet.engine.Source;
import org.privet.engine.spi.Backend;
import org.privet.engine.spi.BoundedAggregation;
import org.privet.engine.spi.GroupAggregate;
import org.privet.engine.spi.GroupSink;
import org.privet.engine.spi.TableSchema;
import org.privet.engine.spi.UnitGroupsSink;

/**
 * The real DuckDB backend, with each bounded aggregation computed by DuckDB once and then replayed
 * (a copy per run), so that a shape's hundreds of {@code Session.run} calls cost the engine's
 * compile, charge, noise and post-processing only. A run's salt picks which rows contribution
 * bounding keeps; the suite's tables never exceed L0 or L∞ (no row is dropped), so the exact
 * aggregates do not depend on it: the first time a spec is seen DuckDB runs it with two salts and
 * the results must be identical, or the replay refuses. Nothing is replayed across specs that
 * differ in anything but the salt.
 */
final class ReplayingBackend implements Backend {
  private final Backend real;
  private final Map<BoundedAggregation, List<GroupAggregate>> cache = new HashMap<>();

  ReplayingBackend(Backend real) {
    this.real = Objects.requireNonNull(real);
  }

  @Override
  public TableSchema describe(Source source) {
    return real.describe(source);
  }

  @Override
  public void aggregate(BoundedAggregation spec, GroupSink sink) {
    BoundedAggregation key = withSalt(spec, 0);
    List<GroupAggregate> groups = cache.get(key);
    if (groups == null) {
      groups = run(spec);
      List<GroupAggregate> again = run(withSalt(spec, spec.salt() ^ 0x5DEECE66DL));
      if (!same(groups, again)) {
        throw new IllegalStateException("the exact aggregates depend on the salt: bounding drops "
            + "rows, so they cannot be replayed");
      }
      cache.put(key, groups);
    }
    for (GroupAggregate g : groups) {
      sink.accept(copy(g));
    }
  }

  @Override
  public boolean listsKeptGroups() {
    return real.listsKeptGroups();
  }

  @Override
  public void keptGroups(BoundedAggregation spec, UnitGroupsSink sink) {
    real.keptGroups(spec, sink);
  }

  @Override
  public String physicalPlan(BoundedAggregation spec) {
    return real.physicalPlan(spec);
  }

  @Override
  public void close() {
    real.close();
  }

  private List<GroupAggregate> run(BoundedAggregation spec) {
    List<GroupAggregate> out = new ArrayList<>();
    real.aggregate(spec, out::add);
    out.sort((a, b) -> String.valueOf(a.key()).compareTo(String.valueOf(b.key())));
    return out;
  }

  private static BoundedAggregation withSalt(BoundedAggregation s, long salt) {
    return new BoundedAggregation(s.source(), s.filter(), s.unitColumn(), s.groupBy(),
        s.publicGroups(), s.l0(), s.lInf(), salt, s.measures(), s.maxRowsContributed());
  }

  private static boolean same(List<GroupAggregate> a, List<GroupAggregate> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      GroupAggregate x = a.get(i);
      GroupAggregate y = b.get(i);
      if (!x.key().equals(y.key()) || x.units() != y.units() || x.rows() != y.rows()
          || !Arrays.equals(x.sums(), y.sums()) || !Arrays.equals(x.counts(), y.counts())
          || !Arrays.equals(x.squares(), y.squares()) || !Arrays.deepEquals(x.bins(), y.bins())) {
        return false;
      }
    }
    return true;
  }

  private static GroupAggregate copy(GroupAggregate g) {
    long[][] bins = g.bins() == null ? null
        : Arrays.stream(g.bins()).map(r -> r == null ? null : r.clone()).toArray(long[][]::new);
    return new GroupAggregate(g.key(), g.units(), g.rows(), clone(g.sums()), clone(g.counts()),
        clone(g.squares()), bins);
  }

  private static long[] clone(long[] a) {
    return a == null ? null : a.clone();
  }
}
