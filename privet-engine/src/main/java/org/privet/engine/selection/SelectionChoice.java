package org.privet.engine.selection;

import java.util.ArrayList;
import java.util.List;
import org.privet.engine.Aggregation;
import org.privet.engine.NoiseKind;
import org.privet.engine.Query;
import org.privet.engine.Thresholding;
import org.privet.engine.compile.Compiler;
import org.privet.engine.compile.Rewrite;
import org.privet.engine.release.MechanismSpec;

/**
 * The choice of a private partition-selection strategy. The candidates follow
 * {@link Query#thresholding()}:
 *
 * <ul>
 *   <li>AUTO: post-aggregation thresholding on the query's own COUNT(*) with L∞ = 1 or
 *       COUNT(DISTINCT unit) when it has one (its noisy count is thresholded and released, so
 *       selection buys no second measurement: PipelineDP's post-aggregation thresholding); the
 *       optimal mechanism of Desfontaines et al. 2022 with a budget share of its own; a separate
 *       Laplace or Gaussian threshold (as the value noise). With {@link
 *       Query.Builder#postAggregationThresholding()} only the first.
 *   <li>LAPLACE, GAUSSIAN: that threshold, separate (or reused with the flag); OPTIMAL: the optimal
 *       mechanism; POST_AGGREGATION: the reuse.
 * </ul>
 *
 * Each candidate is compiled as it would run (its budget split, noise kind and threshold or keep
 * table), and the one that releases a group with probability ≥ ½ from the fewest distinct units
 * wins; ties go to the earlier candidate (reuse first: it also leaves more budget to the other
 * outputs). Everything here depends only on the query and the budget (public), never on data.
 */
public final class SelectionChoice {
  private SelectionChoice() {}

  /** A strategy to compile: reuse the query's count, or a separate selection of {@code kind}. */
  public record Option(String name, boolean reuse, PartitionSelection.Kind kind) {}

  /** A compiled candidate; {@code reason} is set on the chosen one. */
  public record Candidate(Option option, NoiseKind noise, PartitionSelection.Kind kind,
      Rewrite rewrite, Compiler.Split split, double weight, PartitionSelection selection,
      String reason) {
    public Candidate(Option option, NoiseKind noise, PartitionSelection.Kind kind,
        Rewrite rewrite, Compiler.Split split, double weight,
        PartitionSelection selection) {
      this(option, noise, kind, rewrite, split, weight, selection, "");
    }

    public boolean reuse() {
      return option.reuse();
    }

    /** What the selection mechanism does, for the receipt. */
    public String purpose() {
      String k = kind == PartitionSelection.Kind.LAPLACE ? "Laplace" : "Gaussian";
      if (kind == PartitionSelection.Kind.SET_UNION) {
        return "differentially private set union (policy Gaussian of Gopi et al. 2020) over each "
            + "unit's kept groups, threshold ρ = " + MechanismSpec.fmt(selection.setUnionSelection()
                .threshold()) + " on the weights";
      }
      if (kind == PartitionSelection.Kind.OPTIMAL) {
        return "optimal keep probabilities of Desfontaines et al. 2022 on distinct units, 50% "
            + "kept from " + half(selection.unitsForHalfRelease()) + " units";
      }
      return (option.reuse() ? "post-aggregation thresholding: " : "") + k + " threshold "
          + selection.threshold() + " on distinct units"
          + (option.reuse() ? ", whose noisy count is the released count" : "");
    }

    public String weightReason() {
      return option.reuse() ? "the thresholded count's weight (one measurement for selection "
          + "and the counts it serves; by default its textbook parts, (1 + counts)/(outputs + 1)"
          + " of the budget)" : "default weight 1 for partition selection";
    }
  }

  /** The candidate strategies for {@code q}, in tie-break order. */
  public static List<Option> options(Query q) {
    // With L∞ estimated the count is not a threshold statistic whatever the estimate: the
    // strategy is chosen before the charge, at the stand-in L∞, and must stay the same after it.
    boolean eligible = q.contributionBoundEstimate().isEmpty()
        && Query.Builder.hasThresholdStatistic(q.aggregations(), q.maxRowsPerGroup());
    List<Option> out = new ArrayList<>();
    switch (q.thresholding()) {
      case AUTO -> {
        if (q.postAggregationThresholding()) {
          out.add(new Option("post-aggregation thresholding", true, null));
        } else {
          if (eligible) {
            out.add(new Option("post-aggregation thresholding", true, null));
          }
          out.add(new Option("optimal selection", false, PartitionSelection.Kind.OPTIMAL));
          out.add(new Option("separate threshold", false, null));
        }
      }
      case LAPLACE -> out.add(new Option(q.postAggregationThresholding()
          ? "post-aggregation thresholding" : "separate threshold",
          q.postAggregationThresholding(), PartitionSelection.Kind.LAPLACE));
      case GAUSSIAN -> out.add(new Option(q.postAggregationThresholding()
          ? "post-aggregation thresholding" : "separate threshold",
          q.postAggregationThresholding(), PartitionSelection.Kind.GAUSSIAN));
      case OPTIMAL -> out.add(new Option("optimal selection", false,
          PartitionSelection.Kind.OPTIMAL));
      case POST_AGGREGATION -> out.add(new Option("post-aggregation thresholding", true, null));
      case SET_UNION -> out.add(new Option("set union", false, PartitionSelection.Kind.SET_UNION));
      default -> throw new IllegalStateException("unknown thresholding " + q.thresholding());
    }
    return out;
  }

  /**
   * Selection's budget weight: the query's selectionBudgetWeight if set; else, when it reuses the
   * query's counts, the largest explicit weight of a reused count (1 without one); else 1.
   */
  public static double weight(Query q, boolean reuse) {
    if (q.selectionBudgetWeight().isPresent()) {
      return q.selectionBudgetWeight().getAsDouble();
    }
    double w = 1.0;
    if (reuse) {
      boolean any = false;
      for (Aggregation a : q.aggregations()) {
        Double explicit = q.budgetWeights().get(a.name());
        if (thresholdStatistic(a, q.maxRowsPerGroup()) && explicit != null) {
          w = any ? Math.max(w, explicit) : explicit;
          any = true;
        }
      }
    }
    return w;
  }

  /**
   * Whether {@code a} counts each group's distinct units after bounding, so that selection's noisy
   * unit count can be its output: COUNT(DISTINCT unit), or COUNT(*) at L∞ = 1.
   */
  public static boolean thresholdStatistic(Aggregation a, int maxRowsPerGroup) {
    return a instanceof Aggregation.CountDistinctUnits
        || (a instanceof Aggregation.Count && maxRowsPerGroup == 1);
  }

  /** The candidate releasing a group with probability ≥ ½ from the fewest units, with its reason. */
  public static Candidate best(Query q, List<Candidate> candidates) {
    Candidate best = candidates.get(0);
    for (Candidate c : candidates) {
      if (c.selection().unitsForHalfRelease() < best.selection().unitsForHalfRelease()) {
        best = c;
      }
    }
    StringBuilder why = new StringBuilder();
    if (candidates.size() == 1) {
      why.append(forcedBy(q)).append(" → ").append(label(best));
    } else {
      why.append("AUTO chose ").append(label(best))
          .append(": a group is released with probability ≥ ½ from ")
          .append(half(best.selection().unitsForHalfRelease())).append(" distinct units (");
      String sep = "";
      for (Candidate c : candidates) {
        if (c != best) {
          why.append(sep).append(label(c)).append(": ")
              .append(half(c.selection().unitsForHalfRelease()));
          sep = "; ";
        }
      }
      why.append(")");
      if (q.maxGroupsContributed() > 1) {
        why.append("; set union (group_selection_strategy = SET_UNION) is opt-in: how many groups "
            + "it releases depends on how units spread over groups, which AUTO cannot compare "
            + "without reading data");
      }
    }
    return new Candidate(best.option(), best.noise(), best.kind(), best.rewrite(), best.split(),
        best.weight(), best.selection(), why.toString());
  }

  private static String forcedBy(Query q) {
    if (q.thresholding() != Thresholding.AUTO) {
      return "thresholding = " + q.thresholding();
    }
    return "postAggregationThresholding()";
  }

  private static String label(Candidate c) {
    String k = switch (c.kind()) {
      case LAPLACE -> "Laplace";
      case GAUSSIAN -> "Gaussian";
      case OPTIMAL, SET_UNION -> "";
    };
    return !c.kind().noisyCount() ? c.option().name()
        : c.option().name() + " (" + k + ")";
  }

  private static String half(long units) {
    return units == Long.MAX_VALUE ? "never" : Long.toString(units);
  }
}
