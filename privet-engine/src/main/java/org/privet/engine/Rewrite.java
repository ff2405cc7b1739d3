package org.privet.engine;

import java.util.ArrayList;
import java.util.List;
import org.privet.engine.spi.Measure;

/**
 * The bounding rewrite of one query at one fixed-point precision, filled in by the
 * {@link AggregationPlanner}s: backend measures, the bounds shown in EXPLAIN, and the noisy
 * releases with their per-group sensitivities, before the budget split chooses their mechanisms.
 */
final class Rewrite {
  final Query query;
  final int l0;
  final long lInf;
  final int sumBits;
  final int squareBits;
  final List<Measure> measures = new ArrayList<>();
  final List<String> bounds = new ArrayList<>();
  final List<Draft> drafts = new ArrayList<>();
  final List<Compiler.PlannedOutput> outputs = new ArrayList<>();
  final List<Double> weights = new ArrayList<>(); // per draft: budget weight
  final List<String> reasons = new ArrayList<>(); // per draft: why that weight

  /**
   * A noisy release before the split.
   *
   * @param target what it perturbs
   * @param perGroup its sensitivity in one group (grid units)
   * @param treeLevels a quantile tree's levels H (its per-group L2 norm is L∞·√H), else 0
   * @param exponential released by the exponential mechanism (once per group)
   */
  record Draft(Release.Target target, long perGroup, int treeLevels, boolean exponential) {}

  Rewrite(Query query, int sumBits, int squareBits) {
    this.query = query;
    this.l0 = query.maxGroupsContributed();
    this.lInf = query.maxRowsPerGroup();
    this.sumBits = sumBits;
    this.squareBits = squareBits;
  }

  /** The index of {@code m} among the measures, adding it if absent (shared by SUM and MEAN). */
  int measureIndex(Measure m) {
    int i = measures.indexOf(m);
    if (i >= 0) {
      return i;
    }
    return addMeasure(m);
  }

  /** Adds {@code m} as a new measure and returns its index. */
  int addMeasure(Measure m) {
    measures.add(m);
    return measures.size() - 1;
  }

  /** Adds an additive-noise release. */
  void release(Release.Target target, long perGroup) {
    drafts.add(new Draft(target, perGroup, 0, false));
  }

  /** Adds a quantile tree release (H levels, per-group L1 sensitivity L∞·H). */
  void treeRelease(Release.Target target, int levels) {
    drafts.add(new Draft(target, Math.multiplyExact(lInf, (long) levels), levels, false));
  }

  /** Adds an exponential-mechanism release. */
  void exponentialRelease(Release.Target target, long perGroup) {
    drafts.add(new Draft(target, perGroup, 0, true));
  }
}
