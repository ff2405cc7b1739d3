package org.privet.sql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.privet.engine.Aggregation;
import org.privet.engine.Filter;
import org.privet.engine.Query;
import org.privet.sql.AggregateCall.BoundsKind;

/**
 * The rewrites from DP SQL to the engine's {@link Query}, named as in
 * {@code docs/proofs/sql-rewrites.md}: contribution bounds (section 4), COUNT(column) as a
 * filter (section 5), identical calls released once (section 6).
 */
final class SqlRewrites {
  private static final Pattern ENGINE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
  /** Row range of a per-group-bounded aggregate without public bounds, relative to its bounds. */
  private static final double PER_GROUP_ROW_FACTOR = 1024;
  private static final String BOUNDS_PER_GROUP = AggregateCallParser.BOUNDS_PER_GROUP;
  private static final String BOUNDS_PER_ROW = AggregateCallParser.BOUNDS_PER_ROW;

  private final SourceText src;
  private final DatasetDescriptor dataset;
  private final String unit;
  /** Whether COUNT(column) calls become engine counts of non-NULL values (not a filter). */
  private boolean countsNonNull;
  /** ZetaSQL's max_rows_contributed = m (a unit's rows over all groups), or 0. */
  private int rowsCap;

  /** The rewrites for a query whose dataset and privacy unit {@code binder} resolved. */
  /** The engine aggregations {@link #identicalCallsOnce} added, in order. */
  private final List<Aggregation> added = new ArrayList<>();

  SqlRewrites(SelectBinder binder) {
    this.src = binder.src;
    this.dataset = binder.dataset();
    this.unit = binder.unit();
  }

  /**
   * Section 5, COUNT(column) as a filter. COUNT(column) counts the rows where column is not NULL.
   * The engine counts rows, so the query gets the filter {@code column IS NOT NULL}; that is exact
   * only when every aggregate is COUNT of that column or a value aggregate of it (which ignore
   * NULLs anyway). Beside aggregates of other columns, COUNT of a numeric column is instead the
   * engine's count of its non-NULL values ({@code Aggregation.CountNonNull}); of a non-numeric
   * column it is refused.
   */
  Filter countColumnAsFilter(Filter filter, List<AggregateCall> calls) {
    String counted = null;
    AggregateCall first = null;
    for (AggregateCall c : calls) {
      if (c != null && c.function() == DpFunctions.COUNT && !c.distinct() && c.column() != null) {
        counted = c.column();
        first = c;
        break;
      }
    }
    if (counted == null) {
      return filter;
    }
    for (AggregateCall c : calls) {
      if (c != null && (c.column() == null || !c.column().equals(counted) || c.distinct())) {
        // Beside other aggregates: each COUNT(column) of a numeric column is its own engine
        // count of non-NULL values (Aggregation.CountNonNull), and no filter is added.
        for (AggregateCall k : calls) {
          if (k != null && k.function() == DpFunctions.COUNT && !k.distinct() && k.column() != null
              && !dataset.schema().column(k.column()).map(col -> col.type().isNumeric())
                  .orElse(false)) {
            throw src.error(k.offset(), "COUNT(" + k.column() + ") of a non-numeric column can only"
                + " be combined with aggregates of the same column; use COUNT(*) with WHERE "
                + k.column() + " IS NOT NULL");
          }
        }
        countsNonNull = true;
        return filter;
      }
    }
    Filter notNull = new Filter.Not(new Filter.IsNull(counted));
    return filter == null ? notNull : new Filter.And(List.of(filter, notNull));
  }

  /**
   * The engine's contribution bounds: L0 (max groups per unit) and L∞ (max rows per group);
   * {@code estimated}: L∞ was not given and is estimated privately (ZetaSQL's default
   * contribution, {@code docs/proofs/contribution-bound-estimate.md}), {@code lInf} is then 1 and
   * unused; {@code rowsCap} m &gt; 0: ZetaSQL's {@code max_rows_contributed}, at most m rows per
   * unit in total over all groups (then L0 = L∞ = m, both valid bounds; the engine's
   * sensitivities are those of m rows in all: {@code docs/proofs/rows-contributed.md}).
   */
  record Contributions(int l0, int lInf, boolean estimated, int rowsCap) {
    Contributions(int l0, int lInf, boolean estimated) {
      this(l0, lInf, estimated, 0);
    }

    Contributions withEstimate() {
      return new Contributions(l0, lInf, true, rowsCap);
    }
  }

  /** A row clamp [lower, upper]. */
  record RowRange(double lower, double upper) {}

  /**
   * Section 4, contribution bounds: {L0, L∞} from the options and the COUNT / per-group bounds.
   */
  Contributions contributionBounds(DpOptions options, List<AggregateCall> calls) {
    // max_rows_contributed = m: as ZetaSQL, a unit keeps at most m rows in total over all groups
    // (the engine's Query.Builder#maxRowsContributed).
    int linf = options.maxRowsPerGroup();
    AggregateCall capCall = null;
    for (AggregateCall c : calls) {
      if (c == null || c.countCap() == 0) {
        continue;
      }
      if (capCall != null && capCall.countCap() != c.countCap()) {
        throw src.error(c.offset(), "all COUNT bounds of a query must agree (they set the most rows"
            + " one unit adds to a group)");
      }
      if (linf > 0 && linf != c.countCap()) {
        throw src.error(c.offset(), "COUNT bounds (0, " + c.countCap() + ") conflict with"
            + " max_rows_per_group = " + linf);
      }
      capCall = c;
    }
    int m = unit == null ? 0 : options.maxRowsContributed();
    if (m > 0) {
      // A COUNT bound (0, k) caps a unit's count in a group: with k ≥ m it never binds (the
      // unit's total is at most m); a tighter per-group cap under the total one is not built.
      if (capCall != null && capCall.countCap() < m) {
        throw src.error(capCall.offset(), "COUNT bounds (0, " + capCall.countCap() + ") below"
            + " max_rows_contributed = " + m + " are not supported (a per-group cap under the"
            + " total row cap); give contribution_bounds_per_group => (0, k) with k ≥ " + m
            + ", or max_rows_contributed = " + capCall.countCap());
      }
      linf = m;
    }
    if (linf == 0) {
      linf = capCall == null ? 1 : capCall.countCap();
    }
    if (unit == null && linf > 1 && capCall != null) {
      throw src.error(capCall.offset(), "dataset '" + dataset.name() + "' has one row per privacy unit:"
          + " COUNT bounds must be (0, 1)");
    }
    for (AggregateCall c : calls) {
      if (c != null && c.boundsKind() == BoundsKind.PER_GROUP && c.function() == DpFunctions.AVG
          && linf != 1) {
        throw src.error(c.offset(), "AVG with " + BOUNDS_PER_GROUP + " needs "
            + (m > 0 ? "max_rows_contributed" : "max_rows_per_group") + " = 1"
            + " (each unit then adds its own mean, clamped, once per group); use " + BOUNDS_PER_ROW
            + " with more rows per group");
      }
    }
    if (m > 0) {
      rowsCap = m;
      return new Contributions(m, m, false, m);
    }
    int l0 = options.maxGroupsContributed() == 0 ? 1 : options.maxGroupsContributed();
    return new Contributions(l0, linf, false);
  }

  /**
   * Whether L∞ is estimated privately, as ZetaSQL counts every row of a unit (issue 24): with a
   * privacy unit, no L∞ given ({@code max_rows_per_group}, {@code max_rows_contributed}, COUNT
   * bounds), and some aggregate that reads a unit's rows (COUNT(*), COUNT(col), SUM with per-row
   * or no bounds, VAR_POP, STDDEV_POP, PERCENTILE_CONT, APPROX_QUANTILES). Not with AVG: its
   * average of per-unit averages takes one row per unit per group (L∞ = 1).
   */
  boolean estimatesRows(DpOptions options, List<AggregateCall> calls) {
    if (unit == null || options.maxRowsPerGroup() > 0 || options.maxRowsContributed() > 0) {
      return false;
    }
    boolean reads = false;
    for (AggregateCall c : calls) {
      if (c == null) {
        continue;
      }
      if (c.countCap() > 0 || c.function() == DpFunctions.AVG) {
        return false;
      }
      reads |= switch (c.function()) {
        case COUNT -> !c.distinct();
        case SUM -> c.boundsKind() != BoundsKind.PER_GROUP;
        case VARIANCE, STDDEV, PERCENTILE_CONT, APPROX_QUANTILES -> true;
        default -> false;
      };
    }
    return reads;
  }

  private static boolean isQuantiles(AggregateCall call) {
    return call.function() == DpFunctions.PERCENTILE_CONT
        || call.function() == DpFunctions.APPROX_QUANTILES;
  }

  private String engineName(String preferred, Set<String> used) {
    String candidate = preferred;
    if (!ENGINE_NAME.matcher(candidate).matches() || used.contains(candidate.toLowerCase(Locale.ROOT))) {
      int i = used.size();
      do {
        candidate = "agg" + i++;
      } while (used.contains(candidate));
    }
    used.add(candidate.toLowerCase(Locale.ROOT));
    return candidate;
  }

  /**
   * Row clamp for an aggregate with only {@code contribution_bounds_per_group}: the column's
   * registered public bounds, else ±{@value #PER_GROUP_ROW_FACTOR}·max(|lower|, |upper|). The
   * fixed-point sum needs a row range; it does not enter the sensitivity (the group bound does),
   * only the grid's precision, so it is wide: rows beyond it are clamped before the unit's total is
   * formed (which changes a total only if other rows of the same unit cancel them).
   */
  private RowRange perGroupRowRange(AggregateCall c) {
    DatasetDescriptor.ColumnBounds pb = dataset.publicBounds().get(c.column());
    if (pb != null) {
      return new RowRange(pb.lower(), pb.upper());
    }
    double m = Math.min(0x1p60, PER_GROUP_ROW_FACTOR
        * Math.max(1, Math.max(Math.abs(c.lower()), Math.abs(c.upper()))));
    return new RowRange(-m, m);
  }

  /** Section 4: the engine aggregation of one call (per-group bounds as a per unit clamp). */
  private Aggregation toEngine(AggregateCall c, String name) {
    if (c.boundsKind().estimated()) {
      // Stand-in bounds (the public range or ±2^60): the engine estimates the real ones.
      double lo = Double.isNaN(c.lower()) ? -0x1p60 : c.lower();
      double hi = Double.isNaN(c.upper()) ? 0x1p60 : c.upper();
      return switch (c.function()) {
        case SUM -> new Aggregation.Sum(name, c.column(), lo, hi);
        case AVG -> new Aggregation.Mean(name, c.column(), lo, hi);
        case VARIANCE -> new Aggregation.Variance(name, c.column(), lo, hi);
        case STDDEV -> new Aggregation.StdDev(name, c.column(), lo, hi);
        default -> throw new IllegalStateException("AUTO on " + c.function());
      };
    }
    if (c.boundsKind() == BoundsKind.PER_GROUP) {
      // BigQuery: the bounds apply to each unit's aggregate in the group. SUM: the unit's total
      // over all its rows, clamped; AVG (with L∞ = 1): the unit's mean, clamped.
      RowRange rows = perGroupRowRange(c);
      // Under max_rows_contributed a unit's total in a group is over its kept rows only (those
      // the total row cap allows it there), then clamped; otherwise over all its rows.
      return c.function() == DpFunctions.SUM
          ? new Aggregation.Sum(name, c.column(), rows.lower(), rows.upper(), rowsCap > 0
              ? Aggregation.GroupBounds.of(c.lower(), c.upper())
              : Aggregation.GroupBounds.ofAllRows(c.lower(), c.upper()))
          : new Aggregation.Mean(name, c.column(), rows.lower(), rows.upper(),
              Aggregation.GroupBounds.of(c.lower(), c.upper()));
    }
    return switch (c.function()) {
      case COUNT -> c.distinct() ? new Aggregation.CountDistinctUnits(name)
          : countsNonNull && c.column() != null ? new Aggregation.CountNonNull(name, c.column())
          : new Aggregation.Count(name);
      case SUM -> new Aggregation.Sum(name, c.column(), c.lower(), c.upper());
      case AVG -> new Aggregation.Mean(name, c.column(), c.lower(), c.upper());
      case VARIANCE -> new Aggregation.Variance(name, c.column(), c.lower(), c.upper());
      case STDDEV -> new Aggregation.StdDev(name, c.column(), c.lower(), c.upper());
      case PERCENTILE_CONT, APPROX_QUANTILES ->
          throw new IllegalStateException("quantiles are grouped per column");
    };
  }

  /** The engine aggregations added by {@link #identicalCallsOnce}, in order. */
  List<Aggregation> engineAggregations() {
    return List.copyOf(added);
  }

  /**
   * Section 6, identical calls are released once: adds one engine aggregation per distinct call
   * (all PERCENTILE_CONT calls of one column and bounds become one quantile aggregation with all
   * their ranks) to {@code query}, and returns the output columns reading them.
   */
  List<OutputColumn> identicalCallsOnce(Query.Builder query, List<SelectedColumn> selected,
      List<String> groupBy) {
    Map<String, String> engineNameByCall = new HashMap<>();
    Set<String> engineNames = new HashSet<>();
    groupBy.forEach(g -> engineNames.add(g.toLowerCase(Locale.ROOT)));
    // All percentiles of one column (same bounds) become one engine quantile tree: one noisy
    // release and one budget share for the whole rank list.
    Map<String, List<Double>> ranksByColumn = new LinkedHashMap<>();
    for (SelectedColumn item : selected) {
      AggregateCall call = item.call();
      if (call != null && isQuantiles(call)) {
        List<Double> ranks = ranksByColumn.computeIfAbsent(call.quantileKey(), k -> new ArrayList<>());
        for (double rank : call.ranks()) {
          if (!ranks.contains(rank)) {
            ranks.add(rank);
          }
        }
      }
    }
    List<OutputColumn> outputs = new ArrayList<>();
    for (SelectedColumn item : selected) {
      AggregateCall call = item.call();
      if (call == null) {
        outputs.add(new OutputColumn(item.name(), item.groupKeyIndex(), null));
        continue;
      }
      if (isQuantiles(call)) {
        List<Double> ranks = ranksByColumn.get(call.quantileKey());
        String engineName = engineNameByCall.get(call.quantileKey());
        if (engineName == null) {
          engineName = engineName(item.name(), engineNames);
          engineNameByCall.put(call.quantileKey(), engineName);
          try {
            boolean estimated = call.boundsKind().estimated();
            // Estimated bounds: the stand-in range (the public one or ±2^60) until the engine's
            // bounds pass replaces it.
            double lo = estimated && Double.isNaN(call.lower()) ? -0x1p60 : call.lower();
            double hi = estimated && Double.isNaN(call.upper()) ? 0x1p60 : call.upper();
            Aggregation a = new Aggregation.Quantiles(engineName, call.column(), lo, hi, ranks,
                Aggregation.Quantiles.DEFAULT_BINS);
            query.aggregate(a);
            added.add(a);
            if (estimated && Double.isNaN(call.lower())) {
              query.autoBounds(engineName);
            } else if (estimated) {
              query.autoBounds(engineName, call.lower(), call.upper());
            }
          } catch (IllegalArgumentException e) {
            throw src.error(call.offset(), e.getMessage());
          }
        }
        if (call.function() == DpFunctions.APPROX_QUANTILES) {
          // One cell holding the n + 1 quantiles (BigQuery's ARRAY), each read from the tree.
          List<String> parts = new ArrayList<>();
          for (double rank : call.ranks()) {
            parts.add(engineName + "[" + rank + "]");
          }
          outputs.add(OutputColumn.array(item.name(), parts));
          continue;
        }
        outputs.add(new OutputColumn(item.name(), -1,
            ranks.size() > 1 ? engineName + "[" + call.percentile() + "]" : engineName));
        continue;
      }
      String engineName = engineNameByCall.get(call.key());
      if (engineName == null) {
        engineName = engineName(item.name(), engineNames);
        engineNameByCall.put(call.key(), engineName);
        try {
          Aggregation a = toEngine(call, engineName);
          query.aggregate(a);
          added.add(a);
          if (call.boundsKind().estimated()) {
            if (Double.isNaN(call.lower())) {
              query.autoBounds(engineName);
            } else {
              query.autoBounds(engineName, call.lower(), call.upper());
            }
          }
        } catch (IllegalArgumentException e) {
          throw src.error(call.offset(), e.getMessage());
        }
      }
      outputs.add(new OutputColumn(item.name(), -1, engineName));
    }
    return outputs;
  }
}
