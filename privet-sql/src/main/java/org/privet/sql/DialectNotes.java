package org.privet.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.privet.engine.AutoBounds;

/**
 * The defaults of a statement that make its answer differ from what BigQuery/ZetaSQL would return
 * for the same text (docs/sql.md, "Differences from BigQuery"). Each becomes one EXPLAIN line, so
 * no default changes an answer silently. Computed from the query text and public options only.
 */
final class DialectNotes {
  private DialectNotes() {}

  /**
   * @param options the statement's options
   * @param selected the SELECT list
   * @param unit the privacy unit column, or null (one row per unit)
   * @param contributions the L0 and L∞ the statement compiled with
   * @param grouped whether the statement has a GROUP BY
   */
  static List<String> of(DpOptions options, List<SelectedColumn> selected, String unit,
      SqlRewrites.Contributions contributions, boolean grouped) {
    List<String> notes = new ArrayList<>();
    // With L∞ estimated every row of a unit counts, up to a bound computed privately, as in
    // ZetaSQL: no difference (the engine's EXPLAIN shows the estimate and its share).
    boolean rowsDefault = unit != null && !contributions.estimated()
        && options.maxRowsPerGroup() == 0
        && options.maxRowsContributed() == 0 && contributions.lInf() == 1
        && selected.stream().noneMatch(s -> s.call() != null && s.call().countCap() > 0);
    double share = Double.isNaN(options.autoBoundsShare()) ? AutoBounds.DEFAULT_SHARE
        : options.autoBoundsShare();
    for (SelectedColumn s : selected) {
      AggregateCall c = s.call();
      if (c == null) {
        continue;
      }
      if (c.boundsKind() == AggregateCall.BoundsKind.IMPLICIT) {
        notes.add(s.name() + ": no contribution bounds given: computed privately from "
            + percent(share) + " of the budget, per row, as with contribution_bounds_per_row => AUTO"
            + " (ZetaSQL computes implicit bounds from half of the aggregate's ε)");
      }
      if (rowsDefault && !c.distinct() && c.function() == DpFunctions.COUNT) {
        notes.add(s.name() + ": counts at most 1 row per privacy unit per group (L∞ = 1, because"
            + " the query " + rowsReason(options, selected) + "; ZetaSQL counts all of a unit's"
            + " rows, clamped by bounds it computes implicitly): give contribution_bounds_per_group"
            + " => (0, k) or max_rows_per_group = k to count up to k rows per unit");
      } else if (rowsDefault && c.function() != DpFunctions.COUNT
          && c.boundsKind() != AggregateCall.BoundsKind.PER_GROUP) {
        notes.add(s.name() + ": a unit with several rows in a group contributes their "
            + (c.function() == DpFunctions.PERCENTILE_CONT
                || c.function() == DpFunctions.APPROX_QUANTILES ? "L∞ = 1 row" : "values scaled to"
                + " L∞ = 1 row") + " (Privet's default L∞ = 1; ZetaSQL uses all of a unit's rows):"
            + " set max_rows_per_group = k to use up to k rows per unit");
      }
    }
    if (grouped && unit != null && options.maxGroupsContributed() == 0
        && options.maxRowsContributed() == 0) {
      notes.add("max_groups_contributed not given: Privet keeps at most 1 group per privacy unit"
          + " (ZetaSQL: no limit unless the engine sets one; BigQuery's default is 1)");
    }
    return List.copyOf(notes);
  }

  /** Why L∞ is 1 rather than estimated (the public reason: the query's text and options). */
  private static String rowsReason(DpOptions options, List<SelectedColumn> selected) {
    if (selected.stream().anyMatch(s -> s.call() != null
        && s.call().function() == DpFunctions.AVG)) {
      return "has an AVG, whose average of per-unit averages takes one row per unit";
    }
    if (!options.maxError().isEmpty() || options.planned()) {
      return "is planned by its target errors, which need a given L∞";
    }
    if (options.thresholding() == org.privet.engine.Thresholding.POST_AGGREGATION) {
      return "thresholds its count at one row per unit (POST_AGGREGATION_THRESHOLD)";
    }
    return "gives its aggregates their own ε (epsilon =>), and an estimate of L∞ would take a share";
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.4g%%", 100 * fraction);
  }
}
