package org.privet.engine.compile;

import java.util.List;
import org.privet.accounting.ApproxDp;
import org.privet.accounting.ApproxZcdp;
import org.privet.accounting.BasicAccountant;
import org.privet.accounting.Budget;
import org.privet.accounting.PrivacyLoss;
import org.privet.accounting.PureDp;
import org.privet.accounting.Zcdp;
import org.privet.engine.MechanismCost;
import org.privet.engine.NoiseKind;
import org.privet.engine.Query;
import org.privet.engine.budget.DefaultSplit;
import org.privet.engine.release.Release;
import org.privet.engine.selection.PartitionSelection;
import org.privet.engine.spi.BoundedAggregation;

/**
 * The compiler's output: what the backend runs and which noisy releases follow.
 *
 * {@code releaseKeys}: with public groups, each listed key typed for its columns (null for a key no
 * row can have), in the query's order; else null.
 *
 * <p>{@code total} is {@link #composedCost}: the query budget's own composition ({@link
 * Budget#compose} with {@link BasicAccountant}) of the mechanisms' losses, stated as {@link PureDp} for
 * an ε budget; {@code conversionDelta} the δ that converts zCDP parts inside an (ε, δ) total.
 */
public record CompiledQuery(Query query, NoiseKind noise, BoundedAggregation spec,
    List<Release> releases, List<Compiler.PlannedOutput> outputs, PartitionSelection selection, List<MechanismCost> costs,
    PrivacyLoss total, double conversionDelta, List<String> bounds,
    List<List<Object>> releaseKeys, List<DefaultSplit.Term> splitTerms) {

  /**
   * The composed cost of {@code parts} under {@code budget}, rounded up: Σρ (and Σδ) for a ρ budget,
   * basic composition at the budget's δ (zCDP parts converted once) for an (ε, δ) budget, Σε as
   * {@link PureDp} for an ε budget.
   *
   * @throws IllegalStateException if a pure budget would have to pay for δ
   */
  public static PrivacyLoss composedCost(Budget budget, List<PrivacyLoss> parts) {
    PrivacyLoss total = budget.compose(parts, BasicAccountant.INSTANCE);
    if (budget instanceof Budget.Epsilon) {
      ApproxDp a = (ApproxDp) total;
      if (a.delta() > 0) {
        throw new IllegalStateException("a pure budget cannot pay for δ");
      }
      return new PureDp(a.epsilon());
    }
    return total;
  }

  /** The δ spent converting zCDP parts inside an (ε, δ) total (0 if none). */
  static double conversionDelta(Budget budget, List<PrivacyLoss> parts) {
    if (!(budget instanceof Budget.EpsilonDelta)
        || parts.stream().noneMatch(p -> p instanceof Zcdp || p instanceof ApproxZcdp)) {
      return 0.0;
    }
    double own = 0;
    for (PrivacyLoss p : parts) {
      if (p instanceof ApproxDp a) {
        own += a.delta();
      } else if (p instanceof ApproxZcdp z) {
        own += z.delta();
      }
    }
    return budget.delta() - own;
  }

  /** Equality up to 1e-9 relative (floating-point re-association), same measure. */
  public static boolean sameCost(PrivacyLoss a, PrivacyLoss b) {
    if (a instanceof Zcdp x && b instanceof Zcdp y) {
      return close(x.rho(), y.rho());
    } else if (a instanceof PureDp x && b instanceof PureDp y) {
      return close(x.epsilon(), y.epsilon());
    } else if (a instanceof ApproxDp x && b instanceof ApproxDp y) {
      return close(x.epsilon(), y.epsilon()) && close(x.delta(), y.delta());
    } else if (a instanceof ApproxZcdp x && b instanceof ApproxZcdp y) {
      return close(x.rho(), y.rho()) && close(x.delta(), y.delta());
    }
    return false;
  }

  private static boolean close(double x, double y) {
    return Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
  }

  /** The ranks of the quantile aggregation named {@code output} (a tree release's output). */
  public double[] quantileRanks(String output) {
    for (org.privet.engine.Aggregation a : query.aggregations()) {
      if (a instanceof org.privet.engine.Aggregation.Quantiles qs && qs.name().equals(output)) {
        return qs.ranks().stream().mapToDouble(Double::doubleValue).toArray();
      }
    }
    throw new IllegalArgumentException("no quantiles named " + output);
  }
}
