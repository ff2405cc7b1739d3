package org.privet.sql;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SelectItem;
import org.privet.engine.Filter;
import org.privet.engine.Query;

/**
 * Second parsing stage: parses the plain SQL left by {@link DpClauseParser} with JSqlParser,
 * validates it against the dialect and the dataset, and compiles it into an engine {@link Query}
 * plus post-processing. Every refusal carries the position of the offending text.
 *
 * <p>The stages: {@link SelectBinder} (clauses, dataset, privacy unit, columns, GROUP BY, public
 * groups), {@link AggregateCallParser} (the DP aggregate calls), {@link SqlRewrites} (per-group
 * bounds as one clamped row per unit and group, COUNT bounds as L∞, COUNT(column) as a NOT NULL
 * filter, identical calls shared) and {@link PostProcessing} (ORDER BY, LIMIT, OFFSET). Why the
 * rewrites keep the engine's guarantee: {@code docs/proofs/sql-rewrites.md}.
 */
final class SelectCompiler {
  private SelectCompiler() {}

  static DpStatement compile(PreparedQuery pq, DatasetCatalog catalog) {
    return compile(pq, catalog, null);
  }

  /** With {@code planned} non-null, a statement without budget or max_error takes its targets. */
  static DpStatement compile(PreparedQuery pq, DatasetCatalog catalog, PlannedTargets planned) {
    SourceText src = pq.source();
    DpOptions options = DpOptions.from(pq, planned != null);
    SelectBinder binder = new SelectBinder(pq, catalog);
    PlainSelect ps = binder.parse();
    binder.refuseUnsupportedClauses(ps);
    binder.resolveDataset(ps);
    binder.resolvePrivacyUnit(options);
    String unit = binder.unit();
    DatasetDescriptor dataset = binder.dataset();

    Filter filter = pq.whereStart() < 0 ? null
        : binder.joins() != null ? joinFilter(binder, unit)
        : FilterParser.parse(src, pq.tokens(), pq.whereStart(), pq.whereEnd(),
            binder::resolveColumn, unit);
    List<String> groupBy = binder.groupBy(ps);
    AggregateCallParser calls = new AggregateCallParser(binder);
    List<SelectedColumn> selected = selectList(ps, binder, calls, groupBy);
    calls.refuseUnusedNamedArguments();

    SqlRewrites rewrites = new SqlRewrites(binder);
    List<AggregateCall> aggregateCalls = selected.stream().map(SelectedColumn::call).toList();
    filter = rewrites.countColumnAsFilter(filter, aggregateCalls);
    SqlRewrites.Contributions contributions = rewrites.contributionBounds(options, aggregateCalls);
    boolean r2t = R2TOption.requested(pq); // issue 25: truncation chosen privately by R2T
    if (!r2t && rewrites.estimatesRows(options, aggregateCalls) && !options.planned()
        && options.maxError().isEmpty() && !PerAggregationBudget.requested(options, calls)
        && options.thresholding() != org.privet.engine.Thresholding.POST_AGGREGATION) {
      contributions = contributions.withEstimate();
    }
    List<List<Object>> publicGroups = r2t ? R2TOption.publicGroups(pq, binder, options, groupBy)
        : binder.publicGroups(options, groupBy);

    SelfJoinCap.Choice selfJoin = null;
    if (binder.joins() != null && binder.joins().isSelfJoin()) {
      // issue 25: each side of a join on the unit keeps at most m rows per unit (public m)
      selfJoin = SelfJoinCap.of(pq, options, contributions, r2t, aggregateCalls,
          binder.joins().selfJoinCopies());
      binder.capSelfJoins(selfJoin.m());
      dataset = binder.dataset();
    }

    // Engine aggregations (identical calls are computed once) and the output columns.
    Query.Builder b = Query.from(dataset.source());
    List<OutputColumn> outputs = rewrites.identicalCallsOnce(b, selected, groupBy);
    PostProcessing post = new PostProcessing(binder);
    List<DpStatement.SortKey> orderBy = post.orderBy(ps, selected, groupBy, outputs);
    PostProcessing.LimitOffset limitOffset = post.limitOffset(ps);

    if (r2t) {
      R2TOption.apply(pq, options, unit, groupBy, publicGroups, aggregateCalls, b,
          selfJoin != null ? selfJoin.r2tDefaultBound() : R2TOption.DEFAULT_BOUND);
    } else if (unit != null && contributions.rowsCap() > 0) {
      b.privacyUnit(unit).maxRowsContributed(contributions.rowsCap());
    } else if (unit != null) {
      b.privacyUnit(unit).maxGroupsContributed(contributions.l0());
      if (contributions.estimated()) {
        org.privet.engine.ContributionBoundEstimate estimate =
            new org.privet.engine.ContributionBoundEstimate(Double.isNaN(options.autoBoundsShare())
                ? org.privet.engine.ContributionBoundEstimate.DEFAULT_SHARE
                : options.autoBoundsShare(), org.privet.engine.ContributionBoundEstimate.DEFAULT_CONFIDENCE);
        b.estimateMaxRowsPerGroup(selfJoin == null ? estimate
            : estimate.withMaxExponent(selfJoin.estimateMaxExponent())); // L0·2^e ≤ the cap
      } else {
        b.maxRowsPerGroup(contributions.lInf());
      }
    } else {
      b.eachRowIsAUnit();
    }
    if (!groupBy.isEmpty()) {
      b.groupBy(groupBy.toArray(String[]::new));
    }
    if (publicGroups != null) {
      b.publicGroups(publicGroups);
    }
    if (filter != null) {
      b.where(filter);
    }
    if (options.planned()) {
      if (PerAggregationBudget.requested(options, calls)) {
        throw src.error(pq.selectOffset(), "a planned statement gets its budget from the"
            + " planner: it cannot use epsilon => or group_selection_epsilon");
      }
      java.util.Map<String, Double> targets;
      try {
        targets = planned.halfWidths(rewrites.engineAggregations(), options.minCount(),
            unit == null ? 1 : contributions.lInf());
      } catch (IllegalArgumentException e) {
        throw src.error(pq.selectOffset(), e.getMessage());
      }
      AccuracyTargetOptions.applyTargets(options, b, targets, pq.selectOffset(), src);
    } else if (options.maxError().isEmpty() && PerAggregationBudget.requested(options, calls)) {
      PerAggregationBudget.apply(options, selected, outputs, calls,
          !groupBy.isEmpty() && publicGroups == null && !options.publicGroupsRequested(), b, src);
    } else if (options.maxError().isEmpty()) {
      b.budget(options.budget());
    } else if (PerAggregationBudget.requested(options, calls)) {
      throw src.error(options.offsets().get("max_error"), "max_error solves for the budget: it"
          + " cannot be combined with epsilon => or group_selection_epsilon");
    } else {
      AccuracyTargetOptions.apply(options, b, outputs, src); // issue 16 hook
    }
    b.noise(options.noise());
    if (!Double.isNaN(options.autoBoundsShare())) {
      if (!contributions.estimated() && aggregateCalls.stream().noneMatch(c -> c != null
          && c.boundsKind().estimated())) {
        throw src.error(options.offsets().get("auto_bounds_share"), "auto_bounds_share: no "
            + "aggregate has " + AggregateCallParser.BOUNDS_PER_ROW + " => AUTO and L∞ is not "
            + "estimated");
      }
      if (aggregateCalls.stream().anyMatch(c -> c != null && c.boundsKind().estimated())) {
        b.autoBoundsShare(options.autoBoundsShare());
      }
    }
    if (options.minPrivacyUnitsPerGroup() > 1) {
      if (groupBy.isEmpty()) {
        throw src.error(options.offsets().get("min_privacy_units_per_group"),
            "min_privacy_units_per_group applies to the groups of a GROUP BY");
      }
      b.minPrivacyUnitsPerGroup(options.minPrivacyUnitsPerGroup());
    }
    if (options.thresholding() != org.privet.engine.Thresholding.AUTO && !groupBy.isEmpty()
        && !options.publicGroupsRequested() && publicGroups == null) {
      b.thresholding(options.thresholding());
    }
    Query query;
    try {
      query = b.build();
    } catch (IllegalArgumentException e) {
      throw src.error(pq.selectOffset(), "the engine refused the query: " + e.getMessage());
    }
    // Output columns that read group keys must point at released keys, which the engine returns.
    return new DpStatement(src.text(), pq.explain(), dataset.name(), query, outputs, orderBy,
        limitOffset.limit(), limitOffset.offset(),
        // R2T chooses the truncation privately, as the L∞ estimate does: no "L∞ = 1" note.
        DialectNotes.of(options, selected, unit, r2t ? contributions.withEstimate() : contributions,
            !groupBy.isEmpty()),
        jsonReportColumns(selected, calls));
  }

  /** WHERE of a join: its filter conjuncts (the join conditions taken out), each parsed, ANDed. */
  private static Filter joinFilter(SelectBinder binder, String unit) {
    List<Filter> parts = new ArrayList<>();
    for (int[] r : binder.joins().filterRanges()) {
      parts.add(FilterParser.parse(binder.src, binder.pq.tokens(), r[0], r[1], binder.filterColumns(),
          unit));
    }
    return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new Filter.And(parts);
  }

  /** The indexes of the output columns whose call asked for {@code report_format => "JSON"}. */
  private static java.util.Set<Integer> jsonReportColumns(List<SelectedColumn> selected,
      AggregateCallParser calls) {
    java.util.Set<Integer> out = new java.util.TreeSet<>();
    for (int i = 0; i < selected.size(); i++) {
      AggregateCall c = selected.get(i).call();
      if (c != null && calls.jsonReport(c.offset())) {
        out.add(i);
      }
    }
    return out;
  }

  /** The SELECT list: group keys and DP aggregate calls, with distinct output names. */
  private static List<SelectedColumn> selectList(PlainSelect ps, SelectBinder binder,
      AggregateCallParser parser, List<String> groupBy) {
    PreparedQuery pq = binder.pq;
    SourceText src = binder.src;
    String unit = binder.unit();
    List<SelectedColumn> selected = new ArrayList<>();
    for (SelectItem<?> item : ps.getSelectItems()) {
      int at = binder.at(item, pq.selectOffset());
      Expression e = item.getExpression();
      String alias = item.getAlias() == null ? null : SelectBinder.unquote(item.getAlias().getName());
      if (e instanceof AllColumns) {
        throw src.error(at, "SELECT * is not allowed: select GROUP BY columns and DP aggregates");
      }
      if (e instanceof Column c) {
        String name = binder.resolveColumnRef(c, at).name();
        int k = groupBy.indexOf(name);
        if (name.equals(unit)) {
          throw src.error(at, "the privacy unit column '" + unit + "' cannot be selected");
        }
        if (k < 0) {
          throw src.error(at, "column '" + name + "' is neither in GROUP BY nor inside a DP aggregate;"
              + " raw values cannot be released");
        }
        selected.add(new SelectedColumn(alias != null ? alias : name, k, null, null));
      } else if (e instanceof Function f) {
        AggregateCall call = parser.parse(f, binder.at(f, at));
        selected.add(new SelectedColumn(alias != null ? alias : f.toString(), -1, call,
            f.toString()));
      } else if (e instanceof AnalyticExpression) {
        throw src.error(at, "window functions are not allowed in a DP query");
      } else if (binder.mentionsUnit(e)) {
        throw src.error(at, "functions on the privacy unit column '" + unit + "' are not allowed");
      } else {
        throw src.error(at, "only GROUP BY columns and DP aggregate calls (COUNT, SUM, AVG, VARIANCE,"
            + " STDDEV, PERCENTILE_CONT) can be selected");
      }
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < selected.size(); i++) {
      if (!seen.add(selected.get(i).name().toLowerCase(Locale.ROOT))) {
        throw src.error(binder.at(ps.getSelectItems().get(i), pq.selectOffset()),
            "output column name '" + selected.get(i).name() + "' is used twice; give distinct aliases");
      }
    }
    if (selected.stream().allMatch(c -> c.call() == null)) {
      throw src.error(pq.selectOffset(), "select at least one DP aggregate (COUNT, SUM, AVG,"
          + " VARIANCE, STDDEV, PERCENTILE_CONT)");
    }
    return selected;
  }
}
