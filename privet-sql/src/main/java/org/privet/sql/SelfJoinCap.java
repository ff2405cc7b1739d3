package org.privet.sql;

import java.util.List;
import java.util.Objects;

/**
 * The public cap m of a private self-join (issue 25; {@code docs/proofs/r2t-truncation.md},
 * "Self-joins"): each side of a join on the privacy unit keeps at most m rows per unit before the
 * join ({@link org.privet.engine.plan.Relation.UnitCap}), so one unit's joined rows are at most a
 * public product of caps whatever its data. m is read from the statement only, and is at least
 * the most rows one unit keeps after the truncation the query can use, so that the cap never
 * lowers a unit's truncated COUNT over a join on the unit alone (a side that was capped still
 * meets at least m ≥ τ rows): L0·L∞ for bounds the analyst gives ({@code max_rows_contributed}
 * for a total cap), L0·2^19 for the L∞ estimate (its largest bound), L0·2^⌈log2 GS⌉ for R2T
 * (its largest threshold). Every refusal names the SQL position and reads the statement only.
 */
final class SelfJoinCap {
  /** The largest cap: beyond it no threshold of the engine reaches (public). */
  static final long MAX = 1L << 31;

  private SelfJoinCap() {}

  /**
   * m for a self-join statement (called only when {@link JoinBinder#isSelfJoin()}).
   *
   * @param r2t whether {@code truncation = 'R2T'} was asked
   */
  static long of(PreparedQuery pq, DpOptions options, SqlRewrites.Contributions contributions,
      boolean r2t, List<AggregateCall> calls) {
    long l0 = Math.max(1, contributions.l0());
    if (r2t) {
      AggregateCall sum = calls.stream().filter(Objects::nonNull)
          .filter(c -> c.function() == DpFunctions.SUM).findFirst().orElse(null);
      if (sum != null) {
        throw pq.source().error(sum.offset(), R2TOption.NAME + " = 'R2T' over a self-join supports"
            + " COUNT(*) only: the cap per unit before the join is in rows, and a SUM's thresholds"
            + " are in the column's units");
      }
      long gs = R2TOption.DEFAULT_BOUND;
      OptionValue bv = pq.options().get(R2TOption.BOUND);
      if (bv != null && bv.isIntegral() && bv.number() >= 2 && bv.number() <= R2TOption.MAX_COUNT_BOUND) {
        gs = (long) bv.number(); // an invalid bound is refused by R2TOption before the charge
      }
      long top = 1L << (64 - Long.numberOfLeadingZeros(gs - 1)); // 2^⌈log2 GS⌉
      l0 = options.maxGroupsContributed() == 0 ? 1 : Math.max(1, options.maxGroupsContributed());
      return times(l0, top);
    }
    if (contributions.rowsCap() > 0) {
      return Math.min(MAX, contributions.rowsCap());
    }
    if (contributions.estimated()) {
      return times(l0, org.privet.engine.ContributionBoundEstimate.STAND_IN);
    }
    return times(l0, Math.max(1, contributions.lInf()));
  }

  private static long times(long a, long b) {
    return Math.multiplyHigh(a, b) != 0 || a * b > MAX ? MAX : a * b;
  }
}
