package org.privet.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;

/**
 * What {@link Session#solve} found for a query given by target errors: the smallest budget (ε, or ρ
 * with GAUSSIAN noise) meeting every target, the split, and each output's error under it.
 *
 * @param query the query with the solved budget, noise and split (runnable as is)
 * @param parameter the solved ε or ρ of the query budget
 * @param cost the composed charge of the solved query (what {@link Session#run} charges)
 * @param targets the targets asked for
 * @param errors each output's half-width at the targets' confidence under the solved budget (the
 *     mechanisms' exact accuracy statements, fixed-point grid included)
 */
public record BudgetSolution(Query query, double parameter, PrivacyLoss cost,
    AccuracyTargets targets, Map<String, Double> errors) {
  public BudgetSolution {
    Objects.requireNonNull(query, "query");
    errors = Collections.unmodifiableMap(new LinkedHashMap<>(errors));
  }

  /**
   * What an output's error is measured in, when not its own value units: for a tree quantile the
   * rank error in rows of its per-rank statistic (docs/proofs/accuracy-targets.md).
   */
  private String unitOf(String output) {
    boolean tree = query.aggregations().stream().anyMatch(a -> a.name().equals(output)
        && a instanceof Aggregation.Quantiles);
    return tree ? " in rows of rank: bounds, per rank, the tree's count below a cell edge minus "
        + "the rank times its total; the released value's error in value units also depends on "
        + "the rows around the quantile (data) and is not bounded" : "";
  }

  /** Whether the solver works in ρ rather than ε. */
  public boolean inRho() {
    return AccuracyTargets.solvesForRho(query.noise());
  }

  /** A rendering for EXPLAIN: the solved cost and each output's error against its target. */
  public String render() {
    StringBuilder s = new StringBuilder();
    s.append(String.format("solved budget: %s = %s (smallest meeting every target at "
        + "confidence %.4g); charge %s%n", inRho() ? "rho" : "epsilon",
        BudgetFormat.up(parameter), targets.confidence(),
        BudgetFormat.spent(cost)));
    for (Map.Entry<String, Double> e : errors.entrySet()) {
      s.append(String.format("  %-14s error %.6g (target %.6g)%s%n", e.getKey(),
          e.getValue(), targets.halfWidths().get(e.getKey()), unitOf(e.getKey())));
    }
    s.append("  (each noisy release gets the share its tightest output needs; a release shared by "
        + "several outputs is charged once)\n");
    return s.toString();
  }
}
