package org.privet.sql;

import java.util.List;
import java.util.Objects;
import org.privet.engine.ContributionBoundEstimate;
import org.privet.engine.plan.Relation;

/**
 * The public cap m of a private self-join (issue 25; {@code docs/proofs/r2t-truncation.md},
 * "Self-joins"): each of the k copies joined on the privacy unit keeps at most m rows per unit
 * before the joins ({@link Relation.UnitCap}), so one unit's joined rows are at most m^k whatever
 * its data. m is read from the statement only, and is at least the most rows one unit keeps after
 * the truncation the query uses, so that the cap never lowers a unit's truncated COUNT over a join
 * on the unit alone (a side that was capped still meets at least m ≥ τ rows):
 * {@code max_rows_contributed}; L0·L∞ for bounds the analyst gives; L0·2^e for the L∞ estimate,
 * whose read is limited to 2^e (post-processing); L0·2^⌈log2 GS⌉ for R2T.
 *
 * <p>m is at most {@link Relation.UnitCap#maxRowsPerCopy}(k) (m^k ≤ {@link
 * Relation.UnitCap#MAX_JOINED_ROWS_PER_UNIT} = 2^24: 4,096 for two copies, 256 for three), so that
 * one unit's cost to the backend after the charge is small whatever its data. Bounds the analyst
 * gives whose m would exceed it are refused before the charge, naming the option or call (never
 * clipped: a clipped cap below τ would silently under-count units with many rows in one copy);
 * the estimate's read and R2T's default GS are limited to it instead (nothing was given).
 */
final class SelfJoinCap {
  private SelfJoinCap() {}

  /**
   * The cap and what the query's truncation is limited to.
   *
   * @param m the cap per unit on each copy
   * @param estimateMaxExponent e with the L∞ estimate's read limited to 2^e ({@link
   *     ContributionBoundEstimate#withMaxExponent})
   * @param r2tDefaultBound R2T's GS when {@code truncation_bound} is not given
   */
  record Choice(long m, int estimateMaxExponent, long r2tDefaultBound) {}

  /**
   * m for a self-join statement of {@code copies} copies (called only when {@link
   * JoinBinder#isSelfJoin()}).
   *
   * @param r2t whether {@code truncation = 'R2T'} was asked
   * @throws DpSqlException naming the option or call whose bound gives too large an m
   */
  static Choice of(PreparedQuery pq, DpOptions options, SqlRewrites.Contributions contributions,
      boolean r2t, List<AggregateCall> calls, int copies) {
    SourceText src = pq.source();
    long max = Relation.UnitCap.maxRowsPerCopy(copies);
    String why = " over a self-join of " + copies + " copies joined on the privacy unit: each copy"
        + " keeps at most " + max + " rows per unit (m^" + copies + " ≤ "
        + Relation.UnitCap.MAX_JOINED_ROWS_PER_UNIT + " joined rows per unit)";
    long l0 = Math.max(1, contributions.l0());
    if (r2t) {
      AggregateCall sum = calls.stream().filter(Objects::nonNull)
          .filter(c -> c.function() == DpFunctions.SUM).findFirst().orElse(null);
      if (sum != null) {
        throw src.error(sum.offset(), R2TOption.NAME + " = 'R2T' over a self-join supports"
            + " COUNT(*) only: the cap per unit before the join is in rows, and a SUM's thresholds"
            + " are in the column's units");
      }
      l0 = options.maxGroupsContributed() == 0 ? 1 : Math.max(1, options.maxGroupsContributed());
      refuseGroups(pq, l0, 2, max, why);
      OptionValue bv = pq.options().get(R2TOption.BOUND);
      long defaultBound = Math.min(R2TOption.DEFAULT_BOUND, Long.highestOneBit(max / l0));
      long gs = defaultBound;
      if (bv != null && bv.isIntegral() && bv.number() >= 2
          && bv.number() <= R2TOption.MAX_COUNT_BOUND) {
        gs = (long) bv.number(); // an invalid bound is refused by R2TOption before the charge
      }
      long kept = Relation.UnitCap.rowsKeptByR2T(l0, gs); // L0·2^⌈log2 GS⌉
      if (kept > max) {
        throw src.error(bv.offset(), R2TOption.BOUND + " = " + bv.text() + " gives a cap of L0·"
            + "2^⌈log2 " + R2TOption.BOUND + "⌉ = " + kept + " rows per unit" + why
            + "; give " + R2TOption.BOUND + " ≤ " + Long.highestOneBit(max / l0));
      }
      return new Choice(kept, 0, defaultBound);
    }
    if (contributions.rowsCap() > 0) {
      if (contributions.rowsCap() > max) {
        throw src.error(options.offsets().get("max_rows_contributed"), "max_rows_contributed = "
            + contributions.rowsCap() + " is the cap per unit" + why + "; give"
            + " max_rows_contributed ≤ " + max);
      }
      return new Choice(contributions.rowsCap(), 0, 0);
    }
    if (contributions.estimated()) {
      refuseGroups(pq, l0, 1, max, why);
      int e = Relation.UnitCap.largestExponentWithin(max, l0,
          ContributionBoundEstimate.MAX_EXPONENT); // L0·2^e ≤ max
      return new Choice(l0 << e, e, 0);
    }
    long linf = Math.max(1, contributions.lInf());
    if (l0 * linf > max) {
      Integer at = options.offsets().get("max_rows_per_group");
      String what = "max_rows_per_group";
      if (at == null) {
        AggregateCall cap = calls.stream().filter(c -> c != null && c.countCap() > 0).findFirst()
            .orElse(null);
        if (cap != null) {
          at = cap.offset();
          what = "the COUNT bounds' (0, " + cap.countCap() + ")";
        } else {
          at = options.offsets().get("max_groups_contributed");
          what = "max_groups_contributed";
        }
      }
      throw src.error(at == null ? pq.selectOffset() : at, what + " gives a cap of L0·L∞ = "
          + l0 + "·" + linf + " = " + (l0 * linf) + " rows per unit" + why + "; give"
          + " max_groups_contributed · max_rows_per_group ≤ " + max);
    }
    return new Choice(l0 * linf, 0, 0);
  }

  /** Refuses an L0 whose smallest cap (L0 · {@code least}) is already above {@code max}. */
  private static void refuseGroups(PreparedQuery pq, long l0, long least, long max, String why) {
    if (l0 * least > max) {
      Integer at = pq.options().containsKey("max_groups_contributed")
          ? pq.options().get("max_groups_contributed").offset() : pq.selectOffset();
      throw pq.source().error(at, "max_groups_contributed = " + l0 + " gives a cap of at least "
          + (l0 * least) + " rows per unit" + why + "; give max_groups_contributed ≤ "
          + max / least);
    }
  }
}
