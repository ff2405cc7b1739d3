package org.privet.sql;

import java.util.List;
import java.util.Map;
import org.privet.accounting.PureDp;
import org.privet.engine.Query;

/**
 * The Privet extension {@code truncation = 'R2T'} (issue 25; ZetaSQL has no such option): the
 * truncation of each unit's (joined) rows is chosen privately by R2T (Dong, Fang, Yi, Tao,
 * Machanavajjhala, SIGMOD 2022) for a scalar COUNT(*) or SUM (public per-row bounds, lower ≥ 0),
 * up to the public bound {@code truncation_bound} (one unit's rows or total, default {@value
 * #DEFAULT_BOUND}). Every refusal reads the
 * statement only (public) and names the option or clause; the engine does the rest ({@code
 * R2TPass}).
 */
final class R2TOption {
  static final String NAME = "truncation";
  static final String BOUND = "truncation_bound";
  static final long DEFAULT_BOUND = 1L << 16;
  static final long MAX_COUNT_BOUND = 1L << 20;
  static final long MAX_SUM_BOUND = 1L << 40;

  private static final String PRIVATE_GROUPS = NAME + " = 'R2T' with GROUP BY needs public"
      + " groups (public_groups = (...), or group keys from a public table), or delta > 0 for"
      + " private group selection";

  private R2TOption() {}

  /**
   * The public groups of an R2T statement (null without GROUP BY); GROUP BY over private groups is
   * refused here, before the generic "private group selection needs delta" message, from the
   * statement and the registered schema only.
   */
  static List<List<Object>> publicGroups(PreparedQuery pq, SelectBinder binder, DpOptions options,
      List<String> groupBy) {
    if (!groupBy.isEmpty() && !options.publicGroupsRequested() && !options.hasDelta()
        && (binder.joins() == null
        || !groupBy.stream().allMatch(binder.joins()::isPublicColumn))) {
      throw pq.source().error(pq.offsetOfWord("GROUP", pq.selectOffset()), PRIVATE_GROUPS);
    }
    try {
      return binder.publicGroups(options, groupBy);
    } catch (DpSqlException e) {
      if (groupBy.isEmpty() || options.publicGroupsRequested()) {
        throw e;
      }
      // Public-table columns without registered values: private groups, refused as such.
      throw pq.source().error(pq.offsetOfWord("GROUP", pq.selectOffset()), PRIVATE_GROUPS);
    }
  }

  /** Whether the statement asks for R2T (validating the option's value). */
  static boolean requested(PreparedQuery pq) {
    Map<String, OptionValue> opts = pq.options();
    OptionValue v = opts.get(NAME);
    SourceText src = pq.source();
    if (v == null) {
      if (opts.containsKey(BOUND)) {
        throw src.error(opts.get(BOUND).offset(), BOUND + " applies only with " + NAME
            + " = 'R2T'");
      }
      return false;
    }
    if ((v.kind() != OptionValue.Kind.STRING && v.kind() != OptionValue.Kind.IDENTIFIER)
        || !v.text().equalsIgnoreCase("R2T")) {
      throw src.error(v.offset(), NAME + " must be 'R2T' (the only truncation chosen privately)");
    }
    return true;
  }

  /**
   * Refuses what R2T does not cover (before any charge, from the statement only) and sets the
   * builder's unit and R2T bound.
   *
   * @param defaultBound GS when {@code truncation_bound} is not given: {@value #DEFAULT_BOUND},
   *     or less over a self-join ({@link SelfJoinCap})
   */
  static void apply(PreparedQuery pq, DpOptions options, String unit, List<String> groupBy,
      List<List<Object>> publicGroups, List<AggregateCall> calls, Query.Builder b,
      long defaultBound) {
    SourceText src = pq.source();
    Map<String, OptionValue> opts = pq.options();
    int at = opts.get(NAME).offset();
    if (unit == null) {
      throw src.error(at, NAME + " = 'R2T' needs a privacy unit (this dataset has one row per"
          + " unit: nothing to truncate)");
    }
    boolean privateGroups = !groupBy.isEmpty() && publicGroups == null;
    if (privateGroups && !options.hasDelta()) {
      throw src.error(pq.offsetOfWord("GROUP", pq.selectOffset()), PRIVATE_GROUPS);
    }
    List<String> conflicts = new java.util.ArrayList<>(List.of("max_rows_per_group",
        "max_rows_contributed", "max_error", "rho", "auto_bounds_share",
        "min_privacy_units_per_group", "group_selection_epsilon"));
    if (!privateGroups) {
      conflicts.add("delta"); // δ pays only for a private selection
    }
    if (groupBy.isEmpty()) {
      conflicts.add("max_groups_contributed"); // one group: L0 = 1
    } else if (options.maxGroupsUnbounded()) {
      throw src.error(opts.get("max_groups_contributed").offset(), "max_groups_contributed must"
          + " be a number with " + NAME + " = 'R2T' (each group's noise is scaled by it)");
    }
    for (String conflicting : conflicts) {
      if (opts.containsKey(conflicting)) {
        throw src.error(opts.get(conflicting).offset(), conflicting + " conflicts with " + NAME
            + " = 'R2T' (R2T chooses the truncation, with a pure-ε budget)");
      }
    }
    List<AggregateCall> aggregates = calls.stream().filter(java.util.Objects::nonNull).toList();
    if (aggregates.size() != 1) {
      throw src.error(at, NAME + " = 'R2T' supports exactly one aggregate, COUNT(*) or SUM");
    }
    AggregateCall c = aggregates.get(0);
    boolean sum = c.function() == DpFunctions.SUM && !c.distinct();
    if (!sum && (c.function() != DpFunctions.COUNT || c.distinct() || c.column() != null
        || c.countCap() != 0)) {
      throw src.error(c.offset(), NAME + " = 'R2T' supports COUNT(*) (without bounds) or SUM"
          + " only, not " + (c.distinct() ? c.function().name() + "(DISTINCT ...)"
              : c.function() == DpFunctions.COUNT && c.column() != null ? "COUNT(column)"
              : c.function().name()));
    }
    if (sum) {
      // Public bounds only (the statement or the registered schema): R2T needs ψ ≥ 0 per row
      // (docs/proofs/r2t-truncation.md, "SUM"); estimated or per-group bounds are refused.
      if (c.boundsKind() != AggregateCall.BoundsKind.PER_ROW
          && c.boundsKind() != AggregateCall.BoundsKind.PUBLIC) {
        throw src.error(c.offset(), NAME + " = 'R2T' needs SUM with public per-row bounds: "
            + AggregateCallParser.BOUNDS_PER_ROW + " => (lower, upper) with lower ≥ 0, or"
            + " registered public bounds (R2T bounds each unit's total itself; "
            + (c.boundsKind() == AggregateCall.BoundsKind.PER_GROUP
                ? AggregateCallParser.BOUNDS_PER_GROUP + " conflicts with it)"
                : "estimated bounds are not supported with it)"));
      }
      if (!(c.lower() >= 0)) {
        throw src.error(c.offset(), NAME + " = 'R2T' needs SUM's per-row lower bound ≥ 0 (R2T"
            + " truncates non-negative contributions; sum the negative part separately, negated)");
      }
    }
    if (!(options.budget() != null && (options.budget().loss() instanceof PureDp
        || (privateGroups && options.budget() instanceof org.privet.accounting.Budget.EpsilonDelta)))) {
      throw src.error(at, NAME + " = 'R2T' needs epsilon (R2T is pure ε-DP; delta only for a"
          + " private group selection)");
    }
    long bound = defaultBound;
    long max = sum ? MAX_SUM_BOUND : MAX_COUNT_BOUND;
    OptionValue bv = opts.get(BOUND);
    if (bv != null) {
      if (!bv.isIntegral() || bv.number() < 2 || bv.number() > max) {
        throw src.error(bv.offset(), BOUND + " must be an integer in [2, " + max + "] ("
            + (sum ? "one unit's total of the summed column" : "rows per unit") + ")");
      }
      bound = (long) bv.number();
    }
    b.privacyUnit(unit).truncateR2T(bound);
    if (!groupBy.isEmpty()) {
      b.maxGroupsContributed(options.maxGroupsContributed() == 0 ? 1
          : options.maxGroupsContributed());
    }
  }
}
