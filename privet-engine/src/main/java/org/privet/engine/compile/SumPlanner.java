package org.privet.engine.compile;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.privet.engine.Aggregation;
import org.privet.engine.Estimate;
import org.privet.engine.release.Release;
import org.privet.engine.release.Releaser;
import org.privet.engine.spi.Measure;

/**
 * SUM: one noisy fixed-point sum, rows clamped and, with group bounds, each unit's total in a
 * group clamped (sensitivity the tighter of the two, {@code docs/proofs/engine-bounding.md}).
 *
 * <p>Sensitivity over all groups, M = max(|a|, |b|) on the grid: L1 = L0·L∞·M (L0·M_P with a pair
 * clamp), L2 = √L0 times the per-group value. Under a total row cap m: L1 = L2 = m·M without a
 * pair clamp; with one, L1 = m·max_k f(k)/k and L2 = √(max_k f(k)·L1), f(k) the pair bound of a
 * pair allowed k rows ({@code docs/proofs/rows-contributed.md}).
 */
record SumPlanner(Aggregation.Sum aggregation) implements AggregationPlanner {
  @Override
  public Optional<String> column() {
    return Optional.of(aggregation.column());
  }

  @Override
  public void plan(Rewrite r) {
    Aggregation.Sum s = aggregation;
    Compiler.Grid g = Compiler.Grid.of(s.lower(), s.upper(), r.sumBits, false,
        Compiler.pairMagnitude(s.perGroup(), r.lInf));
    Measure.PairClamp pc = g.pairClamp(s.perGroup());
    int mi = r.measureIndex(
        new Measure.FixedPointSum(s.column(), s.lower(), s.upper(), g.k, 0, false, pc));
    r.bounds.add(g.describe(s.name(), s.column(), s.lower(), s.upper()));
    // At least one grid step: a degenerate group bound [c, c] still gets a valid mechanism.
    long sens = Math.max(1, Compiler.pairSensitivity(g.a, g.b, pc, r.lInf, 0));
    if (pc != null) {
      r.bounds.add(g.describePair(s.name(), s.perGroup(), pc, r.lInf, sens));
    }
    r.release(new Release.Target(s.name(), "noisy sum of " + s.column(), Release.Field.SUM, mi,
        g.k), sens, j -> Compiler.pairStep(g.a, g.b, pc, j, 0));
  }

  @Override
  public void release(Releaser.Group g, List<Integer> releases, Map<String, Estimate> out) {
    out.put(aggregation.name(), g.scalar(releases.get(0)));
  }
}
