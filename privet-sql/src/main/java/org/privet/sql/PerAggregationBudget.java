package org.privet.sql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.privet.accounting.Budget;
import org.privet.engine.Query;

/**
 * ZetaSQL's per-aggregation budget: {@code epsilon => e} on an aggregate and the option {@code
 * group_selection_epsilon = g}. The given ε's must not exceed the query's {@code epsilon} (else
 * "epsilon overconsumption", refused before anything runs); the parts without one share the rest
 * equally (the aggregates without {@code epsilon}, and private group selection without {@code
 * group_selection_epsilon}); when every part has its own, the query costs their sum. Compiled to
 * the engine's relative budget weights ({@link Query.Builder#budgetWeight}, {@link
 * Query.Builder#selectionBudgetWeight}); EXPLAIN shows the resulting shares. Identical calls are
 * released once, with the sum of their ε's.
 */
final class PerAggregationBudget {
  private PerAggregationBudget() {}

  /** Whether the statement uses the per-aggregation budget. */
  static boolean requested(DpOptions options, AggregateCallParser calls) {
    return calls.anyEpsilon() || !Double.isNaN(options.groupSelectionEpsilon());
  }

  /**
   * Sets the budget and the weights on {@code b}.
   *
   * @param privateSelection whether the query selects its groups privately
   */
  static void apply(DpOptions options, List<SelectedColumn> selected, List<OutputColumn> outputs,
      AggregateCallParser calls, boolean privateSelection, Query.Builder b, SourceText src) {
    int at = options.offsets().getOrDefault("epsilon", 0);
    if (!(options.budget() instanceof Budget.Epsilon || options.budget() instanceof Budget.EpsilonDelta)) {
      throw src.error(at, "epsilon => (per-aggregation budget) needs an epsilon budget");
    }
    double total = options.budget().epsilon();
    double selection = options.groupSelectionEpsilon();
    if (!Double.isNaN(selection) && !privateSelection) {
      throw src.error(options.offsets().get("group_selection_epsilon"), "group_selection_epsilon"
          + " applies only to private group selection (GROUP BY without public groups)");
    }
    Map<String, Double> given = new LinkedHashMap<>(); // engine aggregation -> ε
    Map<String, Integer> without = new LinkedHashMap<>(); // engine aggregation -> offset
    double sum = Double.isNaN(selection) ? 0 : selection;
    for (int i = 0; i < selected.size(); i++) {
      AggregateCall c = selected.get(i).call();
      if (c == null) {
        continue;
      }
      String engine = outputs.get(i).engineOutput();
      int bracket = engine.indexOf('[');
      engine = bracket < 0 ? engine : engine.substring(0, bracket);
      double e = calls.epsilon(c.offset());
      if (Double.isNaN(e)) {
        without.putIfAbsent(engine, c.offset());
      } else {
        given.merge(engine, e, Double::sum);
        sum += e;
      }
    }
    given.keySet().forEach(without::remove);
    int rest = without.size() + (privateSelection && Double.isNaN(selection) ? 1 : 0);
    if (sum > total * (1 + 1e-12)) {
      throw src.error(at, "epsilon overconsumption: the epsilon arguments and"
          + " group_selection_epsilon add up to " + sum + ", more than epsilon = " + total);
    }
    double share = rest == 0 ? 0 : (total - sum) / rest;
    if (rest > 0 && !(share > total * 1e-6)) {
      throw src.error(at, "epsilon overconsumption: nothing of epsilon = " + total + " is left for"
          + " the " + rest + " parts without their own epsilon");
    }
    double spent = rest == 0 ? sum : total;
    b.budget(options.budget() instanceof Budget.EpsilonDelta d ? Budget.approx(spent, d.delta())
        : Budget.pure(spent));
    try {
      for (Map.Entry<String, Double> e : given.entrySet()) {
        b.budgetWeight(e.getKey(), e.getValue() / spent);
      }
      for (String name : without.keySet()) {
        b.budgetWeight(name, share / spent);
      }
      if (privateSelection) {
        b.selectionBudgetWeight((Double.isNaN(selection) ? share : selection) / spent);
      }
    } catch (IllegalArgumentException e) {
      throw src.error(at, e.getMessage());
    }
  }
}
