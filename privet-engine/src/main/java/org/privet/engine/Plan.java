package org.privet.engine;

import java.util.List;
import java.util.Objects;
import org.privet.accounting.BudgetFormat;
import org.privet.accounting.PrivacyLoss;

/**
 * What a query will do, computed without reading data or charging anything ({@link
 * Session#explain}).
 *
 * @param query the query
 * @param noise the noise actually used (AUTO resolved)
 * @param bounds the contribution bounds and per-aggregation clamping/fixed-point scales, as text
 * @param mechanisms every mechanism with its cost, noise and expected error
 * @param total the composed cost that {@link Session#run} would charge
 * @param zcdpConversionDelta δ used to convert zCDP parts inside an (ε, δ) total (else 0)
 * @param physicalPlan what the backend runs (e.g. SQL)
 * @param split how the budget is split across selection and outputs and why, with each output's
 *     relative noise against the equal split (null when no output has additive noise)
 */
public record Plan(Query query, NoiseKind noise, List<String> bounds,
    List<PlannedMechanism> mechanisms, PrivacyLoss total, double zcdpConversionDelta,
    String physicalPlan, SplitReport split) {
  public Plan {
    Objects.requireNonNull(query, "query");
    bounds = List.copyOf(bounds);
    mechanisms = List.copyOf(mechanisms);
    Objects.requireNonNull(total, "total");
  }

  /**
   * One mechanism of the plan.
   *
   * @param cost what it costs and why
   * @param sensitivity its sensitivity in output units (L1 for Laplace, L2 for Gaussian; for the
   *     exponential mechanism the utility sensitivity in ranks)
   * @param noiseStddev standard deviation of its noise per released value, in output units (NaN
   *     for the exponential mechanism)
   * @param error95 half-width of a 95% interval of its noise per released value, in output units;
   *     for partition selection the release threshold (in units); for exponential-mechanism
   *     quantiles a 95% bound on the rank error; for a quantile tree (noise per node) the widest
   *     per-rank 95% statement on a quantile's rank error, in rows (over its ranks and evenly
   *     spaced cell edges; {@code docs/proofs/engine-quantiles.md})
   */
  public record PlannedMechanism(MechanismCost cost, double sensitivity, double noiseStddev,
      double error95) {
    public PlannedMechanism {
      Objects.requireNonNull(cost, "cost");
    }
  }

  /** A multi-line human-readable rendering. */
  public String render() {
    StringBuilder s = new StringBuilder();
    s.append("query: ").append(query).append('\n');
    if (query.source() instanceof Source.Relational r) {
      s.append(relational(r));
    }
    s.append("noise: ").append(noise).append('\n');
    s.append("bounds:\n");
    bounds.forEach(b -> s.append("  ").append(b).append('\n'));
    s.append("mechanisms:\n");
    for (PlannedMechanism m : mechanisms) {
      s.append(String.format("  %-14s %-46s %s  cost=%s  sens=%.6g  sd=%.6g  err95=%.6g%n",
          m.cost().output(), m.cost().purpose(), m.cost().mechanism(),
          BudgetFormat.spent(m.cost().loss()),
          m.sensitivity(), m.noiseStddev(), m.error95()));
      if (!Double.isNaN(m.cost().share())) {
        s.append(String.format("  %-14s   budget share %.4g%%: %s%n", "",
            100 * m.cost().share(), m.cost().shareReason()));
      }
    }
    if (split != null) {
      s.append(split.render());
    }
    s.append("total charge: ").append(BudgetFormat.spent(total));
    if (zcdpConversionDelta > 0) {
      s.append(" (zCDP parts converted at δ=")
          .append(BudgetFormat.up(zcdpConversionDelta)).append(')');
    }
    s.append('\n').append("physical plan:\n").append(physicalPlan).append('\n');
    return s.toString();
  }

  /**
   * A joined source (issue 25): the derived unit path, the truncation chosen, and the relational
   * plan with each node's stability.
   */
  private String relational(Source.Relational r) {
    String unit = query.privacyUnit().orElseThrow();
    String how = query.contributionBoundEstimate()
        .map(e -> "Linf estimated privately: the smallest power of two leaving no more units' rows"
            + " above it, nor in the next cell alone, than the noise explains ("
            + e.suffixConfidence() + ", " + e.windowConfidence() + " for the next "
            + ContributionBoundEstimate.WINDOW_CELLS + " cells and " + e.confidence()
            + " one-sided), with "
            + (100 * e.share()) + "% of the budget")
        .orElse(query.r2tTruncation().isPresent() ? (query.aggregations().get(0)
            instanceof Aggregation.Sum ? "each unit's total clamped at a threshold chosen"
            + " privately by R2T among the powers of two up to " + query.r2tTruncation().getAsLong()
            + "; one pass, one measure per threshold below" : "Linf chosen privately by R2T among"
            + " the powers of two up to " + query.r2tTruncation().getAsLong() + "; Linf = 1 shown"
            + " is a stand-in, one pass per threshold below") : query.maxRowsContributed() > 0
            ? "at most " + query.maxRowsContributed() + " rows per unit in total"
            + " (max_rows_contributed); the L0 = Linf = " + query.maxRowsContributed()
            + " shown are its loose bounds" : "bounds given");
    org.privet.engine.plan.Relation plan = new org.privet.engine.plan.Relation.Aggregate(
        new org.privet.engine.plan.Relation.Truncate(r.relation(), unit,
            query.maxGroupsContributed(), query.maxRowsPerGroup(), how),
        query.groupBy(), query.aggregations().stream().map(Aggregation::name).toList());
    StringBuilder s = new StringBuilder();
    s.append("privacy unit: ").append(unit).append(", derived: ").append(r.unitDerivation()).append('\n');
    if (query.maxRowsContributed() > 0) {
      s.append("truncation: at most ").append(query.maxRowsContributed())
          .append(" row(s) per unit in total over all groups (max_rows_contributed)\n");
    } else {
      s.append("truncation: at most ").append(query.maxGroupsContributed())
          .append(" group(s) per unit, ")
          .append(query.r2tTruncation().isPresent() ? "Linf chosen by R2T"
              : query.contributionBoundEstimate().isPresent() ? "Linf estimated privately"
              : query.maxRowsPerGroup() + " row(s) per unit per group")
          .append(" (").append(how).append(")\n");
    }
    s.append("relational plan:\n");
    plan.explain().lines().forEach(l -> s.append("  ").append(l).append('\n'));
    return s.toString();
  }

  @Override
  public String toString() {
    return render();
  }
}
